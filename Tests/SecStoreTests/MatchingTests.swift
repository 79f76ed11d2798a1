import Foundation
import Testing
import SecStore

/// Which items a query finds (reference §4.3, §4.6; §6 cases 5, 10, 11, 44-47).
@Suite struct MatchingTests {
    /// An attribute filter with the value one stored item has and another does not.
    struct Filter: Sendable, CustomTestStringConvertible {
        var key: AttributeKey
        var wanted: AttributeValue
        var other: AttributeValue
        var testDescription: String { key.rawValue }
    }

    static let filters: [Filter] = [
        Filter(key: .label, wanted: "Production token", other: "Staging token"),
        Filter(key: .comment, wanted: "rotated monthly", other: "rotated yearly"),
        Filter(key: .itemDescription, wanted: "application password", other: "web form password"),
        Filter(key: .generic, wanted: .data(Data([0, 1, 2, 0xFF])), other: .data(Data([0, 1, 2, 0xFE]))),
        Filter(key: .creator, wanted: .number(0x6162_6364), other: .number(0x6162_6365)),
        Filter(key: .type, wanted: .number(42), other: .number(43)),
        Filter(key: .isInvisible, wanted: .bool(true), other: .bool(false)),
        Filter(key: .isNegative, wanted: .bool(true), other: .bool(false)),
        Filter(key: .accessible, wanted: .string("ck"), other: .string("dk")),
    ]

    /// §4.3: any attribute is an equality filter, including ones with no blind index.
    @Test(arguments: filters, Handle.allCases)
    func equalityFilterOnAnyAttribute(filter: Filter, handle: Handle) throws {
        let harness = try StoreHarness()
        for (account, value) in [("wanted", filter.wanted), ("other", filter.other), ("none", nil)] {
            var item = Item.genericPassword(service: "s", account: account, data: account.utf8Data)
            item.attributes[filter.key] = value
            try harness.store.add(item)
        }
        try harness.settle(handle)

        let found = try harness.store.items(matching: Sample.genp([filter.key: filter.wanted], returning: [.attributes, .data]))
        #expect(found.map(\.attributes.account) == ["wanted"])
        #expect(found.first?.data == "wanted".utf8Data)
        #expect(found.first?.attributes[filter.key] == filter.wanted)

        let combined = Sample.genp([.service: "s", .account: "other", filter.key: filter.wanted])
        expectError(.itemNotFound) { try harness.store.items(matching: combined) }
    }

    /// §2: only primary-key attributes have defaults (acct "", port 0, …). An attribute an
    /// item does not have is absent (Apple's NULL column), so even a filter with the empty
    /// or zero value does not match it.
    @Test(arguments: [
        (AttributeKey.label, AttributeValue.string("")), (.comment, ""), (.itemDescription, ""), (.generic, .data(Data())),
        (.creator, 0), (.type, 0), (.isInvisible, .bool(false)), (.isNegative, .bool(false)),
    ])
    func absentAttributeDoesNotMatchItsZeroValue(key: AttributeKey, value: AttributeValue) throws {
        let harness = try StoreHarness()
        try harness.store.add(Sample.a())
        expectError(.itemNotFound) { try harness.store.items(matching: Sample.genp([.service: "s", key: value])) }
        var item = Item.genericPassword(service: "s", account: "b")
        item.attributes[key] = value
        try harness.store.add(item)
        #expect(try harness.store.items(matching: Sample.genp([.service: "s", key: value])).map(\.attributes.account) == ["b"])
    }

    /// §6.10-11: limit one returns one item, all returns every match, count(n) at most n.
    @Test(arguments: [(MatchLimit.one, 1), (.all, 3), (.count(1), 1), (.count(2), 2), (.count(5), 3)])
    func matchLimit(limit: MatchLimit, expected: Int) throws {
        let harness = try StoreHarness()
        for account in ["a", "b", "c"] {
            try harness.store.add(.genericPassword(service: "s", account: account, label: "shared"))
        }
        try harness.store.add(.genericPassword(service: "t", account: "a", label: "shared"))
        // By an indexed attribute (SQL LIMIT) and by a decrypted one (limit while scanning).
        #expect(try harness.store.items(matching: Sample.genp([.service: "s"], limit: limit)).count == expected)
        #expect(try harness.store.items(matching: Sample.genp([.service: "s", .label: "shared"], limit: limit)).count == expected)
        #expect(Set(try harness.store.items(matching: Sample.genp([.service: "s"], limit: .all)).compactMap(\.attributes.account))
            == ["a", "b", "c"])
    }

    @Test func matchLimitBelowOneIsInvalid() throws {
        let harness = try StoreHarness()
        try harness.store.add(Sample.a())
        expectError(.invalidParameter) { try harness.store.items(matching: Sample.genp([:], limit: .count(0))) }
    }

    /// SecStore honours kSecMatchCaseInsensitive (documented exception to §6.44); without it
    /// matching is exact, byte for byte.
    @Test(arguments: [AttributeKey.account, .service, .label, .comment])
    func caseInsensitiveMatching(key: AttributeKey) throws {
        let harness = try StoreHarness()
        var item = Item.genericPassword(service: "svc", account: "acct", data: "pw".utf8Data)
        item.attributes[key] = "Mixed.Case-Value"
        try harness.store.add(item)
        var decoy = Item.genericPassword(service: "svc2", account: "acct2")
        decoy.attributes[key] = "Mixed.Case-Valu"
        try harness.store.add(decoy)

        let lower: Attributes = [key: "mixed.case-value"]
        expectError(.itemNotFound) { try harness.store.items(matching: Sample.genp(lower)) }
        let found = try harness.store.items(matching: Sample.genp(lower, caseInsensitive: true))
        #expect(found.count == 1)
        #expect(found.first?.attributes[key] == .string("Mixed.Case-Value"))
        #expect(try harness.store.count(Sample.genp([key: "MIXED.CASE-VALUE"], caseInsensitive: true)) == 1)
    }

    /// §6.5 and §3: queries see non-synchronizable items unless asked; `.any` sees both.
    @Test(arguments: Handle.allCases)
    func synchronizableMatching(handle: Handle) throws {
        let harness = try StoreHarness()
        try harness.store.add(Sample.a())
        var synced = Sample.a(synchronizable: true)
        synced.data = "pw-sync".utf8Data
        try harness.store.add(synced)
        try harness.settle(handle)

        func query(_ sync: SynchronizableMatch) -> Query {
            Sample.genp([.service: "s", .account: "a"], returning: [.attributes, .data], synchronizable: sync)
        }
        let unsynced = try harness.store.items(matching: query(.no))
        #expect(unsynced.map(\.data) == ["pw".utf8Data])
        #expect(unsynced.first?.attributes[.synchronizable] == .number(0))
        let onlySynced = try harness.store.items(matching: query(.yes))
        #expect(onlySynced.map(\.data) == ["pw-sync".utf8Data])
        #expect(onlySynced.first?.attributes[.synchronizable] == .number(1))
        #expect(Set(try harness.store.items(matching: query(.any)).compactMap(\.data)) == ["pw".utf8Data, "pw-sync".utf8Data])
        // Without indexed filters too (the sync flag then comes from the decrypted metadata).
        #expect(try harness.store.count(Sample.genp([.label: "x"], synchronizable: .any)) == 0)
        #expect(try harness.store.count(Sample.genp([:], synchronizable: .yes)) == 1)
    }

    /// §4.3: a query names one class and never sees the other's items.
    @Test func classesAreSeparate() throws {
        let harness = try StoreHarness()
        try harness.store.add(.genericPassword(service: "example.com", account: "u"))
        #expect(try harness.store.count(Sample.inet([.account: "u"])) == 0)
        try harness.store.add(Sample.i())
        #expect(try harness.store.count(Sample.inet([.account: "u"])) == 1)
        #expect(try harness.store.count(Sample.genp([.account: "u"])) == 1)
    }

    /// §6.45: exact server equality, and kSecMatchHostOrSubdomainOfHost.
    @Test(arguments: Handle.allCases)
    func hostOrSubdomain(handle: Handle) throws {
        let harness = try StoreHarness()
        for server in ["example.com", "www.example.com", "notexample.com", "example.com.evil.org"] {
            try harness.store.add(Sample.i(server: server))
        }
        try harness.settle(handle)
        #expect(try harness.store.items(matching: Sample.inet([.server: "example.com"])).map(\.attributes.server) == ["example.com"])
        expectError(.itemNotFound) { try harness.store.items(matching: Sample.inet([.server: "api.example.com"])) }
        let found = try harness.store.items(matching: Sample.inet([:], hostOrSubdomain: "example.com"))
        #expect(Set(found.compactMap(\.attributes.server)) == ["example.com", "www.example.com"])
        let genp = Query(itemClass: .genericPassword, hostOrSubdomain: "example.com")
        let error = expectError(.unsupported) { try harness.store.items(matching: genp) }
        #expect(error?.status == OSStatusValue.unimplemented)
    }

    /// §6.47 and §2: "443" and 443 are the same port, both for matching and for the key.
    @Test func numberAttributeStringEqualsNumber() throws {
        let harness = try StoreHarness()
        var item = Sample.i()
        item.attributes[.port] = "443"
        try harness.store.add(item)
        let found = try harness.store.items(matching: Sample.inet([.port: .number(443)]))
        #expect(found.first?.attributes[.port] == .number(443))
        #expect(try harness.store.count(Sample.inet([.port: "443"])) == 1)
        expectError(.duplicateItem) { try harness.store.add(Sample.i()) }
        // A four-character code stays a string (ptcl "htps").
        #expect(found.first?.attributes[.protocol] == .string("htps"))
        #expect(try harness.store.count(Sample.inet([.protocol: "htps"])) == 1)
    }

    /// §6.46: a server given as data matches as its bytes and comes back as data.
    @Test func serverGivenAsDataComesBackAsData() throws {
        let harness = try StoreHarness()
        var item = Sample.i()
        item.attributes[.server] = .data("example.com".utf8Data)
        try harness.store.add(item)
        let found = try harness.store.items(matching: Sample.inet([.server: "example.com"]))
        #expect(found.first?.attributes[.server] == .data("example.com".utf8Data))
    }

    /// §4.6: a blob attribute given as a string equals the same bytes given as data, for
    /// matching and for the primary key.
    @Test(arguments: [AttributeKey.account, .service, .label, .comment, .generic])
    func stringAndDataAreTheSameBlobValue(key: AttributeKey) throws {
        let harness = try StoreHarness()
        var item = Item.genericPassword(service: "s", account: "a")
        item.attributes[key] = "value"
        try harness.store.add(item)

        #expect(try harness.store.count(Sample.genp([key: .data("value".utf8Data)])) == 1)
        var asData = item
        asData.attributes[key] = .data("value".utf8Data)
        if ItemClass.genericPassword.primaryKey.contains(key) {
            expectError(.duplicateItem) { try harness.store.add(asData) }
        }
        var other = Item.genericPassword(service: "s2", account: "a2")
        other.attributes[key] = .data("value".utf8Data)
        try harness.store.add(other)
        #expect(try harness.store.count(Sample.genp([key: "value"])) == 2)
    }

    /// §4.6: strings compare byte for byte, with no Unicode normalization: a precomposed
    /// "é" and "e" + combining acute are different accounts and different labels.
    @Test func noUnicodeNormalization() throws {
        let harness = try StoreHarness()
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        try harness.store.add(.genericPassword(service: "s", account: composed, data: Data([1]), label: composed))
        try harness.store.add(.genericPassword(service: "s", account: decomposed, data: Data([2]), label: decomposed))
        for (text, secret) in [(composed, Data([1])), (decomposed, Data([2]))] {
            #expect(try harness.store.items(matching: Sample.genp([.account: .string(text)], returning: .data)).map(\.data) == [secret])
            #expect(try harness.store.items(matching: Sample.genp([.label: .string(text)], returning: .data)).map(\.data) == [secret])
        }
    }

    /// §6.52: the attributes a query returns, used as a query, find the same item.
    @Test func returnedAttributesFindTheItemAgain() throws {
        let harness = try StoreHarness()
        try harness.store.add(Sample.a())
        try harness.store.add(.genericPassword(service: "s", account: "b", data: "other".utf8Data))
        var attributes = try #require(try harness.store.items(matching: Sample.q()).first).attributes
        attributes[.synchronizable] = nil  // goes in Query.synchronizable, not in the attributes
        let found = try harness.store.items(matching: Sample.genp(attributes, returning: .data))
        #expect(found.map(\.data) == ["pw".utf8Data])
    }

    /// §6.21, §6.25: an attribute the class lacks, and a bad accessibility value.
    @Test func invalidAttributesAreRejected() throws {
        let harness = try StoreHarness()
        let server = expectError(.noSuchAttribute) {
            try harness.store.add(Item(itemClass: .genericPassword, attributes: [.service: "s", .server: "x"]))
        }
        #expect(server?.status == OSStatusValue.noSuchAttribute)
        expectError(.noSuchAttribute) { try harness.store.items(matching: Sample.genp([.path: "/"])) }
        let accessibility = expectError(.invalidParameter) {
            try harness.store.add(Item(itemClass: .genericPassword, attributes: [.service: "s", .accessible: "xx"]))
        }
        #expect(accessibility?.status == OSStatusValue.param)
        #expect(try harness.store.count(Sample.genp([:])) == 0)
    }
}

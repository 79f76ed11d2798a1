import Foundation
import Testing
import SecStore

/// What add and copy-matching return (reference §4.2, §4.3 result table; §6 cases 7-18, 53).
@Suite struct ReturnShapeTests {
    /// Every combination of the three return options, status-only included.
    static let combinations: [ReturnOptions] = (0..<8).map { ReturnOptions(rawValue: UInt8($0)) }

    /// A found or added item carries exactly the parts that were asked for.
    @Test(arguments: combinations, Handle.allCases)
    func queryReturnsExactlyWhatWasAsked(returning: ReturnOptions, handle: Handle) throws {
        let harness = try StoreHarness()
        let added = try harness.store.add(Sample.a(), returning: .persistentReference)
        let reference = try #require(added.persistentReference)
        try harness.settle(handle)

        let found = try harness.store.items(matching: Sample.q(returning: returning))
        #expect(found.count == 1)
        let item = try #require(found.first)
        #expect(item.itemClass == .genericPassword)
        #expect(item.data == (returning.contains(.data) ? "pw".utf8Data : nil))
        #expect(item.persistentReference == (returning.contains(.persistentReference) ? reference : nil))
        #expect(item.attributes.isEmpty == !returning.contains(.attributes))
        if returning.contains(.attributes) {
            #expect(item.attributes.account == "a")
            #expect(item.attributes[.creationDate] != nil)
        }
    }

    /// §6.15-16: an add returns exactly the parts asked for (Data + PersistentRef gives just those two).
    @Test(arguments: combinations)
    func addReturnsExactlyWhatWasAsked(returning: ReturnOptions) throws {
        let harness = try StoreHarness()
        let added = try harness.store.add(Sample.a(), returning: returning)
        #expect(added.data == (returning.contains(.data) ? "pw".utf8Data : nil))
        #expect((added.persistentReference != nil) == returning.contains(.persistentReference))
        #expect(added.attributes.isEmpty == !returning.contains(.attributes))
        if let reference = added.persistentReference {
            let again = try harness.store.items(matching: Query(persistentReference: reference, returning: .data))
            #expect(again.map(\.data) == ["pw".utf8Data])
        }
    }

    /// §6.12: the attributes of A are exactly acct, svce, agrp G1, pdmn ak, sync 0 and
    /// cdat == mdat; no secret among them. The add returns the same dictionary.
    @Test(arguments: Handle.allCases)
    func genericPasswordAttributes(handle: Handle) throws {
        let harness = try StoreHarness()
        let added = try harness.store.add(Sample.a(), returning: .attributes)
        try harness.settle(handle)
        let found = try #require(try harness.store.items(matching: Sample.q()).first)

        for attributes in [added.attributes, found.attributes] {
            let created = try #require(attributes.creationDate)
            #expect(attributes.modificationDate == created)
            #expect(Self.withoutDates(attributes) == [
                .account: "a", .service: "s", .accessGroup: .string(TestEntitlements.g1),
                .accessible: "ak", .synchronizable: .number(0),
            ])
        }
        #expect(found.attributes == added.attributes)
        #expect(found.data == nil)
    }

    /// The attributes of I, with inet's primary-key defaults filled in.
    @Test func internetPasswordAttributes() throws {
        let harness = try StoreHarness()
        try harness.store.add(Sample.i())
        let found = try #require(try harness.store.items(matching: Sample.inet([.server: "example.com"])).first)
        #expect(Self.withoutDates(found.attributes) == [
            .server: "example.com", .account: "u", .port: .number(443), .protocol: "htps", .authenticationType: "dflt",
            .securityDomain: "", .path: "", .accessGroup: .string(TestEntitlements.g1), .accessible: "ak",
            .synchronizable: .number(0),
        ])
    }

    /// §6.7, §6.13: data alone, and attributes with data.
    @Test func dataAndAttributesWithData() throws {
        let harness = try StoreHarness()
        try harness.store.add(Sample.a())
        #expect(try harness.store.items(matching: Sample.q(returning: .data)).map(\.data) == ["pw".utf8Data])
        let both = try #require(try harness.store.items(matching: Sample.q(returning: [.attributes, .data])).first)
        #expect(both.data == "pw".utf8Data)
        #expect(both.attributes.service == "s")
    }

    /// §6.8: nothing stored is errSecItemNotFound, for limit one and limit all.
    @Test(arguments: [MatchLimit.one, .all])
    func nothingStoredIsItemNotFound(limit: MatchLimit) throws {
        let harness = try StoreHarness()
        let error = expectError(.itemNotFound) { try harness.store.items(matching: Sample.q(returning: .data, limit: limit)) }
        #expect(error?.status == OSStatusValue.itemNotFound)
    }

    /// §6.9: a status-only query succeeds with one item that carries nothing.
    @Test func statusOnly() throws {
        let harness = try StoreHarness()
        try harness.store.add(Sample.a())
        let found = try harness.store.items(matching: Sample.q(returning: []))
        #expect(found == [Item(itemClass: .genericPassword)])
    }

    /// §6.14: a persistent reference is 20 bytes starting "genp"; looked up without a
    /// class it returns the secret.
    @Test func persistentReferenceShape() throws {
        let harness = try StoreHarness()
        try harness.store.add(Sample.a())
        let reference = try #require(try harness.store.items(matching: Sample.q(returning: .persistentReference)).first?.persistentReference)
        #expect(reference.data.count == 20)
        #expect(reference.data.prefix(4) == "genp".utf8Data)
        let query = Query(itemClass: nil, persistentReference: reference, returning: .data)
        #expect(try harness.store.items(matching: query).map(\.data) == ["pw".utf8Data])
    }

    /// §6.18: an item added without data returns empty data.
    @Test func itemWithoutDataReturnsEmptyData() throws {
        let harness = try StoreHarness()
        let added = try harness.store.add(Item(itemClass: .genericPassword, attributes: [.service: "t"]), returning: .data)
        #expect(added.data == Data())
        #expect(try harness.store.items(matching: Sample.genp([.service: "t"], returning: .data)).map(\.data) == [Data()])
    }

    /// §6.53: data with limit all returns every secret.
    @Test func dataForEveryMatch() throws {
        let harness = try StoreHarness()
        try harness.store.add(Sample.a())
        try harness.store.add(.genericPassword(service: "s", account: "b", data: "pw-b".utf8Data))
        let found = try harness.store.items(matching: Sample.genp([.service: "s"], returning: .data))
        #expect(Set(found.compactMap(\.data)) == ["pw".utf8Data, "pw-b".utf8Data])
        #expect(found.count == 2)
    }

    static func withoutDates(_ attributes: Attributes) -> Attributes {
        var copy = attributes
        copy[.creationDate] = nil
        copy[.modificationDate] = nil
        return copy
    }
}

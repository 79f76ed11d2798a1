import Foundation
import Testing
import SecStore

/// Primary keys and duplicates (reference §2, §4.2; §6 cases 1-6).
@Suite struct DuplicateTests {
    /// §6.1: adding A returns nothing; adding A again is errSecDuplicateItem and changes nothing.
    @Test(arguments: Handle.allCases)
    func addingTheSameItemTwiceIsADuplicate(handle: Handle) throws {
        let harness = try StoreHarness()
        let result = try harness.store.add(Sample.a())
        #expect(result.attributes.isEmpty)
        #expect(result.data == nil)
        #expect(result.persistentReference == nil)
        try harness.settle(handle)

        var again = Sample.a()
        again.data = "other".utf8Data
        let error = expectError(.duplicateItem) { try harness.store.add(again) }
        #expect(error?.status == OSStatusValue.duplicateItem)
        #expect(try harness.store.secret(Sample.q()) == "pw".utf8Data)
        #expect(try RawStoreFile(url: harness.directory.storeURL).items().count == 1)
    }

    /// §6.2 and §2: attributes outside the primary key do not make an item distinct.
    @Test(arguments: [
        AttributeKey.label, .generic, .itemDescription, .comment, .accessible, .creator, .type, .isInvisible, .isNegative,
    ])
    func nonKeyAttributeDoesNotMakeAGenericPasswordDistinct(key: AttributeKey) throws {
        let harness = try StoreHarness()
        try harness.store.add(Sample.a())
        var variant = Sample.a()
        variant.attributes[key] = Self.distinctValue(for: key)
        expectError(.duplicateItem) { try harness.store.add(variant) }

        let stored = try #require(try harness.store.items(matching: Sample.q()).first)
        #expect(stored.attributes[key] == (key == .accessible ? .string("ak") : nil))
    }

    /// §6.3-5 and §2: every genp primary-key attribute (acct, svce, agrp, sync) makes an item distinct.
    @Test(arguments: [AttributeKey.account, .service, .accessGroup, .synchronizable])
    func primaryKeyAttributeMakesAGenericPasswordDistinct(key: AttributeKey) throws {
        let harness = try StoreHarness()
        try harness.store.add(Sample.a())
        var variant = Sample.a()
        variant.attributes[key] = switch key {
        case .accessGroup: .string(TestEntitlements.g2)
        case .synchronizable: .bool(true)
        default: .string("other")
        }
        variant.data = "pw2".utf8Data
        try harness.store.add(variant)
        #expect(try harness.store.count(Sample.genp([:], synchronizable: .any)) == 2)
    }

    /// §6.6: an omitted account is the empty string, so two accountless items collide.
    @Test(arguments: Handle.allCases)
    func omittedAccountEqualsEmptyAccount(handle: Handle) throws {
        let harness = try StoreHarness()
        try harness.store.add(Item(itemClass: .genericPassword, attributes: [.service: "s"]))
        try harness.settle(handle)
        expectError(.duplicateItem) { try harness.store.add(Item(itemClass: .genericPassword, attributes: [.service: "s"])) }
        expectError(.duplicateItem) {
            try harness.store.add(Item(itemClass: .genericPassword, attributes: [.service: "s", .account: ""]))
        }
        let found = try harness.store.items(matching: Sample.genp([.service: "s", .account: ""]))
        #expect(found.count == 1)
        #expect(found.first?.attributes[.account] == .string(""))
    }

    /// §2: inet's primary key is acct, sdmn, srvr, ptcl, atyp, port, path, agrp, sync.
    @Test(arguments: [
        AttributeKey.account, .securityDomain, .server, .protocol, .authenticationType, .port, .path, .accessGroup, .synchronizable,
    ])
    func primaryKeyAttributeMakesAnInternetPasswordDistinct(key: AttributeKey) throws {
        let harness = try StoreHarness()
        try harness.store.add(Sample.i())
        var variant = Sample.i()
        variant.attributes[key] = switch key {
        case .protocol: .string(InternetProtocol.ssh.rawValue)
        case .authenticationType: .string(AuthenticationType.htmlForm.rawValue)
        case .port: .number(8443)
        case .accessGroup: .string(TestEntitlements.g2)
        case .synchronizable: .bool(true)
        default: .string("other")
        }
        try harness.store.add(variant)
        let all = Query(itemClass: .internetPassword, synchronizable: .any, limit: .all, returning: [])
        #expect(try harness.store.items(matching: all).count == 2)
    }

    /// §2: label, comment, description, creator, type and accessibility are not in inet's key.
    @Test(arguments: [AttributeKey.label, .comment, .itemDescription, .creator, .type, .accessible])
    func nonKeyAttributeDoesNotMakeAnInternetPasswordDistinct(key: AttributeKey) throws {
        let harness = try StoreHarness()
        try harness.store.add(Sample.i())
        var variant = Sample.i()
        variant.attributes[key] = Self.distinctValue(for: key)
        expectError(.duplicateItem) { try harness.store.add(variant) }
    }

    /// §2: omitted inet key attributes take their defaults (port 0, path "", …), so an
    /// explicit default collides with an omitted one.
    @Test func omittedInternetKeyAttributesEqualTheirDefaults() throws {
        let harness = try StoreHarness()
        try harness.store.add(Item(itemClass: .internetPassword, attributes: [.server: "h", .account: "u"]))
        let explicit: Attributes = [
            .server: "h", .account: "u", .port: 0, .path: "", .securityDomain: "", .authenticationType: "", .protocol: 0,
        ]
        expectError(.duplicateItem) { try harness.store.add(Item(itemClass: .internetPassword, attributes: explicit)) }
        let found = try harness.store.items(matching: Sample.inet([.server: "h", .port: 0, .path: ""]))
        #expect(found.count == 1)
    }

    static func distinctValue(for key: AttributeKey) -> AttributeValue {
        switch key {
        case .accessible: .string(Accessibility.afterFirstUnlock.rawValue)
        case .creator, .type: .number(0x6162_6364)
        case .isInvisible, .isNegative: .bool(true)
        case .generic: .data(Data([1, 2, 3]))
        default: .string("different")
        }
    }
}

import Foundation
import Testing
import SecStore

/// SecItemUpdate and SecItemDelete (reference §4.4, §4.5; §6 cases 26-29, 34-38).
@Suite struct UpdateDeleteTests {
    /// §6.26: the secret changes and update reports one item.
    @Test(arguments: Handle.allCases)
    func updateReplacesTheSecret(handle: Handle) throws {
        let harness = try StoreHarness()
        try harness.store.add(Sample.a())
        try harness.settle(handle)
        #expect(try harness.store.update(matching: Sample.q(), with: ItemChanges(data: "pw2".utf8Data)) == 1)
        try harness.settle(handle)
        #expect(try harness.store.secret(Sample.q()) == "pw2".utf8Data)
    }

    /// §6.27, §6.34: updating or deleting nothing is errSecItemNotFound.
    @Test func updateOrDeleteOfNothingIsItemNotFound() throws {
        let harness = try StoreHarness()
        try harness.store.add(.genericPassword(service: "s", account: "b"))
        let update = expectError(.itemNotFound) { try harness.store.update(matching: Sample.q(), with: ItemChanges(data: Data([1]))) }
        #expect(update?.status == OSStatusValue.itemNotFound)
        expectError(.itemNotFound) { try harness.store.delete(matching: Sample.q()) }
        #expect(try harness.store.count(Sample.genp([:])) == 1)
    }

    /// §6.28: a change that would give two items one primary key fails with
    /// errSecDuplicateItem and changes nothing, secret and dates included.
    @Test(arguments: Handle.allCases)
    func collidingUpdateChangesNothing(handle: Handle) throws {
        let harness = try StoreHarness()
        try harness.store.add(Sample.a())
        try harness.store.add(.genericPassword(service: "s", account: "b", data: "pw-b".utf8Data))
        let before = try Self.snapshot(harness.store)
        try harness.settle(handle)

        let error = expectError(.duplicateItem) {
            try harness.store.update(matching: Sample.q(), with: ItemChanges(attributes: [.account: "b", .label: "moved"], data: "new".utf8Data))
        }
        #expect(error?.status == OSStatusValue.duplicateItem)
        #expect(try Self.snapshot(harness.store) == before)
    }

    /// An update of several items where a later one collides rolls back the earlier ones.
    @Test func collisionOnALaterRowRollsBackEarlierRows() throws {
        let harness = try StoreHarness()
        try harness.store.add(.genericPassword(service: "s", account: "a", data: "1".utf8Data))
        try harness.store.add(.genericPassword(service: "t", account: "a", data: "2".utf8Data))
        let before = try Self.snapshot(harness.store)
        // Both items would become (svce "u", acct "a"): the second collides with the first.
        expectError(.duplicateItem) {
            try harness.store.update(matching: Sample.genp([.account: "a"]), with: ItemChanges(attributes: [.service: "u"]))
        }
        #expect(try Self.snapshot(harness.store) == before)
        #expect(try harness.store.count(Sample.genp([.service: "u"])) == 0)
    }

    /// §6.29: moving an item to another account.
    @Test(arguments: Handle.allCases)
    func moveToAnotherAccount(handle: Handle) throws {
        let harness = try StoreHarness()
        try harness.store.add(Sample.a())
        #expect(try harness.store.update(matching: Sample.q(), with: ItemChanges(attributes: [.account: "c"])) == 1)
        try harness.settle(handle)
        expectError(.itemNotFound) { try harness.store.items(matching: Sample.q()) }
        #expect(try harness.store.secret(Query(service: "s", account: "c")) == "pw".utf8Data)
        expectError(.itemNotFound) { try harness.store.update(matching: Sample.q(), with: ItemChanges(attributes: [.account: "c"])) }
    }

    /// Attribute-only changes keep the secret, including changes that re-seal it under
    /// another accessibility class or make the item synchronizable.
    @Test(arguments: [
        Attributes([.label: "renamed"]),
        Attributes([.accessible: "ck"]),
        Attributes([.synchronizable: .bool(true)]),
        Attributes([.accessGroup: .string(TestEntitlements.g2), .comment: "moved"]),
    ])
    func attributeChangesKeepTheSecret(changes: Attributes) throws {
        let harness = try StoreHarness()
        try harness.store.add(Sample.a())
        try harness.store.update(matching: Sample.q(), with: ItemChanges(attributes: changes))
        try harness.settle(.reopened)
        let found = try harness.store.items(matching: Sample.genp([.service: "s"], returning: [.attributes, .data], synchronizable: .any))
        #expect(found.count == 1)
        #expect(found.first?.data == "pw".utf8Data)
        for (key, value) in changes {
            #expect(found.first?.attributes[key] == value)
        }
    }

    /// §4.4: update changes every match and says how many.
    @Test func updateChangesEveryMatch() throws {
        let harness = try StoreHarness()
        for account in ["a", "b", "c"] { try harness.store.add(.genericPassword(service: "s", account: account)) }
        try harness.store.add(.genericPassword(service: "t", account: "a"))
        // Query's default limit is one; update ignores it and changes every match (§3).
        #expect(try harness.store.update(matching: Query(service: "s"), with: ItemChanges(attributes: [.label: "L"])) == 3)
        #expect(try harness.store.count(Sample.genp([.label: "L"])) == 3)
        #expect(try harness.store.count(Sample.genp([.service: "t", .label: "L"])) == 0)
    }

    /// §6.34-35: delete removes every match; deleting again is errSecItemNotFound.
    @Test(arguments: Handle.allCases)
    func deleteRemovesEveryMatch(handle: Handle) throws {
        let harness = try StoreHarness()
        for account in ["a", "b", "c"] { try harness.store.add(.genericPassword(service: "s", account: account)) }
        try harness.store.add(.genericPassword(service: "t", account: "a", data: "keep".utf8Data))
        try harness.settle(handle)
        // Query's default limit is one; delete ignores it and removes every match (§3).
        #expect(try harness.store.delete(matching: Query(service: "s")) == 3)
        try harness.settle(handle)
        #expect(try harness.store.count(Sample.genp([.service: "s"])) == 0)
        expectError(.itemNotFound) { try harness.store.delete(matching: Sample.genp([.service: "s"])) }
        #expect(try harness.store.secret(Query(service: "t", account: "a")) == "keep".utf8Data)
        #expect(try RawStoreFile(url: harness.directory.storeURL).items().count == 1)
    }

    /// §6.38: a synchronizable item is invisible to a delete that does not ask for it.
    @Test func deleteSeesSynchronizableItemsOnlyWhenAsked() throws {
        let harness = try StoreHarness()
        try harness.store.add(Sample.a(synchronizable: true))
        expectError(.itemNotFound) { try harness.store.delete(matching: Sample.q()) }
        expectError(.itemNotFound) { try harness.store.update(matching: Sample.q(), with: ItemChanges(attributes: [.label: "x"])) }
        #expect(try harness.store.delete(matching: Sample.genp([.service: "s", .account: "a"], synchronizable: .any)) == 1)
        #expect(try harness.store.count(Sample.genp([:], synchronizable: .any)) == 0)
    }

    /// The observable state of every item: attributes (dates included), secret, reference.
    static func snapshot(_ store: SecretStore) throws -> Set<Item> {
        Set(try store.items(matching: Query(itemClass: .genericPassword, synchronizable: .any, limit: .all,
                                            returning: [.attributes, .data, .persistentReference])))
    }
}

import Foundation
import Testing
import SecStore

/// Access groups and entitlements (reference §3, §4.1; §6 cases 4, 33, 39-43).
@Suite struct AccessGroupTests {
    static let foreign = "OTHERTEAM1.com.example.foreign"

    /// §6.42: the default group is the first keychain-access-groups entry, else the
    /// application identifier (also ahead of application groups).
    @Test(arguments: [
        (Entitlements(applicationIdentifier: "T.app", keychainAccessGroups: ["T.first", "T.second"]), "T.first"),
        (Entitlements(applicationIdentifier: "T.app"), "T.app"),
        (Entitlements(applicationIdentifier: "T.app", applicationGroups: ["group.T"]), "T.app"),
        (Entitlements(applicationIdentifier: nil, keychainAccessGroups: ["T.only"]), "T.only"),
    ])
    func defaultGroup(entitlements: Entitlements, expected: String) throws {
        let harness = try StoreHarness(access: .entitled(entitlements))
        let added = try harness.store.add(Sample.a(), returning: .attributes)
        #expect(added.attributes.accessGroup == expected)
        try harness.settle(.reopened)
        #expect(try harness.store.items(matching: Sample.q()).first?.attributes.accessGroup == expected)
    }

    /// §6.4, §6.41: the group is part of the key; a query without a group sees both, a
    /// query with a group sees only that group.
    @Test(arguments: Handle.allCases)
    func explicitGroupFiltersAndImplicitGroupSeesAll(handle: Handle) throws {
        let harness = try StoreHarness()
        try harness.store.add(Sample.a(accessGroup: TestEntitlements.g2))
        try harness.settle(handle)
        #expect(try harness.store.count(Sample.q()) == 1)
        expectError(.itemNotFound) { try harness.store.items(matching: Query(service: "s", account: "a", accessGroup: TestEntitlements.g1)) }
        #expect(try harness.store.count(Query(service: "s", account: "a", accessGroup: TestEntitlements.g2)) == 1)
        try harness.store.add(Sample.a())
        #expect(try harness.store.count(Sample.q()) == 2)
    }

    /// §3: a query without a group sees every entitled group (keychain groups, app id,
    /// application groups) and nothing else; the owner sees every group.
    @Test(arguments: Handle.allCases)
    func implicitScopeIsExactlyTheEntitledGroups(handle: Handle) throws {
        let entitlements = Entitlements(applicationIdentifier: "T.app", keychainAccessGroups: ["T.g1", "T.g2"],
                                        applicationGroups: ["group.T"])
        let harness = try StoreHarness(access: .entitled(entitlements))
        let owner = try harness.open(as: .owner)
        for group in ["T.g1", "T.g2", "T.app", "group.T", Self.foreign] {
            try owner.add(.genericPassword(service: "s", account: group, data: group.utf8Data, accessGroup: group))
        }
        try harness.settle(handle)
        let seen = try harness.store.items(matching: Sample.genp([:], returning: [.attributes, .data]))
        #expect(Set(seen.compactMap(\.attributes.accessGroup)) == ["T.g1", "T.g2", "T.app", "group.T"])
        #expect(seen.allSatisfy { $0.data == $0.attributes.accessGroup?.utf8Data })
        #expect(try owner.count(Sample.genp([:])) == 5)
    }

    /// §6.39, §6.33: naming a group outside the entitlements is errSecMissingEntitlement for
    /// add, copy-matching, update (query or change) and delete, and changes nothing.
    @Test func foreignGroupIsMissingEntitlement() throws {
        let harness = try StoreHarness()
        let add = expectError(.missingEntitlement) { try harness.store.add(Sample.a(accessGroup: Self.foreign)) }
        #expect(add?.status == OSStatusValue.missingEntitlement)
        try harness.store.add(Sample.a())
        let foreignQuery = Query(service: "s", account: "a", accessGroup: Self.foreign)
        expectError(.missingEntitlement) { try harness.store.items(matching: foreignQuery) }
        expectError(.missingEntitlement) { try harness.store.update(matching: foreignQuery, with: ItemChanges(data: Data([1]))) }
        expectError(.missingEntitlement) { try harness.store.delete(matching: foreignQuery) }
        expectError(.missingEntitlement) {
            try harness.store.update(matching: Sample.q(), with: ItemChanges(attributes: [.accessGroup: .string(Self.foreign)]))
        }
        let found = try #require(try harness.store.items(matching: Sample.q(returning: [.attributes, .data])).first)
        #expect(found.attributes.accessGroup == TestEntitlements.g1)
        #expect(found.data == "pw".utf8Data)
        #expect(try harness.open(as: .owner).count(Sample.genp([:])) == 1)
    }

    /// §6.43: an item in a group the caller lost is errSecItemNotFound, not
    /// errSecMissingEntitlement, and stays untouched for callers that keep the group.
    @Test(arguments: Handle.allCases)
    func itemInADroppedGroupIsNotFound(handle: Handle) throws {
        let harness = try StoreHarness()
        let reference = try #require(try harness.store.add(Sample.a(accessGroup: TestEntitlements.g2), returning: .persistentReference).persistentReference)
        try harness.settle(handle)
        let reduced = try harness.open(as: .entitled(Entitlements(applicationIdentifier: "ABCDE12345.com.example.app",
                                                                  keychainAccessGroups: [TestEntitlements.g1])))
        expectError(.itemNotFound) { try reduced.items(matching: Sample.q(returning: .data)) }
        expectError(.itemNotFound) { try reduced.items(matching: Query(persistentReference: reference, returning: .data)) }
        expectError(.itemNotFound) { try reduced.update(matching: Sample.q(), with: ItemChanges(data: Data([1]))) }
        expectError(.itemNotFound) { try reduced.delete(matching: Sample.q()) }
        #expect(try harness.store.secret(Sample.q()) == "pw".utf8Data)
    }

    /// §6.40: a caller with no groups at all gets errSecMissingEntitlement from every call.
    @Test func noEntitlementsIsMissingEntitlement() throws {
        let harness = try StoreHarness()
        try harness.store.add(Sample.a())
        let none = try harness.open(as: .entitled(.none))
        expectError(.missingEntitlement) { try none.add(.genericPassword(service: "s", account: "z")) }
        expectError(.missingEntitlement) { try none.items(matching: Sample.q()) }
        expectError(.missingEntitlement) { try none.update(matching: Sample.q(), with: ItemChanges(data: Data([1]))) }
        expectError(.missingEntitlement) { try none.delete(matching: Sample.q()) }
        #expect(try harness.store.secret(Sample.q()) == "pw".utf8Data)
    }

    /// Setting, changing and removing the passphrase are the owner's: the passphrase guards
    /// every group's items, and removing it deletes every group's passcode-only items. An app
    /// entitled to its own groups set a passphrase only it knew, locking every other group's
    /// `whenUnlocked` items away from their apps and the owner, and removed one, deleting
    /// another group's item (found by the access-group audit).
    @Test func passphraseChangesNeedOwnerAccess() throws {
        let dir = TemporaryDirectory()
        func open(_ access: StoreAccess) throws -> SecretStore {
            try SecretStore(at: dir.storeURL, options: .init(access: access, deviceKeyURL: dir.deviceKeyURL, firstUnlockCache: .processMemory))
        }
        let owner = try open(.owner)
        let app = try open(.entitled(TestEntitlements.app))
        let error = expectError(.missingEntitlement) { try app.setPassphrase("mine", limits: .minimumForTesting) }
        #expect(error?.status == OSStatusValue.missingEntitlement)
        #expect(try owner.lockState == .noPassphrase)
        try owner.setPassphrase("pw", limits: .minimumForTesting)
        try owner.add(.genericPassword(service: "s", account: "p", data: Data("p".utf8), accessGroup: Self.foreign,
                                       accessibility: .whenPasscodeSetThisDeviceOnly))
        try app.unlock(passphrase: "pw")
        expectError(.missingEntitlement) { try app.changePassphrase(from: "pw", to: "mine", limits: .minimumForTesting) }
        expectError(.missingEntitlement) { try app.removePassphrase("pw") }
        let later = try open(.owner)
        try later.unlock(passphrase: "pw")
        #expect(try later.secret(Query(service: "s", account: "p", accessGroup: Self.foreign)) == Data("p".utf8))
        owner.lock(forgettingFirstUnlock: true)
    }

    /// An access group has a name. An entitlements file with an empty one is refused; given
    /// in code, an empty application identifier or group grants nothing; the owner cannot put
    /// an item into the group "" (an add, an update moving one), where no entitled process could
    /// ever reach it. `secstore add --group ''` was refused, but `import --format json` with
    /// `"accessGroup": ""` made such an item (found by the access-group audit).
    @Test func anEmptyGroupNameIsNoGroup() throws {
        let harness = try StoreHarness(access: .owner)
        expectError(.invalidParameter) { try harness.store.add(Sample.a(accessGroup: "")) }
        try harness.store.add(Sample.a(accessGroup: TestEntitlements.g1))
        expectError(.invalidParameter) {
            try harness.store.update(matching: Sample.q(), with: ItemChanges(attributes: [.accessGroup: .string("")]))
        }
        #expect(try harness.store.count(Query(service: "s", account: "a", accessGroup: TestEntitlements.g1)) == 1)
        #expect(Entitlements(applicationIdentifier: "", keychainAccessGroups: ["", "T.g"]).accessGroups == ["T.g"])
        let nameless = try harness.open(as: .entitled(Entitlements(applicationIdentifier: "", keychainAccessGroups: [""])))
        expectError(.missingEntitlement) { try nameless.add(Sample.a()) }
        expectError(.missingEntitlement) { try nameless.items(matching: Sample.q()) }
        let app = try harness.open(as: .entitled(TestEntitlements.app))
        expectError(.missingEntitlement) { try app.add(Sample.a(accessGroup: "")) }
    }

    /// The owner sees every group but must name the group of a new item.
    @Test func ownerMustNameTheGroupOfANewItem() throws {
        let harness = try StoreHarness(access: .owner)
        expectError(.invalidParameter) { try harness.store.add(Sample.a()) }
        try harness.store.add(Sample.a(accessGroup: Self.foreign))
        #expect(try harness.store.items(matching: Sample.q()).first?.attributes.accessGroup == Self.foreign)
    }
}

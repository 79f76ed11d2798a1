import Foundation
import KeychainServices
import SecStore
import Testing

extension DefaultStoreTests {
    /// Reference §6, the cases about access groups and entitlements.
    @Suite("Reference §6: access groups") struct AccessGroupConformance {
        let keychain: KeychainFixture
        init() throws { keychain = try KeychainFixture() }

        @Test("39. A group the process is not entitled to is errSecMissingEntitlement in all four functions")
        func foreignGroup() {
            let notMine: [String: Any] = [kSecAttrAccessGroup as String: "NotMine"]
            #expect(add(.itemA.with(notMine)).status == errSecMissingEntitlement)
            #expect(add(.itemA).status == errSecSuccess)
            #expect(copyMatching(.queryQ.with(notMine)).status == errSecMissingEntitlement)
            #expect(update(.queryQ.with(notMine), [kSecAttrLabel as String: "l"]) == errSecMissingEntitlement)
            #expect(delete(.queryQ.with(notMine)) == errSecMissingEntitlement)
        }

        @Test("39. Update and delete check a foreign group before parsing; add and copy after")
        func foreignGroupCheckOrder() {
            let malformed: [String: Any] = [kSecAttrAccessGroup as String: "NotMine", "zz_key": true]
            #expect(add(.itemA.with(malformed)).status == errSecParam)
            #expect(copyMatching(.queryQ.with(malformed)).status == errSecParam)
            #expect(update(.queryQ.with(malformed), [kSecAttrLabel as String: "l"]) == errSecMissingEntitlement)
            #expect(delete(.queryQ.with(malformed)) == errSecMissingEntitlement)
        }

        @Test("40. A process with no access groups gets errSecMissingEntitlement from every call")
        func noEntitlements() throws {
            SecItemDefaultStore.reconfigure(.init(storeURL: keychain.storeURL,
                                                  options: .init(access: .entitled(.none), deviceKeyURL: keychain.deviceKeyURL)))
            let added = add(.itemA)
            #expect(added.status == errSecMissingEntitlement)
            #expect(copyMatching(.queryQ).status == errSecMissingEntitlement)
            #expect(update(.queryQ, [kSecAttrLabel as String: "l"]) == errSecMissingEntitlement)
            #expect(delete(.queryQ) == errSecMissingEntitlement)
            // Malformed dictionaries too: the entitlement check comes first.
            #expect(add([:]).status == errSecMissingEntitlement)
        }

        @Test("40. An entitlements file that declares nothing is errSecMissingEntitlement from every call")
        func emptyEntitlementsFile() throws {
            try keychain.useEntitlements(accessGroups: [], applicationIdentifier: nil)
            #expect(add(.itemA).status == errSecMissingEntitlement)
            #expect(copyMatching(.queryQ).status == errSecMissingEntitlement)
            #expect(delete(.queryQ) == errSecMissingEntitlement)
        }

        @Test("41. A query without a group searches every entitled group; with one, only that group")
        func groupScope() {
            #expect(add(.itemA.with([kSecAttrAccessGroup as String: KeychainFixture.g2])).status == errSecSuccess)
            #expect(copyMatching(.queryQ).status == errSecSuccess)
            #expect(copyMatching(.queryQ.with([kSecAttrAccessGroup as String: KeychainFixture.g1])).status == errSecItemNotFound)
            #expect(copyMatching(.queryQ.with([kSecAttrAccessGroup as String: KeychainFixture.g2])).status == errSecSuccess)
        }

        @Test("42. New items go to the first keychain access group, else to the application identifier")
        func defaultGroup() throws {
            #expect(add(.itemA).status == errSecSuccess)
            let found = copyMatching(.queryQ.with([kSecReturnAttributes as String: true]))
            #expect(try #require(found.dictionary)[kSecAttrAccessGroup as String] as? String == KeychainFixture.g1)

            try keychain.useEntitlements(accessGroups: [])
            #expect(add(.itemA.with([kSecAttrAccount as String: "b"])).status == errSecSuccess)
            let appItem = copyMatching(.queryQ.with([kSecAttrAccount as String: "b", kSecReturnAttributes as String: true]))
            #expect(try #require(appItem.dictionary)[kSecAttrAccessGroup as String] as? String == KeychainFixture.applicationIdentifier)
        }

        @Test("43. Items of a group the process lost are not found, not errSecMissingEntitlement")
        func lostGroup() throws {
            #expect(add(.itemA.with([kSecAttrAccessGroup as String: KeychainFixture.g2])).status == errSecSuccess)
            try keychain.useEntitlements(accessGroups: [KeychainFixture.g1])
            #expect(copyMatching(.queryQ).status == errSecItemNotFound)
            #expect(update(.queryQ, [kSecAttrLabel as String: "l"]) == errSecItemNotFound)
            #expect(delete(.queryQ) == errSecItemNotFound)
            try keychain.useEntitlements(accessGroups: [KeychainFixture.g1, KeychainFixture.g2])
            #expect(copyMatching(.queryQ).status == errSecSuccess, "the item is still there")
        }
    }
}

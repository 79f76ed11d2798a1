import Foundation
import KeychainServices
import Testing

extension DefaultStoreTests {
    /// Reference §6, the cases about `SecItemDelete`.
    @Suite("Reference §6: SecItemDelete") struct DeleteConformance {
        let keychain: KeychainFixture
        init() throws { keychain = try KeychainFixture() }

        @Test("34. Delete removes the item; deleting again is errSecItemNotFound")
        func deleteTwice() {
            #expect(add(.itemA).status == errSecSuccess)
            #expect(delete(.queryQ) == errSecSuccess)
            #expect(copyMatching(.queryQ).status == errSecItemNotFound)
            #expect(delete(.queryQ) == errSecItemNotFound)
        }

        @Test("35. Delete removes every match")
        func deleteEveryMatch() {
            for account in ["a", "b", "c"] {
                #expect(add(.itemA.with([kSecAttrAccount as String: account])).status == errSecSuccess)
            }
            let service: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "s"]
            #expect(delete(service) == errSecSuccess)
            #expect(copyMatching(service.with([kSecMatchLimit as String: kSecMatchLimitAll])).status == errSecItemNotFound)
        }

        @Test("36. kSecMatchLimit in a delete is ignored, as on macOS: every match goes (KeychainAccess's removeAll)",
              arguments: ["one", "all"])
        func limitInDelete(limitName: String) {
            let limit = limitName == "one" ? kSecMatchLimitOne : kSecMatchLimitAll
            for account in ["a", "b", "c"] {
                #expect(add(.itemA.with([kSecAttrAccount as String: account])).status == errSecSuccess)
            }
            #expect(add(.itemA.with([kSecAttrService as String: "other"])).status == errSecSuccess)
            // KeychainAccess's removeAll() off iOS: class, service, kSecMatchLimitAll.
            let service: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "s",
                                          kSecMatchLimit as String: limit, kSecReturnData as String: true]
            #expect(delete(service) == errSecSuccess)
            #expect(copyMatching(.queryQ.with([kSecAttrService as String: "s", kSecMatchLimit as String: kSecMatchLimitAll]).without(kSecAttrAccount)).status == errSecItemNotFound)
            #expect(copyMatching(.queryQ.with([kSecAttrService as String: "other"])).status == errSecSuccess)
            #expect(delete(.queryQ.with([kSecAttrService as String: "other", kSecMatchLimit as String: 0.5])) == errSecParam)
        }

        @Test("37. Delete by persistent reference; again is errSecItemNotFound")
        func deleteByPersistentReference() throws {
            let reference = try #require(add(.itemA.with([kSecReturnPersistentRef as String: true])).data)
            #expect(delete([kSecValuePersistentRef as String: reference]) == errSecSuccess)
            #expect(copyMatching(.queryQ).status == errSecItemNotFound)
            #expect(delete([kSecValuePersistentRef as String: reference]) == errSecItemNotFound)
        }

        @Test("38. A synchronizable item is invisible to a delete without kSecAttrSynchronizable")
        func deleteSynchronizable() {
            #expect(add(.itemA.with([kSecAttrSynchronizable as String: true])).status == errSecSuccess)
            #expect(delete(.queryQ) == errSecItemNotFound)
            #expect(delete(.queryQ.with([kSecAttrSynchronizable as String: kSecAttrSynchronizableAny])) == errSecSuccess)
            #expect(copyMatching(.queryQ.with([kSecAttrSynchronizable as String: kSecAttrSynchronizableAny])).status
                == errSecItemNotFound)
        }
    }
}

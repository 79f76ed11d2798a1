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

        @Test("36. kSecMatchLimit in a delete is errSecParam")
        func limitInDelete() {
            #expect(add(.itemA).status == errSecSuccess)
            #expect(delete(.queryQ.with([kSecMatchLimit as String: kSecMatchLimitAll])) == errSecParam)
            #expect(delete(.queryQ.with([kSecMatchLimit as String: kSecMatchLimitOne])) == errSecParam)
            #expect(copyMatching(.queryQ).status == errSecSuccess)
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

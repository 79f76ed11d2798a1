import Foundation
import KeychainServices
import SecStore
import Testing

extension DefaultStoreTests {
    /// Reference §6 case 48: a locked store, through the SecItem functions.
    @Suite("Reference §6: lock state") struct LockConformance {
        let keychain: KeychainFixture
        init() throws { keychain = try KeychainFixture() }

        @Test("48. Locked: WhenUnlocked items fail with errSecInteractionNotAllowed; AfterFirstUnlock items stay readable")
        func lockedStore() throws {
            // The default store, opened as a deployment would, with a passphrase set on it.
            // AfterFirstUnlock keys stay in this process (no kernel keyring state shared with
            // other tests).
            let entitlements = Entitlements(applicationIdentifier: KeychainFixture.applicationIdentifier,
                                            keychainAccessGroups: [KeychainFixture.g1, KeychainFixture.g2])
            SecItemDefaultStore.reconfigure(.init(storeURL: keychain.storeURL,
                                                  options: .init(access: .entitled(entitlements), deviceKeyURL: keychain.deviceKeyURL,
                                                                 firstUnlockCache: .processMemory)))
            let store = try SecItemDefaultStore.store()
            // The passphrase is the owner's to set (docs/access-groups.md); the default store then unlocks.
            try SecretStore(at: keychain.storeURL, options: .init(access: .owner, deviceKeyURL: keychain.deviceKeyURL,
                                                                  firstUnlockCache: .processMemory))
                .setPassphrase("correct horse battery staple", limits: .minimumForTesting)
            try store.unlock(passphrase: "correct horse battery staple")

            let afterFirstUnlock: [String: Any] = [String: Any].itemA.with([
                kSecAttrAccount as String: "c", kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
                kSecValueData as String: "ck-secret".utf8Data,
            ])
            #expect(add(.itemA).status == errSecSuccess)
            #expect(add(afterFirstUnlock).status == errSecSuccess)

            store.lock()
            let newItem = add(.itemA.with([kSecAttrAccount as String: "new", kSecReturnAttributes as String: true]))
            #expect(newItem.status == errSecInteractionNotAllowed)
            #expect(newItem.object == nil)
            let locked = copyMatching(.queryQ.with([kSecReturnData as String: true]))
            #expect(locked.status == errSecInteractionNotAllowed)
            #expect(locked.object == nil)
            #expect(copyMatching(.queryQ).status == errSecInteractionNotAllowed, "even with no return keys")
            #expect(update(.queryQ, [kSecValueData as String: "x".utf8Data]) == errSecInteractionNotAllowed)

            let readable = copyMatching(.queryQ.with([kSecAttrAccount as String: "c", kSecReturnData as String: true]))
            #expect(readable.status == errSecSuccess)
            #expect(readable.data == "ck-secret".utf8Data)

            try store.unlock(passphrase: "correct horse battery staple")
            #expect(copyMatching(.queryQ.with([kSecReturnData as String: true])).data == "pw".utf8Data)
        }
    }
}

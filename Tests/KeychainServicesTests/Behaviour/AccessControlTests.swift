import Foundation
import KeychainServices
import SecStore
import Testing

extension DefaultStoreTests {
    /// `SecAccessControl` and `kSecAttrAccessControl`: Apple's declarations, and semantics
    /// that are never weaker than the item asked for (docs/accessibility.md, "Access control").
    @Suite("Access control") struct AccessControlTests {
        let keychain: KeychainFixture
        init() throws { keychain = try KeychainFixture() }

        static let passphrase = "correct horse battery staple"

        /// The default store with a passphrase, locked again (no passphrase proof yet).
        func protectedStore() throws -> SecretStore {
            let store = try SecItemDefaultStore.store()
            // The passphrase is the owner's to set (docs/access-groups.md).
            var owner = store.options
            owner.access = .owner
            try SecretStore(at: store.url, options: owner).setPassphrase(Self.passphrase, limits: .minimumForTesting)
            SecItemDefaultStore.reconfigure(environment: keychain.environment)
            return try SecItemDefaultStore.store()
        }

        func control(_ flags: SecAccessControlCreateFlags, _ protection: CFString = kSecAttrAccessibleWhenUnlocked) throws -> SecAccessControl {
            var error: Unmanaged<CFError>?
            return try #require(SecAccessControlCreateWithFlags(kCFAllocatorDefault, protection, flags, &error))
        }

        func item(_ account: String, _ control: SecAccessControl) -> [String: Any] {
            [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "s", kSecAttrAccount as String: account,
             kSecAttrAccessControl as String: control, kSecValueData as String: Data("pw-\(account)".utf8)]
        }

        func read(_ account: String) -> CallResult {
            copyMatching([kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "s",
                          kSecAttrAccount as String: account, kSecReturnData as String: true])
        }

        @Test("SecAccessControlCreateFlags has Apple's members and raw values over CFOptionFlags")
        func flagValues() {
            let expected: [(SecAccessControlCreateFlags, CFOptionFlags)] = [
                (.userPresence, 1 << 0), (.biometryAny, 1 << 1), (.biometryCurrentSet, 1 << 3), (.devicePasscode, 1 << 4),
                (.companion, 1 << 5), (.or, 1 << 14), (.and, 1 << 15), (.privateKeyUsage, 1 << 30), (.applicationPassword, 1 << 31),
            ]
            for (flag, raw) in expected { #expect(flag.rawValue == raw) }
            #expect(SecAccessControlCreateFlags(rawValue: CFOptionFlags(1 << 0)) == .userPresence)
        }

        @Test("SecAccessControlCreateWithFlags: a value for a real protection; nil and errSecParam in kCFErrorDomainOSStatus for any other")
        func creation() throws {
            let one = try control(.userPresence, kSecAttrAccessibleWhenUnlockedThisDeviceOnly)
            let two = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly as CFTypeRef, [.userPresence], nil))
            #expect(one == two && one.hashValue == two.hashValue)
            #expect(one != (try control(.devicePasscode, kSecAttrAccessibleWhenUnlockedThisDeviceOnly)))
            let query: [String: AnyHashable] = [kSecAttrAccessControl as String: one]
            #expect(query == [kSecAttrAccessControl as String: two])

            var error: Unmanaged<CFError>?
            #expect(SecAccessControlCreateWithFlags(kCFAllocatorDefault, "not a protection" as CFTypeRef, .userPresence, &error) == nil)
            let failure = try #require(error?.takeRetainedValue())
            #expect(CFErrorGetDomain(failure) == kCFErrorDomainOSStatus)
            #expect(CFErrorGetCode(failure) == CFIndex(errSecParam))
        }

        @Test("SecAccessControlCreateWithFlags refuses the combinations Apple's refuses: nil and errSecParam")
        func refusedCombinations() throws {
            // SecAccessControl.m: both .or and .and; both biometry flags; userPresence with
            // anything but applicationPassword and privateKeyUsage.
            let refused: [SecAccessControlCreateFlags] = [
                [.or, .and], [.devicePasscode, .or, .and, .biometryAny], [.biometryAny, .biometryCurrentSet],
                [.userPresence, .biometryAny], [.userPresence, .or, .biometryAny], [.userPresence, .and, .biometryCurrentSet],
                [.userPresence, .devicePasscode], [.userPresence, .companion], [.userPresence, .or],
            ]
            for flags in refused {
                var error: Unmanaged<CFError>?
                #expect(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, flags, &error) == nil, "\(flags.rawValue)")
                #expect(error.map { CFErrorGetCode($0.takeRetainedValue()) } == CFIndex(errSecParam), "\(flags.rawValue)")
            }
            let accepted: [SecAccessControlCreateFlags] = [
                [], .userPresence, [.userPresence, .applicationPassword], [.biometryAny, .or, .devicePasscode],
                [.biometryCurrentSet, .and, .devicePasscode], [.companion, .or, .biometryAny], .applicationPassword,
            ]
            for flags in accepted {
                #expect(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, flags, nil) != nil, "\(flags.rawValue)")
            }
        }

        @Test("An access control with flags on a synchronizable item is errSecParam, on add and in an update's changes")
        func constraintsDoNotSync() throws {
            let store = try protectedStore()
            try store.unlock(passphrase: Self.passphrase)
            // SecItem.m SecItemAuthDoQuery: "item with kSecAttrAccessControl is not synchronizable".
            for flags in [SecAccessControlCreateFlags.userPresence, .devicePasscode, .applicationPassword] {
                var synchronized = item("s\(flags.rawValue)", try control(flags))
                synchronized[kSecAttrSynchronizable as String] = true
                #expect(add(synchronized).status == errSecParam, "\(flags.rawValue)")
            }
            var plain = item("plain", try control([]))
            plain[kSecAttrSynchronizable as String] = true
            #expect(add(plain).status == errSecSuccess, "an access control without flags is only a protection")
            #expect(add(item("local", try control(.userPresence))).status == errSecSuccess)
            let local: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "local"]
            #expect(update(local, [kSecAttrAccessControl as String: try control(.devicePasscode),
                                   kSecAttrSynchronizable as String: true]) == errSecParam)
            #expect(copyMatching(local.with([kSecAttrSynchronizable as String: true])).status == errSecItemNotFound)
        }

        @Test("Constraints need a passphrase on the store, as Apple's need a passcode; giving kSecAttrAccessible too is errSecParam")
        func needsPassphrase() throws {
            #expect(add(item("a", try control(.userPresence))).status == errSecAuthFailed)
            #expect(add(item("b", try control([]))).status == errSecSuccess, "no constraint: only the protection")
            var both = item("c", try control(.userPresence))
            both[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlocked
            #expect(add(both).status == errSecParam)
            #expect(add(item("d", try control(.privateKeyUsage))).status == errSecParam)
        }

        @Test("userPresence: the secret needs a passphrase proof; attributes, delete and the class lock behave as without it")
        func userPresence() throws {
            let store = try protectedStore()
            try store.unlock(passphrase: Self.passphrase)
            let access = try control(.userPresence)
            #expect(add(item("a", access)).status == errSecSuccess)
            #expect(read("a").data == Data("pw-a".utf8), "right after the passphrase proof")

            // A new handle has the class lock and no proof: the class lock answers first.
            SecItemDefaultStore.reconfigure(environment: keychain.environment)
            #expect(read("a").status == errSecInteractionNotAllowed)
            let attributes = copyMatching([kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "a",
                                           kSecReturnAttributes as String: true])
            #expect(attributes.status == errSecInteractionNotAllowed, "whenUnlocked attributes stay locked too")

            // The returned attributes carry the access control, equal to the one given.
            try SecItemDefaultStore.store().unlock(passphrase: Self.passphrase)
            let found = copyMatching([kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "a",
                                      kSecReturnAttributes as String: true])
            #expect(found.dictionary?[kSecAttrAccessControl as String] as? SecAccessControl == access)
            #expect(update([kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "a"],
                           [kSecValueData as String: Data("new".utf8)]) == errSecSuccess)
            #expect(delete([kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "a"]) == errSecSuccess)
        }

        @Test("Biometry, companion and application password are never satisfied; or with devicePasscode is; no flag makes a locked class readable")
        func unavailableConstraints() throws {
            let store = try protectedStore()
            try store.unlock(passphrase: Self.passphrase)
            for (account, flags) in [("bio", SecAccessControlCreateFlags.biometryAny), ("set", .biometryCurrentSet),
                                     ("watch", .companion), ("app", .applicationPassword), ("both", [.devicePasscode, .biometryAny]),
                                     ("and", [.devicePasscode, .and, .biometryCurrentSet])] {
                #expect(add(item(account, try control(flags))).status == errSecSuccess, "\(account)")
                #expect(read(account).status == errSecAuthFailed, "\(account) is never readable here")
                #expect(update([kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account],
                               [kSecAttrLabel as String: "x"]) == errSecAuthFailed, "\(account) cannot be changed either")
            }
            #expect(add(item("either", try control([.devicePasscode, .or, .biometryAny]))).status == errSecSuccess)
            #expect(read("either").data == Data("pw-either".utf8))

            // An always-accessible protection with userPresence still needs the proof.
            #expect(add(item("always", try control(.userPresence, kSecAttrAccessibleAlways))).status == errSecSuccess)
            SecItemDefaultStore.reconfigure(environment: keychain.environment)
            #expect(read("always").status == errSecInteractionNotAllowed)
            #expect(read("either").status == errSecInteractionNotAllowed)
            // Deleting needs no proof (Apple's default ACL allows it); the class lock still applies.
            #expect(delete([kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "always"]) == errSecSuccess)
            #expect(delete([kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "bio"]) == errSecInteractionNotAllowed)
        }
    }
}

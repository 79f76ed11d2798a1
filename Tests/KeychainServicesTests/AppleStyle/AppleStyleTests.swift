import Foundation
import KeychainServices
import Testing

extension DefaultStoreTests {
    /// Code written for Apple's Security framework (the files beside this one, which import
    /// Security on Apple systems and KeychainServices here) runs unchanged against a real
    /// store chosen through SECSTORE_PATH.
    @Suite("Apple-style code") struct AppleStyleTests {
        let keychain: KeychainFixture
        init() throws { keychain = try KeychainFixture() }

        @Test("A device identifier is created once, then read back, also after the store is reopened")
        func deviceIdentifier() throws {
            let first = try #require(DeviceIdentifier.readOrCreate())
            #expect(UUID(uuidString: first) != nil)
            #expect(DeviceIdentifier.readOrCreate() == first)
            SecItemDefaultStore.reconfigure(environment: keychain.environment)
            #expect(DeviceIdentifier.readOrCreate() == first)

            let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                        kSecAttrService as String: DeviceIdentifier.service,
                                        kSecReturnAttributes as String: true]
            let attributes = try #require(copyMatching(query).dictionary)
            #expect(attributes[kSecAttrAccessible as String] as? String == kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String)
        }

        @Test("A device identifier whose item lost its data is replaced through delete-then-add")
        func deviceIdentifierRepaired() throws {
            let broken: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                         kSecAttrService as String: DeviceIdentifier.service,
                                         kSecAttrAccount as String: DeviceIdentifier.account,
                                         kSecValueData as String: Data([0xFF, 0xFE])]   // not UTF-8
            #expect(add(broken).status == errSecSuccess)
            let identifier = try #require(DeviceIdentifier.readOrCreate())
            #expect(UUID(uuidString: identifier) != nil)
            #expect(DeviceIdentifier.readOrCreate() == identifier)
        }

        @Test("The classic wrapper saves, replaces, loads and deletes by service")
        func classicWrapper() throws {
            #expect(KeychainService.load(service: "com.example.token") == nil)
            #expect(KeychainService.saveString("first", service: "com.example.token"))
            #expect(KeychainService.loadString(service: "com.example.token") == "first")
            #expect(KeychainService.saveString("second", service: "com.example.token"))
            #expect(KeychainService.loadString(service: "com.example.token") == "second")
            #expect(KeychainService.save(service: "com.example.other", data: Data([0xFF, 0x00, 0x01])) == errSecSuccess)
            #expect(KeychainService.load(service: "com.example.other") == Data([0xFF, 0x00, 0x01]))

            let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                        kSecAttrService as String: "com.example.token",
                                        kSecReturnAttributes as String: true]
            let attributes = try #require(copyMatching(query).dictionary)
            #expect(attributes[kSecAttrAccessible as String] as? String == "ck")

            #expect(KeychainService.delete(service: "com.example.token") == errSecSuccess)
            #expect(KeychainService.load(service: "com.example.token") == nil)
            #expect(KeychainService.delete(service: "com.example.token") == errSecItemNotFound)
            #expect(KeychainService.loadString(service: "com.example.other") == nil, "bytes that are not UTF-8")
        }

        @Test("The shared wrapper keeps generic data, a description and the access group")
        func sharedWrapper() throws {
            let shared = SharedCredentialStore(service: "com.example.login", accessGroup: KeychainFixture.g2)
            let metadata = Data("{\"v\":1}".utf8)
            try shared.save(token: "t1", account: "alice", metadata: metadata)
            try shared.save(token: "t2", account: "bob", metadata: Data())
            let alice = try #require(try shared.read(account: "alice"))
            #expect(alice.token == "t1")
            #expect(alice.metadata == metadata)
            #expect(alice.description == "Login token")
            #expect(try shared.accessGroup(ofAccount: "alice") == KeychainFixture.g2)

            try shared.save(token: "t1-rotated", account: "alice", metadata: metadata)
            #expect(try shared.read(account: "alice")?.token == "t1-rotated")
            #expect(try shared.accounts() == ["alice", "bob"])

            let defaultGroup = SharedCredentialStore(service: "com.example.login", accessGroup: KeychainFixture.g1)
            #expect(try defaultGroup.accounts() == [], "the other group's items are not in this one")
            #expect(try defaultGroup.read(account: "alice") == nil)

            try shared.removeAll()
            #expect(try shared.accounts() == [])
            #expect(try shared.read(account: "alice") == nil)
        }

        @Test("A group the process is not entitled to surfaces as a KeychainError with Apple's message")
        func sharedWrapperForeignGroup() {
            let foreign = SharedCredentialStore(service: "com.example.login", accessGroup: "XYZ.com.other.shared")
            #expect {
                try foreign.save(token: "t", account: "a", metadata: Data())
            } throws: { error in
                let keychainError = error as? KeychainError
                return keychainError?.status == errSecMissingEntitlement
                    && keychainError?.description == "Keychain error -34018: A required entitlement isn't present."
            }
        }
    }
}

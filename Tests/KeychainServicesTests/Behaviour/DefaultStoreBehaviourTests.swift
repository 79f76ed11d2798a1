import Foundation
import KeychainServices
import SecStore
import Testing

extension DefaultStoreTests {
    /// How the process-wide store is chosen, configured and shared.
    @Suite("Default store") struct DefaultStoreBehaviourTests {
        let keychain: KeychainFixture
        init() throws { keychain = try KeychainFixture() }

        @Test("SECSTORE_PATH, SECSTORE_DEVICE_KEY and SECSTORE_ENTITLEMENTS choose the store, its key and the caller")
        func environmentChoosesStore() throws {
            #expect(!FileManager.default.fileExists(atPath: keychain.storeURL.path))
            #expect(add(.itemA).status == errSecSuccess)
            #expect(FileManager.default.fileExists(atPath: keychain.storeURL.path))
            #expect(FileManager.default.fileExists(atPath: keychain.deviceKeyURL.path))

            // The same file, opened directly, holds the item in the entitlements' default group.
            let direct = try SecretStore(at: keychain.storeURL, options: .init(access: .owner, deviceKeyURL: keychain.deviceKeyURL))
            let items = try direct.items(matching: Query(service: "s", account: "a", returning: [.attributes, .data]))
            #expect(items.first?.data == "pw".utf8Data)
            #expect(items.first?.attributes.accessGroup == KeychainFixture.g1)
        }

        @Test("Without variables: the per-user data directory and the process's default entitlements")
        func environmentDefaults() throws {
            let home = keychain.directory.appending(path: "home")
            let configuration = try SecItemDefaultStore.Configuration.environment(["HOME": home.path])
            #expect(configuration.storeURL.path == home.appending(path: ".local/share/secstore/default.secstore").path)
            #expect(configuration.options.deviceKeyURL?.path == home.appending(path: ".local/share/secstore/device.key").path)
            #expect(configuration.options.access == .entitled(.processDefault))

            let xdg = keychain.directory.appending(path: "xdg")
            let withXDG = try SecItemDefaultStore.Configuration.environment(["HOME": home.path, "XDG_DATA_HOME": xdg.path])
            #expect(withXDG.storeURL.path == xdg.appending(path: "secstore/default.secstore").path)

            // And it works: the store is created there on first use.
            SecItemDefaultStore.reconfigure(environment: ["HOME": home.path])
            #expect(add(.itemA).status == errSecSuccess)
            #expect(FileManager.default.fileExists(atPath: configuration.storeURL.path))
        }

        @Test("An unreadable entitlements file makes every call errSecMissingEntitlement until it is fixed")
        func brokenEntitlements() throws {
            try Data("not a plist".utf8).write(to: keychain.entitlementsURL)
            SecItemDefaultStore.reconfigure(environment: keychain.environment)
            #expect(add(.itemA).status == errSecMissingEntitlement)
            #expect(copyMatching(.queryQ).status == errSecMissingEntitlement)
            #expect(update(.queryQ, [kSecAttrLabel as String: "l"]) == errSecMissingEntitlement)
            #expect(delete(.queryQ) == errSecMissingEntitlement)

            var missing = keychain.environment
            missing["SECSTORE_ENTITLEMENTS"] = keychain.directory.appending(path: "absent.plist").path
            SecItemDefaultStore.reconfigure(environment: missing)
            #expect(add(.itemA).status == errSecMissingEntitlement)

            try keychain.useEntitlements(accessGroups: [KeychainFixture.g1])
            #expect(add(.itemA).status == errSecSuccess)
        }

        @Test("A store that cannot be opened makes every call errSecNotAvailable, without crashing")
        func unopenableStore() throws {
            let notAStore = keychain.directory.appending(path: "garbage.secstore")
            try Data(repeating: 0x41, count: 4096).write(to: notAStore)
            var environment = keychain.environment
            environment["SECSTORE_PATH"] = notAStore.path
            SecItemDefaultStore.reconfigure(environment: environment)
            var result: CFTypeRef? = NSData()
            #expect(SecItemAdd([String: Any].itemA as CFDictionary, &result) == errSecNotAvailable)
            #expect(result == nil)
            #expect(copyMatching(.queryQ).status == errSecNotAvailable)
            #expect(update(.queryQ, [kSecAttrLabel as String: "l"]) == errSecNotAvailable)
            #expect(delete(.queryQ) == errSecNotAvailable)

            environment["SECSTORE_PATH"] = keychain.directory.path   // a directory
            SecItemDefaultStore.reconfigure(environment: environment)
            #expect(add(.itemA).status == errSecNotAvailable)
        }

        @Test("A store opened with another device key is errSecAuthFailed; with a missing key file errSecNotAvailable")
        func wrongDeviceKey() throws {
            #expect(add(.itemA).status == errSecSuccess)
            let otherKey = keychain.directory.appending(path: "keys/other.key")
            var environment = keychain.environment
            environment["SECSTORE_DEVICE_KEY"] = otherKey.path
            SecItemDefaultStore.reconfigure(environment: environment)
            #expect(copyMatching(.queryQ).status == errSecNotAvailable, "no key file: it is never made for an existing store")

            // Another store creates the other key; it cannot open the first store.
            _ = try SecretStore(at: keychain.directory.appending(path: "other.secstore"), options: .init(deviceKeyURL: otherKey))
            SecItemDefaultStore.reconfigure(environment: environment)
            #expect(copyMatching(.queryQ).status == errSecAuthFailed)
            SecItemDefaultStore.reconfigure(environment: keychain.environment)
            #expect(copyMatching(.queryQ).status == errSecSuccess)
        }

        @Test("configure(_:) works before the first call and throws once the store is open")
        func configureBeforeFirstUse() throws {
            let otherStore = keychain.directory.appending(path: "configured/app.secstore")
            SecItemDefaultStore.reconfigure(environment: keychain.environment)
            try SecItemDefaultStore.configure(.init(storeURL: otherStore, applicationIdentifier: "XYZ.com.example.configured",
                                                    deviceKeyURL: keychain.deviceKeyURL))
            let added = add(.itemA.with([kSecReturnAttributes as String: true]))
            #expect(added.status == errSecSuccess)
            #expect(added.dictionary?[kSecAttrAccessGroup as String] as? String == "XYZ.com.example.configured")
            #expect(FileManager.default.fileExists(atPath: otherStore.path))
            #expect(!FileManager.default.fileExists(atPath: keychain.storeURL.path))
            #expect(try SecItemDefaultStore.store().url == otherStore)

            #expect(throws: SecStoreError.self) {
                try SecItemDefaultStore.configure(.init(storeURL: keychain.storeURL, applicationIdentifier: "other"))
            }
            #expect(try SecItemDefaultStore.store().url == otherStore, "the open store is kept")
        }

        /// A store the test opened itself, holding (s, a) = "typed", made the default one.
        func usedStore() throws -> SecretStore {
            let entitlements = Entitlements(applicationIdentifier: "XYZ.com.example.used")
            let store = try SecretStore(at: keychain.directory.appending(path: "used.secstore"),
                                        options: .init(access: .entitled(entitlements), deviceKeyURL: keychain.deviceKeyURL))
            try store.add(.genericPassword(service: "s", account: "a", data: "typed".utf8Data))
            SecItemDefaultStore.use(store)
            return store
        }

        @Test("use(_:) makes an open store the default one")
        func useOpenStore() throws {
            let store = try usedStore()
            #expect(try SecItemDefaultStore.store() === store)
            #expect(copyMatching(.queryQ.with([kSecReturnData as String: true])).data == "typed".utf8Data)
        }

        /// SecItem functions on the default store, called inside that store's own `write`
        /// closure on its thread, need the writer the transaction holds: `errSecParam`, where
        /// the process used to stop ("Recursive call to lock Mutex"). Reads work there.
        @Test("SecItemAdd, SecItemUpdate and SecItemDelete inside the default store's own write closure return errSecParam")
        func secItemWriteInsideTheStoresTransaction() throws {
            let store = try usedStore()
            let statuses = try store.write { transaction in
                try transaction.add(.genericPassword(service: "s", account: "outer"))
                return [add(.itemA).status,
                        update(.queryQ, [kSecValueData as String: "changed".utf8Data]),
                        delete(.queryQ),
                        copyMatching(.queryQ.with([kSecReturnData as String: true])).status]
            }
            #expect(statuses == [errSecParam, errSecParam, errSecParam, errSecSuccess])
            #expect(copyMatching(.queryQ.with([kSecReturnData as String: true])).data == "typed".utf8Data)
            #expect(try store.items(matching: Query(service: "s", account: "outer")).count == 1)
        }

        @Test("Items written through SecItem functions survive reopening the store")
        func durableAcrossReopen() {
            #expect(add(.itemA).status == errSecSuccess)
            SecItemDefaultStore.reconfigure(environment: keychain.environment)
            #expect(copyMatching(.queryQ.with([kSecReturnData as String: true])).data == "pw".utf8Data)
        }
    }
}

import Foundation
import SecStore
// Every test file here uses the shared temporary directories and helper processes.
@_exported import SecStoreTestSupport

/// Test entitlements: two groups, G1 the default, as in the reference's conformance setup.
enum TestEntitlements {
    static let g1 = "ABCDE12345.com.example.g1"
    static let g2 = "ABCDE12345.com.example.g2"
    static let app = Entitlements(applicationIdentifier: "ABCDE12345.com.example.app", keychainAccessGroups: [g1, g2])
}

extension TemporaryDirectory {
    func openStore(access: StoreAccess = .entitled(TestEntitlements.app), createIfMissing: Bool = true) throws -> SecretStore {
        try SecretStore(at: storeURL, options: .init(access: access, deviceKeyURL: deviceKeyURL, createIfMissing: createIfMissing))
    }
}

extension TemporaryDirectory {
    /// A new directory whose store holds `items` generic passwords (service "s", accounts
    /// "a0", "a1", …), closed again: for tests of the connections that read it.
    static func withStore(items: Int) throws -> TemporaryDirectory {
        let directory = TemporaryDirectory()
        let store = try directory.openStore()
        for index in 0..<items { try store.add(.genericPassword(service: "s", account: "a\(index)")) }
        return directory
    }
}

extension TemporaryDirectory {
    /// A store whose AfterFirstUnlock keys live in this process only, so lock tests share
    /// no kernel-keyring state with each other.
    func openProcessLocalStore() throws -> SecretStore {
        try SecretStore(at: storeURL, options: .init(access: .entitled(TestEntitlements.app), deviceKeyURL: deviceKeyURL,
                                                     firstUnlockCache: .processMemory))
    }
}

extension SecretStore {
    /// Another handle on this store's file with owner access and otherwise this handle's
    /// options (device key, first-unlock cache): setting, changing and removing the passphrase
    /// need it (docs/access-groups.md, "Owner access").
    func ownerHandle() throws -> SecretStore {
        var options = options
        options.access = .owner
        options.createIfMissing = false
        return try SecretStore(at: url, options: options)
    }

    /// Sets the passphrase through ``ownerHandle()``, then unlocks this handle with it: this
    /// handle is left unlocked, as setting the passphrase on it leaves the owner's.
    func setPassphraseAsOwner(_ passphrase: String, limits: PasswordHashingLimits = .minimumForTesting) throws {
        try ownerHandle().setPassphrase(passphrase, limits: limits)
        try unlock(passphrase: passphrase)
    }
}

extension TemporaryDirectory {
    /// An owner handle on the store `<name>.secstore` in this directory (whole-store work:
    /// export, import, verify), its AfterFirstUnlock keys in this process only.
    func ownerStore(_ name: String) throws -> SecretStore {
        try SecretStore(at: url.appending(path: "\(name).secstore"),
                        options: .init(access: .owner, deviceKeyURL: deviceKeyURL, firstUnlockCache: .processMemory))
    }
}

extension SecretStore {
    /// The secret of the generic password `service` / `account`.
    func secret(_ account: String, service: String = "svc") throws -> Data? {
        try items(matching: Query(service: service, account: account, returning: .data)).first?.data
    }
}

extension String {
    var utf8Data: Data { Data(utf8) }
}

/// `secstore-test-helper`, the program the multi-process tests start.
let helper = HelperProcess(product: "secstore-test-helper")

import Foundation
import GRDB
import Synchronization

/// The keys of one open store, in `sodium_malloc` memory.
///
/// ```
/// device key (file, 0600)
///   └─ device wrap key = BLAKE2b(key: device key, "secstore/device-wrap/v1" ‖ store id)
///        └─ master key (random, row "master")
///             ├─ index key      = kdf(master, 1, "SSINDEX_")   blind indexes
///             └─ class wrap key = kdf(master, 2, "SSCLSWRP")   wraps class keys
///                  └─ class key per accessibility (random, rows "class.ak", …)
///                       ├─ metadata key = kdf(class key, 1, "SSITEMMD")
///                       └─ secret key   = kdf(class key, 2, "SSITEMSC")
/// ```
///
/// The master key is wiped once its subkeys exist. Class keys are held only while their
/// class is readable.
final class KeyVault: Sendable {
    let storeID: [UInt8]
    let indexer: BlindIndexer
    private let classWrapKey: SecureBytes
    private let unlocked: Mutex<[UInt8: ItemKeys]>

    private init(storeID: [UInt8], masterKey: SecureBytes) throws {
        self.storeID = storeID
        indexer = BlindIndexer(key: try KeyDerivation.subkey(of: masterKey, id: 1, context: "SSINDEX_"))
        classWrapKey = try KeyDerivation.subkey(of: masterKey, id: 2, context: "SSCLSWRP")
        unlocked = Mutex([:])
    }

    /// Classes a fresh store has keys for. ``Accessibility/whenPasscodeSetThisDeviceOnly``
    /// gets its key when a passphrase is set.
    static let initialClasses = Accessibility.allCases.filter { $0 != .whenPasscodeSetThisDeviceOnly }

    private static func deviceWrapKey(deviceKey: SecureBytes, storeID: [UInt8]) throws -> SecureBytes {
        try KeyDerivation.keyedHash(key: deviceKey, message: Array("secstore/device-wrap/v1".utf8) + storeID)
    }

    /// Creates the key rows of a new store, inside the caller's transaction.
    static func initialize(_ db: Database, deviceKey: SecureBytes) throws -> KeyVault {
        let storeID = try SecureRandom.bytes(16)
        try db.execute(sql: "INSERT INTO store (singleton, storeID) VALUES (1, ?)", arguments: [Data(storeID)])
        let masterKey = try SecureBytes.random(count: KeyDerivation.keyByteCount)
        let wrap = try deviceWrapKey(deviceKey: deviceKey, storeID: storeID)
        try insertKey(db, name: KeyRecord.master, protection: .device, key: masterKey, wrappingKey: wrap, storeID: storeID)
        let vault = try KeyVault(storeID: storeID, masterKey: masterKey)
        for accessibility in initialClasses {
            let classKey = try SecureBytes.random(count: KeyDerivation.keyByteCount)
            try insertKey(db, name: KeyRecord.className(accessibility), protection: .device,
                          key: classKey, wrappingKey: vault.classWrapKey, storeID: storeID)
            vault.install(try ItemKeys(classKey: classKey), for: accessibility)
        }
        return vault
    }

    /// Unwraps an existing store's keys with the device key.
    static func open(_ db: Database, deviceKey: SecureBytes, path: String) throws -> KeyVault {
        guard let storeID = try Data.fetchOne(db, sql: "SELECT storeID FROM store WHERE singleton = 1") else {
            throw SecStoreError(.corruptData, "The store \(path) has no store record. Restore it from a backup.")
        }
        let id = Array(storeID)
        let wrap = try deviceWrapKey(deviceKey: deviceKey, storeID: id)
        guard let sealedMaster = try Data.fetchOne(db, sql: "SELECT sealed FROM keys WHERE name = ?", arguments: [KeyRecord.master]) else {
            throw SecStoreError(.corruptData, "The store \(path) has no master key. Restore it from a backup.")
        }
        let masterKey: SecureBytes
        do {
            masterKey = try unwrap(sealedMaster, name: KeyRecord.master, protection: .device, wrappingKey: wrap, storeID: id)
        } catch {
            throw SecStoreError(.wrongDeviceKey, "The store \(path) was created with another device key, or its key record was altered. Open it with the device key it was made with (SECSTORE_DEVICE_KEY).")
        }
        let vault = try KeyVault(storeID: id, masterKey: masterKey)
        for row in try Row.fetchAll(db, sql: "SELECT name, protection, sealed FROM keys WHERE name LIKE 'class.%'") {
            let name: String = row["name"]
            guard let accessibility = Accessibility(rawValue: String(name.dropFirst("class.".count))),
                  let protection = KeyProtection(rawValue: row["protection"])
            else {
                throw SecStoreError.corrupt("The key record \(name)")
            }
            guard protection == .device else { continue }
            let classKey = try unwrap(row["sealed"], name: name, protection: protection, wrappingKey: vault.classWrapKey, storeID: id)
            vault.install(try ItemKeys(classKey: classKey), for: accessibility)
        }
        return vault
    }

    /// The keys of `accessibility`'s class, or `interactionNotAllowed` while it is locked.
    func itemKeys(for accessibility: Accessibility) throws -> ItemKeys {
        guard let keys = unlocked.withLock({ $0[accessibility.code] }) else {
            if accessibility == .whenPasscodeSetThisDeviceOnly {
                throw SecStoreError(.authenticationFailed, "Items with accessibility whenPasscodeSetThisDeviceOnly need a passphrase on the store. Set one (`secstore passphrase set`) first.")
            }
            throw SecStoreError.locked(accessibility)
        }
        return keys
    }

    func isUnlocked(_ accessibility: Accessibility) -> Bool {
        unlocked.withLock { $0[accessibility.code] != nil }
    }

    private func install(_ keys: ItemKeys, for accessibility: Accessibility) {
        unlocked.withLock { $0[accessibility.code] = keys }
    }

    // MARK: Wrapping

    private static func insertKey(_ db: Database, name: String, protection: KeyProtection, key: SecureBytes,
                                  wrappingKey: SecureBytes, storeID: [UInt8]) throws {
        let ad = KeyRecord.associatedData(storeID: storeID, name: name, protection: protection)
        let sealed = key.withUnsafeBytes { AEAD.seal($0, key: wrappingKey, associatedData: ad) }
        try db.execute(sql: "INSERT OR REPLACE INTO keys (name, protection, sealed) VALUES (?, ?, ?)",
                       arguments: [name, protection.rawValue, sealed])
    }

    private static func unwrap(_ sealed: Data, name: String, protection: KeyProtection, wrappingKey: SecureBytes,
                               storeID: [UInt8]) throws -> SecureBytes {
        let ad = KeyRecord.associatedData(storeID: storeID, name: name, protection: protection)
        do {
            var plain = try AEAD.open(sealed, key: wrappingKey, associatedData: ad)
            defer { Wipe.data(&plain) }
            guard plain.count == KeyDerivation.keyByteCount else { throw CryptoFailure.malformedCiphertext }
            return try plain.withUnsafeBytes { try SecureBytes(copying: $0) }
        } catch is CryptoFailure {
            throw SecStoreError.corrupt("The key record \(name)")
        }
    }
}

import Foundation
internal import GRDB

/// Creating a store's keys, opening them with the device key, and the move from format
/// version 1 to 2.
extension KeyVault {
    static func deviceWrapKey(deviceKey: SecureBytes, storeID: [UInt8]) throws -> SecureBytes {
        try KeyDerivation.keyedHash(key: deviceKey, message: Array("secstore/device-wrap/v1".utf8) + storeID)
    }

    // MARK: Creating and opening

    /// Writes the store row and the key rows of a new store, inside the caller's transaction.
    static func createKeys(_ db: Database, deviceKey: SecureBytes) throws {
        let storeID = try SecureRandom.bytes(16)
        try db.execute(sql: "INSERT INTO store (singleton, storeID) VALUES (1, ?)", arguments: [Data(storeID)])
        let masterKey = try SecureBytes.random(count: KeyDerivation.keyByteCount)
        try KeyRecord.write(db, name: KeyRecord.masterName, protection: .device, key: masterKey,
                            wrappingKey: try deviceWrapKey(deviceKey: deviceKey, storeID: storeID), storeID: storeID)
        let subkeys = try MasterSubkeys(of: masterKey)
        for accessibility in initialClasses {
            try KeyRecord.write(db, name: KeyRecord.name(for: accessibility), protection: .device,
                                key: try SecureBytes.random(count: KeyDerivation.keyByteCount),
                                wrappingKey: subkeys.classWrapKey, storeID: storeID)
        }
        try KeyTable(storeID: storeID, binder: subkeys.keyTableBinder).bindAll(db)
        try ItemsDigest.save(.empty, in: db)
    }

    /// Completes the move from format version 1 to 2 inside the migration's transaction:
    /// binds the class key rows to the passphrase state and records the digest of the item
    /// rows as they are. Version 1 could not tell a tampered key table or row set from a
    /// sound one, so this takes the file as it finds it; rows stay sealed in version 1 until
    /// they are next written.
    static func completeVersion2(_ db: Database, deviceKey: SecureBytes, path: String) throws {
        let (storeID, masterKey) = try unwrapMasterKey(db, deviceKey: deviceKey, path: path)
        let subkeys = try MasterSubkeys(of: masterKey)
        try KeyTable(storeID: storeID, binder: subkeys.keyTableBinder).bindAll(db)
        try ItemsDigest(hasher: subkeys.itemsDigestHasher, path: path).reset(in: db)
    }

    /// The store id and the master key, unwrapped with the device key.
    static func unwrapMasterKey(_ db: Database, deviceKey: SecureBytes, path: String) throws -> ([UInt8], SecureBytes) {
        guard let storeID = try Data.fetchOne(db, sql: "SELECT storeID FROM store WHERE singleton = 1") else {
            throw SecStoreError(.corruptData, "The store \(path) has no store record. Restore it from a backup.")
        }
        let id = Array(storeID)
        guard let master = try KeyRecord.fetch(db, name: KeyRecord.masterName) else {
            throw SecStoreError(.corruptData, "The store \(path) has no master key. Restore it from a backup.")
        }
        guard let masterKey = try master.unwrap(with: try deviceWrapKey(deviceKey: deviceKey, storeID: id), storeID: id) else {
            throw SecStoreError(.wrongDeviceKey, "The store \(path) was created with another device key, or its key record was altered. Open it with the device key it was made with (SECSTORE_DEVICE_KEY).")
        }
        return (id, masterKey)
    }

    /// Unwraps an existing store's keys with the device key. Classes behind a passphrase
    /// stay locked, except `AfterFirstUnlock` ones already unlocked since boot.
    static func open(database: StoreDatabase, deviceKey: SecureBytes, options: SecretStore.Options) throws -> KeyVault {
        return try database.readOnWriter { db in
            let (id, masterKey) = try unwrapMasterKey(db, deviceKey: deviceKey, path: database.path)
            let vault = try KeyVault(storeID: id, masterKey: masterKey, database: database, options: options)
            try vault.reload(db)
            return vault
        }
    }
}

import Foundation
internal import GRDB

/// Brings a store file to a usable state: checks what the file is, creates or migrates
/// its schema, and unwraps its keys.
struct StoreOpener {
    let database: StoreDatabase

    /// Refuses an existing empty file before SQLite touches it (opening would write a
    /// header into it): an empty file at a store's path is a truncated store, not a new one.
    static func checkNotEmpty(_ url: URL) throws {
        var info = stat()
        if stat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size == 0 {
            throw emptyStore(url.path)
        }
    }

    static func emptyStore(_ path: String) -> SecStoreError {
        SecStoreError(.corruptData, "The store \(path) is empty or has no SecStore tables: it was truncated or damaged, and is not a new store. Restore it from a backup (`secstore import`), or move it aside and run `secstore create`.")
    }

    /// A SecStore file whose format version (`user_version`) reads 0 although it holds tables:
    /// the header was altered or damaged, and which version its tables are cannot be told.
    static func versionLost(_ path: String) -> SecStoreError {
        SecStoreError(.corruptData, "The store \(path) holds tables but its format version reads 0: the file's header was altered or damaged. Restore it from a backup (`secstore import`), or move it aside and run `secstore create`.")
    }

    /// - Parameter initializing: true only for a file this process has just created under a
    ///   temporary name (``SecretStore/create(at:options:passphrase:limits:)``): an empty
    ///   file anywhere else is a damaged store, never a new one.
    func openVault(deviceKey: SecureBytes, options: SecretStore.Options, initializing: Bool) throws -> KeyVault {
        let path = database.path
        let version = try database.readOnWriter { db in
            try Schema.checkApplicationID(db, path: path)
            let version = try Schema.version(db, path: path)
            if version == 0 && !initializing, try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0 > 0 {
                throw Self.versionLost(path)
            }
            // Before anything else reads or writes the file: a schema object its version does
            // not define is refused (`Schema+Objects.swift`). An older file is checked by
            // `Schema.migrate`, under the write lock, before it is migrated.
            if version == Schema.currentVersion {
                try Schema.checkObjects(db, version: version, path: path)
            }
            return version
        }
        if version == 0 && !initializing {
            throw Self.emptyStore(path)
        }
        if version < Schema.currentVersion && database.isReadOnly {
            throw SecStoreError(.readOnly, "The store \(path) has format version \(version) and must be brought to version \(Schema.currentVersion) once, which needs write access to it and its directory. Open it once with write access.")
        }
        if version != Schema.currentVersion {
            // Create or migrate under the write lock; another process may have done it
            // first, so the version is read again inside the transaction.
            try database.write { db in
                let start = try Schema.migrate(db, path: path)
                if start == 0 {
                    options.logger.debug("created a new store", metadata: ["path": "\(path)"])
                    try KeyVault.createKeys(db, deviceKey: deviceKey)
                } else if start < 2 {
                    options.logger.info("migrated the store to format version 2", metadata: ["path": "\(path)"])
                    try KeyVault.completeVersion2(db, deviceKey: deviceKey, path: path)
                } else {
                    // The device key is proved inside the migration's transaction, as
                    // completeVersion2 proves it for a version-1 file: with the wrong key the
                    // steps are rolled back and the file stays at its version. Without this, an
                    // open that was then refused (`wrongDeviceKey`) had migrated the file.
                    _ = try KeyVault.unwrapMasterKey(db, deviceKey: deviceKey, path: path)
                }
            }
        }
        return try KeyVault.open(database: database, deviceKey: deviceKey, options: options)
    }
}

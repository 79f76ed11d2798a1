import Foundation
internal import GRDB

/// Brings a store file to a usable state: checks what the file is, creates or migrates
/// its schema, and unwraps its keys.
struct StoreOpener {
    let database: StoreDatabase

    func openVault(deviceKey: SecureBytes, options: SecretStore.Options) throws -> KeyVault {
        let path = database.path
        let version = try database.read { db in
            try Schema.checkApplicationID(db, path: path)
            return try Schema.version(db)
        }
        if version != Schema.currentVersion {
            // Create or migrate under the write lock; another process may have done it
            // first, so the version is read again inside the transaction.
            try database.write { db in
                if try Schema.migrate(db, path: path) {
                    options.logger.debug("created a new store", metadata: ["path": "\(path)"])
                    try KeyVault.createKeys(db, deviceKey: deviceKey)
                }
            }
        }
        return try KeyVault.open(database: database, deviceKey: deviceKey, options: options)
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension SecretStore {
    /// Refuses to export onto one of this store's own files — the database, its `-wal` or
    /// `-shm`, or its device key — found by device and inode, whatever name or link reaches
    /// it: an export allowed to replace its destination would put the backup in its place and
    /// destroy the store (and its `…ThisDeviceOnly` items, which no backup holds). Used by
    /// ``exportBackup(to:passphrase:limits:skippingDamaged:replacingExisting:progress:)`` and by
    /// the tool's plaintext export.
    ///
    /// ```swift
    /// try store.checkExportDestination(URL(filePath: "backup.ssb"))
    /// ```
    package func checkExportDestination(_ destination: URL) throws {
        var target = stat()
        guard lstat(destination.path, &target) == 0 else { return }
        let deviceKey = options.resolvedDeviceKeyURL
        for own in [url.path] + CompanionFiles.suffixes.map({ url.path + $0 }) + [deviceKey.path] {
            if FileIdentity.ofFile(atPath: own) == FileIdentity(target) {
                throw SecStoreError.invalid("\(destination.path) is this store's own file (\(own)): exporting there would replace the store with its backup. Choose another file name.")
            }
        }
    }
}

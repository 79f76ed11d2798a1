import Foundation
import GRDB

/// What ``SecretStore/exportBackup(to:passphrase:limits:progress:)`` wrote.
public struct ExportSummary: Sendable, Hashable {
    /// Items written to the backup.
    public var exported: Int
    /// `…ThisDeviceOnly` items left out: they never leave this machine.
    public var skippedThisDeviceOnly: Int
}

extension SecretStore {
    /// Writes every item except `…ThisDeviceOnly` ones to an encrypted backup file
    /// (`crypto_secretstream` under an Argon2id key from `passphrase`). The file is written
    /// to a temporary name and renamed into place, mode `0600`. Owner access only.
    ///
    /// ```swift
    /// let summary = try ownerStore.exportBackup(to: URL(filePath: "backup.ssb"), passphrase: "backup pass")
    /// ```
    ///
    /// - Throws: ``SecStoreError`` `interactionNotAllowed` when an exportable item's class is
    ///   locked (unlock first), `corruptData` when an item fails authentication.
    public func exportBackup(to destination: URL, passphrase: String, limits: PasswordHashingLimits = .moderate,
                             progress: ((OperationProgress) -> Void)? = nil) throws -> ExportSummary {
        try RowScanner.requireOwner(options.access, "Exporting a store")
        guard !passphrase.isEmpty, limits.isWithinLibraryBounds else {
            throw SecStoreError.invalid("A backup needs a non-empty passphrase and valid Argon2id limits.")
        }
        var passphraseBytes = Array(passphrase.utf8)
        defer { Wipe.bytes(&passphraseBytes) }
        let salt = try SecureRandom.bytes(PasswordHashing.saltByteCount)
        let key = try PasswordHashing.deriveKey(passphrase: passphraseBytes, salt: salt, limits: limits)
        let stream = try SecretStream.Writer(key: key)
        let header = BackupFormat.Header(limits: limits, salt: salt, streamHeader: stream.header)
        let file = try PrivateFileWriter(destination: destination)
        let scanner = RowScanner(engine: engine)
        let exportable = Accessibility.allCases.filter { !$0.isThisDeviceOnly }.map { String($0.code) }.joined(separator: ", ")

        let summary = try engine.database.read { db -> ExportSummary in
            let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM items WHERE accessibility IN (\(exportable))") ?? 0
            try file.write(header.bytes)
            let manifest = BackupFormat.Manifest(sourceStoreID: engine.vault.storeID, created: Date(), itemCount: UInt64(total))
            try file.writeRecord(stream.seal(manifest.bytes, associatedData: header.bytes))
            var summary = ExportSummary(exported: 0, skippedThisDeviceOnly: 0)
            try scanner.forEachRow(in: db) { row in
                guard !row.accessibility.isThisDeviceOnly else {
                    summary.skippedThisDeviceOnly += 1
                    return
                }
                var (attributes, secret) = try scanner.open(row, in: db)
                defer { Wipe.data(&secret) }
                var record = BackupFormat.ItemRecord(itemClass: row.itemClass, accessibility: row.accessibility,
                                                     attributes: attributes, secret: secret).bytes
                defer { Wipe.bytes(&record) }
                guard record.count + SecretStream.overhead <= BackupFormat.maximumRecordByteCount else {
                    throw SecStoreError(.unsupported, "Item \(row.persistentReference) is larger than a backup record may be (256 MiB). Move that secret out of the store before exporting.")
                }
                try file.writeRecord(stream.seal(record))
                summary.exported += 1
                progress?(OperationProgress(completed: summary.exported, total: total))
            }
            try file.writeRecord(stream.seal(BackupFormat.le(UInt64(summary.exported)), tag: .final))
            return summary
        }
        try file.commit()
        return summary
    }
}

/// Writes a file under a temporary name with mode `0600` and renames it into place only
/// when complete, so a failed export never leaves a half-written backup behind.
final class PrivateFileWriter {
    private let destination: URL
    private let temporary: URL
    private let handle: FileHandle
    private var committed = false

    init(destination: URL) throws {
        self.destination = destination
        temporary = destination.deletingLastPathComponent()
            .appending(path: ".\(destination.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: temporary.path)
        else {
            throw SecStoreError(.ioFailure, "Cannot create \(temporary.path). Check that the directory exists and is writable.")
        }
        self.handle = handle
    }

    func write(_ bytes: [UInt8]) throws {
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            throw SecStoreError(.ioFailure, "Writing \(destination.path) failed: \((error as NSError).localizedDescription). Check free disk space.")
        }
    }

    func writeRecord(_ sealed: [UInt8]) throws {
        try write(BackupFormat.le(UInt32(sealed.count)) + sealed)
    }

    func commit() throws {
        do {
            try handle.synchronize()
            try handle.close()
            // rename(2) replaces an existing backup atomically.
            guard rename(temporary.path, destination.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path])
            }
            committed = true
            FileSecurity.syncDirectory(destination.deletingLastPathComponent())
        } catch {
            throw SecStoreError(.ioFailure, "Cannot finish writing \(destination.path): \((error as NSError).localizedDescription).")
        }
    }

    deinit {
        if !committed {
            try? handle.close()
            try? FileManager.default.removeItem(at: temporary)
        }
    }
}

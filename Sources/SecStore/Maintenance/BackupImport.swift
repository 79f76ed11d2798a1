import Foundation
internal import GRDB

/// What to do when a backup's item has the primary key of an item already in the store.
///
/// ```swift
/// let summary = try owner.importBackup(from: backupURL, passphrase: backupPassphrase, conflictPolicy: .replace)
/// ```
public enum ImportConflictPolicy: String, Sendable, CaseIterable {
    /// Keep the store's item; count the backup's as skipped. The default.
    case skip
    /// Replace the store's item with the backup's.
    case replace
    /// Stop and import nothing.
    case fail
}

/// What ``SecretStore/importBackup(from:passphrase:conflictPolicy:progress:)`` did.
///
/// ```swift
/// let summary = try owner.importBackup(from: backupURL, passphrase: backupPassphrase)
/// print("\(summary.added) added, \(summary.skipped) already here")
/// ```
public struct ImportSummary: Sendable, Hashable {
    /// Backup items that were not in the store, now added.
    public var added: Int
    /// Backup items left out because the store already had an item with their primary key
    /// (``ImportConflictPolicy/skip``).
    public var skipped: Int
    /// Store items replaced by the backup's item with the same primary key
    /// (``ImportConflictPolicy/replace``).
    public var replaced: Int
    /// Of the ``skipped`` items, those skipped although the policy was
    /// ``ImportConflictPolicy/replace``: the stored item with their primary key is
    /// `…ThisDeviceOnly`, and an import never replaces one (no backup holds its secret).
    public var keptThisDeviceOnly: Int = 0
    /// Items of the reserved access group `secstore.sync` in the backup, left out (`ImportRules`):
    /// sync makes its own entries there, and a backup cannot be edited to drop them.
    public var skippedReserved: Int = 0
}

extension SecretStore {
    /// Restores the items of a backup made by ``exportBackup(to:passphrase:limits:skippingDamaged:replacingExisting:progress:)``,
    /// with their attributes, dates and secrets, in one transaction: a damaged or truncated
    /// backup imports nothing. Owner access only.
    ///
    /// ```swift
    /// let summary = try ownerStore.importBackup(from: URL(filePath: "backup.ssb"),
    ///                                           passphrase: "backup pass", conflictPolicy: .replace)
    /// ```
    ///
    /// - Throws: ``SecStoreError`` `authenticationFailed` for a wrong backup passphrase,
    ///   `corruptData` for a damaged, truncated or foreign file, `duplicateItem` under
    ///   ``ImportConflictPolicy/fail``.
    public func importBackup(from source: URL, passphrase: String, conflictPolicy: ImportConflictPolicy = .skip,
                             progress: ((OperationProgress) -> Void)? = nil) throws -> ImportSummary {
        return try guarded {
            try RowScanner.requireOwner(options.access, "Importing a backup")
            let file = try BackupFileReader(source: source)
            let header = try BackupFormat.Header(parsing: try file.readHeader())
            var passphraseBytes = Array(passphrase.utf8)
            defer { Wipe.bytes(&passphraseBytes) }
            let key = try PasswordHashing.deriveKey(passphrase: passphraseBytes, salt: header.salt, limits: header.limits)
            let stream: SecretStream.Reader
            let manifest: BackupFormat.Manifest
            do {
                stream = try SecretStream.Reader(key: key, header: header.streamHeader)
                let (bytes, _) = try stream.open(try file.readRecord(), associatedData: header.bytes)
                manifest = try BackupFormat.Manifest(parsing: bytes)
            } catch is CryptoFailure {
                throw SecStoreError(.authenticationFailed, "The backup passphrase is not correct, or the backup's header was altered.")
            }
            let total = Int(clamping: manifest.itemCount)
            return try engine.database.write { db in
                try engine.beginWrite(db)
                var summary = ImportSummary(added: 0, skipped: 0, replaced: 0)
                var seen: UInt64 = 0
                while true {
                    var message: [UInt8]
                    let tag: SecretStream.Tag
                    do {
                        (message, tag) = try stream.open(try file.readRecord())
                    } catch is CryptoFailure {
                        throw BackupFormat.damaged
                    }
                    defer { Wipe.bytes(&message) }
                    if tag == .final {
                        var offset = 0
                        guard message.count == 8, BackupFormat.readLE(message, &offset) as UInt64 == seen, seen == manifest.itemCount else {
                            throw BackupFormat.damaged
                        }
                        // Nothing may follow the final record: appended bytes are tampering.
                        guard try file.isAtEnd() else { throw BackupFormat.damaged }
                        return summary
                    }
                    let record = try BackupFormat.ItemRecord(parsing: message)
                    try engine.importItem(record, policy: conflictPolicy, summary: &summary, in: db)
                    seen += 1
                    progress?(OperationProgress(completed: Int(seen), total: total))
                }
            }
        }
    }
}

extension ItemEngine {
    /// Inserts a backup's item as it was: same attributes, dates, group and
    /// class, by the import rules (``ImportRules``).
    func importItem(_ record: BackupFormat.ItemRecord, policy: ImportConflictPolicy,
                    summary: inout ImportSummary, in db: Database) throws {
        // Export never writes them: a record that claims one was not made by SecStore's export.
        guard !record.accessibility.isThisDeviceOnly else { throw BackupFormat.damaged }
        // Never written, and never a reason to refuse the rest: a backup cannot be edited.
        guard !ImportRules.isReserved(record.attributes.accessGroup) else {
            summary.skippedReserved += 1
            return
        }
        try RequestRules.checkSecretSize(record.secret.count)
        var given = record.attributes
        given.accessibility = record.accessibility
        // Owner access: the item keeps its group, which a backup always records.
        let attributes = try RequestRules.newItem(given, of: record.itemClass, group: { group in
            guard let group else { throw BackupFormat.damaged }
            return group
        }, dates: .keptOrNow(Date()))
        let prepared = try sealNewRow(record.itemClass, attributes: attributes, secret: record.secret, in: db)
        do {
            try insert(prepared, in: db)
            summary.added += 1
        } catch let error as SecStoreError where error.code == .duplicateItem {
            switch policy {
            case .skip:
                summary.skipped += 1
            case .fail:
                throw SecStoreError(.duplicateItem, "The backup holds an item that is already in the store (same primary key). Import with the skip or replace policy.")
            case .replace:
                // The stored row is authenticated first: a damaged or planted row is reported
                // (corruptData), never silently removed, nor kept on the word of its
                // accessibility byte. Its access control applies only when it is replaced (its
                // secret is dropped).
                if let existing = try ItemsTable.row(primaryKeyTag: prepared.row.tags.primaryKey, path: database.path, in: db) {
                    let keeps = ImportRules.keepsStored(existing.accessibility)
                    _ = try RowScanner(engine: self).open(existing, in: db, checkingAccessControl: !keeps)
                    if keeps {
                        summary.skipped += 1
                        summary.keptThisDeviceOnly += 1
                        return
                    }
                }
                try ItemsTable.delete(primaryKeyTag: prepared.row.tags.primaryKey, digest: vault.itemsDigest, in: db)
                try insert(prepared, in: db)
                summary.replaced += 1
            }
        }
    }
}

/// Reads a backup file in order: the header, then length-prefixed records, through
/// ``DescriptorReader``: a read that fails (EIO: a failing disk) is an `ioFailure` naming the
/// backup, never taken for the end of the file, which would call a good backup truncated and
/// send the user looking for another copy.
final class BackupFileReader {
    private let descriptor: Int32
    private let path: String

    init(source: URL) throws {
        path = source.path
        descriptor = open(source.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw SecStoreError(.ioFailure, "Cannot open the backup \(source.path): \(String(cString: strerror(errno))). Check the path and its permissions.")
        }
        var info = stat()
        if fstat(descriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR {
            close(descriptor)
            throw SecStoreError.invalid("\(source.path) is a directory. Give the path of a backup file (`secstore export` makes one).")
        }
    }

    deinit { close(descriptor) }

    /// Up to `count` bytes: fewer only where the file ends.
    private func read(upTo count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = try DescriptorReader.fill(&bytes, from: descriptor, path: path, describing: "the backup")
        bytes.removeSubrange(read...)
        return bytes
    }

    func read(count: Int) throws -> [UInt8] {
        let bytes = try read(upTo: count)
        guard bytes.count == count else {
            throw SecStoreError(.corruptData, "The backup \(path) is truncated: it ends before its final record. Use a complete copy.")
        }
        return bytes
    }

    /// The header bytes; a file too short to hold them is "not a backup" unless it starts
    /// like one, in which case it is a truncated backup.
    func readHeader() throws -> [UInt8] {
        let bytes = try read(upTo: BackupFormat.headerByteCount)
        if bytes.count < BackupFormat.headerByteCount && !bytes.isEmpty && bytes.starts(with: BackupFormat.magic.prefix(bytes.count)) {
            throw SecStoreError(.corruptData, "The backup \(path) is truncated inside its header. Use a complete copy.")
        }
        return bytes   // Header(parsing:) reports what a short or foreign one is not.
    }

    /// Whether the whole file has been read.
    func isAtEnd() throws -> Bool {
        try read(upTo: 1).isEmpty
    }

    func readRecord() throws -> [UInt8] {
        var offset = 0
        let length = Int(BackupFormat.readLE(try read(count: 4), &offset) as UInt32)
        guard length <= BackupFormat.maximumRecordByteCount else { throw BackupFormat.damaged }
        return try read(count: length)
    }
}

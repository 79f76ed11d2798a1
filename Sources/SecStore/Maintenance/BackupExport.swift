import Foundation
internal import GRDB

/// What ``SecretStore/exportBackup(to:passphrase:limits:skippingDamaged:replacingExisting:progress:)`` wrote.
///
/// ```swift
/// let summary = try owner.exportBackup(to: URL(filePath: "/media/usb/keychain.backup"), passphrase: backupPassphrase)
/// print("\(summary.exported) items, \(summary.skippedThisDeviceOnly) kept on this device")
/// ```
public struct ExportSummary: Sendable, Hashable {
    /// Items written to the backup.
    public var exported: Int
    /// `…ThisDeviceOnly` items left out: they never leave this machine.
    public var skippedThisDeviceOnly: Int
    /// Items left out because they failed authentication, or because their row is malformed
    /// (an unknown accessibility, a reference that names another row), only with `skippingDamaged`.
    public var skippedDamaged: [PersistentReference] = []
    /// Rows left out (only with `skippingDamaged`) that are too malformed to name an item:
    /// an unknown class, a reference of the wrong length (`verify` reports them too).
    public var skippedMalformedRows = 0
    /// Items left out because their access control can never be satisfied here (biometry, a
    /// companion device, an application password): their secrets are never read on Linux.
    public var skippedUnreadable: [PersistentReference] = []
    /// True when the store's items did not match its digest (items deleted, reverted or
    /// copied in behind SecStore's back) and the export went on because of
    /// `skippingDamaged`: the backup holds the items as they are now.
    public var itemsMismatchedDigest = false
}

extension SecretStore {
    /// Writes every item except `…ThisDeviceOnly` ones to an encrypted backup file
    /// (`crypto_secretstream` under an Argon2id key from `passphrase`). The file is written
    /// to a temporary name (mode `0600` from its first byte), flushed to disk and renamed
    /// into place, so a failed export leaves no partial backup. Owner access only.
    ///
    /// ```swift
    /// let summary = try ownerStore.exportBackup(to: URL(filePath: "backup.ssb"), passphrase: "backup pass")
    /// ```
    ///
    /// - Throws: ``SecStoreError`` `interactionNotAllowed` when an exportable item's class is
    ///   locked (unlock first), `corruptData` when an item fails authentication or the items
    ///   do not match the store's digest (see ``SecretStore/verify(progress:)``).
    ///
    /// With `skippingDamaged`, items that fail authentication are left out and listed in
    /// ``ExportSummary/skippedDamaged`` (a partial backup the caller asked for); without it
    /// such an item fails the export with `corruptData` and nothing is written.
    ///
    /// With `replacingExisting` (the default), a file or symbolic link already at
    /// `destination` is replaced; without it, anything there when the backup is put in place
    /// (also a file created while the export ran, or a dangling link) is left as it is and the
    /// export fails with `duplicateItem`. A device, a FIFO or a directory is never replaced,
    /// nor the store's own files (its database, `-wal`, `-shm` or device key: `invalidParameter`).
    public func exportBackup(to destination: URL, passphrase: String, limits: PasswordHashingLimits = .moderate,
                             skippingDamaged: Bool = false, replacingExisting: Bool = true,
                             progress: ((OperationProgress) -> Void)? = nil) throws -> ExportSummary {
        try guarded {
            try checkExportDestination(destination)
            return try writeBackup(to: { FileSink(writer: try AtomicFileWriter(destination: destination, describing: "the backup"),
                                           placement: replacingExisting ? .replace : .createOnlyOrCheckedRename) },
                            passphrase: passphrase, limits: limits, skippingDamaged: skippingDamaged, progress: progress)
        }
    }

    /// Writes the same backup to an open file handle, such as standard output
    /// (`secstore export -`), as it is made. A failure leaves whatever was written: the
    /// reader learns it from the missing final record, which import requires.
    ///
    /// ```swift
    /// try ownerStore.exportBackup(writingTo: .standardOutput, passphrase: "backup pass")
    /// ```
    public func exportBackup(writingTo handle: FileHandle, passphrase: String, limits: PasswordHashingLimits = .moderate,
                             skippingDamaged: Bool = false,
                             progress: ((OperationProgress) -> Void)? = nil) throws -> ExportSummary {
        try guarded {
            try writeBackup(to: { DescriptorSink(descriptor: handle.fileDescriptor) }, passphrase: passphrase,
                            limits: limits, skippingDamaged: skippingDamaged, progress: progress)
        }
    }

    private func writeBackup(to makeSink: () throws -> any BackupSink, passphrase: String, limits: PasswordHashingLimits,
                             skippingDamaged: Bool, progress: ((OperationProgress) -> Void)?) throws -> ExportSummary {
        try RowScanner.requireOwner(options.access, "Exporting a store")
        guard !passphrase.isEmpty else {
            throw SecStoreError.invalid("A backup needs a non-empty passphrase.")
        }
        guard limits.isAcceptable else {
            throw SecStoreError.invalid("\(limits) is outside what SecStore accepts (\(limits.acceptableRange)).")
        }
        var passphraseBytes = Array(passphrase.utf8)
        defer { Wipe.bytes(&passphraseBytes) }
        let salt = try SecureRandom.bytes(PasswordHashing.saltByteCount)
        let key = try PasswordHashing.deriveKey(passphrase: passphraseBytes, salt: salt, limits: limits)
        let stream = try SecretStream.Writer(key: key)
        let header = BackupFormat.Header(limits: limits, salt: salt, streamHeader: stream.header)
        let file = try makeSink()
        let scanner = RowScanner(engine: engine)

        let summary = try engine.database.read { db -> ExportSummary in
            // The manifest states how many items follow, so damaged ones to leave out are
            // found first, in the same snapshot.
            let (damaged, skipped, malformedRows) = skippingDamaged ? try damagedExportableRows(scanner, in: db) : ([], [], 0)
            let (unreadable, total, rowsMatchDigest) = try unreadableExportableRows(scanner, leavingOut: skipped, in: db)
            guard rowsMatchDigest || skippingDamaged else {
                throw SecStoreError(.corruptData, "The items of \(engine.database.path) do not match the store's digest over them: items were deleted, reverted or copied in behind SecStore's back. Nothing was exported. Run `secstore verify`; export with --skip-damaged to back up the items as they are.")
            }
            try file.write(header.bytes)
            let manifest = BackupFormat.Manifest(sourceStoreID: engine.vault.storeID, created: Date(), itemCount: UInt64(total))
            try file.writeRecord(stream.seal(manifest.bytes, associatedData: header.bytes))
            var summary = ExportSummary(exported: 0, skippedThisDeviceOnly: 0, skippedDamaged: damaged, skippedMalformedRows: malformedRows,
                                        skippedUnreadable: unreadable, itemsMismatchedDigest: !rowsMatchDigest)
            let leftOutUnreadable = Set(unreadable)
            // Malformed rows: found and left out above when skipping damage, else they stop the export.
            try scanner.forEachRow(in: db, malformed: skippingDamaged ? { _, _ in } : nil) { row in
                guard !row.accessibility.isThisDeviceOnly else {
                    summary.skippedThisDeviceOnly += 1
                    return
                }
                guard !skipped.contains(row.id) else { return }
                // The item's access control applies as to a read: a presence item needs a
                // recent passphrase proof (else the export fails), and one that can never be
                // read here is left out and reported, never exported.
                guard !leftOutUnreadable.contains(row.persistentReference) else { return }
                var (attributes, secret) = try scanner.open(row, in: db, checkingAccessControl: true)
                defer { Wipe.data(&secret) }
                try RequestRules.checkSecretSize(secret.count)
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
        try file.finish()
        return summary
    }
}

extension SecretStore {
    /// Before the first byte is written: every exportable class must be unlocked and every
    /// presence item proven (else `interactionNotAllowed` now, so a retry after unlocking
    /// starts a clean file — or a clean standard output); and the rows whose access control
    /// can never be satisfied here are found, since the manifest states how many items follow:
    /// `total` counts the rows the export writes, those neither `leavingOut` (damaged rows' ids), nor
    /// malformed, nor `…ThisDeviceOnly`, nor unreadable. Also tells whether the rows match the
    /// store's items digest.
    fileprivate func unreadableExportableRows(_ scanner: RowScanner, leavingOut damaged: Set<Int64>,
                                              in db: Database) throws -> (unreadable: [PersistentReference], total: Int, rowsMatchDigest: Bool) {
        var unreadable: [PersistentReference] = []
        var total = 0
        let provenAt = engine.vault.passphraseProvenAt
        // A malformed row is the export's to refuse, or to leave out when skipping damage.
        let rowsMatchDigest = try scanner.forEachRow(in: db, malformed: { _, _ in }) { row in
            guard !row.accessibility.isThisDeviceOnly, !damaged.contains(row.id) else { return }
            total += 1
            let keys: ItemKeys
            do {
                keys = try engine.vault.itemKeys(for: row.accessibility, in: db)
            } catch let error as SecStoreError where error.code == .interactionNotAllowed {
                throw error
            } catch {
                return   // damage: reported by the export itself, or skipped with skippingDamaged
            }
            let binding = row.binding(storeID: engine.vault.storeID)
            guard var plain = try? ItemSealing.open(row.metadata ?? Data(), .metadata, binding: binding, keys: keys) else { return }
            defer { Wipe.data(&plain) }
            guard let flags = try? MetadataCodec.decode(plain).accessControlFlags else { return }
            do {
                try AccessControlRules.checkUse(flags, passphraseProvenAt: provenAt)
            } catch let error as SecStoreError where error.code == .authenticationFailed {
                unreadable.append(row.persistentReference)
                total -= 1
            }
        }
        return (unreadable, total, rowsMatchDigest)
    }

    /// The exportable rows that fail authentication, and the malformed rows: named by
    /// reference when theirs is readable, else counted; and the ids of all of them, which the
    /// export leaves out by id (a damaged row may carry another row's reference: skipping by
    /// reference would leave out that intact item too).
    fileprivate func damagedExportableRows(_ scanner: RowScanner, in db: Database) throws
        -> (damaged: [PersistentReference], ids: Set<Int64>, malformedRows: Int) {
        var damaged: [PersistentReference] = []
        var ids: Set<Int64> = []
        var malformedRows = 0
        let malformed = { (id: Int64, reference: PersistentReference?) in
            ids.insert(id)
            if let reference { damaged.append(reference) } else { malformedRows += 1 }
        }
        try scanner.forEachRow(in: db, malformed: malformed) { row in
            guard !row.accessibility.isThisDeviceOnly else { return }
            do {
                var (_, secret) = try scanner.open(row, in: db)
                Wipe.data(&secret)
            } catch let error as SecStoreError where error.code == .corruptData {
                damaged.append(row.persistentReference)
                ids.insert(row.id)
            }
        }
        return (damaged, ids, malformedRows)
    }
}

/// Where a backup's bytes go: a file written atomically, or an open descriptor.
protocol BackupSink {
    func write(_ bytes: [UInt8]) throws
    /// Makes the backup final (a file is moved into place).
    func finish() throws
}

extension BackupSink {
    /// One backup record: its length (`UInt32`, little-endian), then the sealed bytes.
    func writeRecord(_ sealed: [UInt8]) throws {
        try write(BackupFormat.le(UInt32(sealed.count)) + sealed)
    }
}

/// A backup written to a temporary file and put in place by `placement` when it is complete.
struct FileSink: BackupSink {
    let writer: AtomicFileWriter
    let placement: AtomicFileWriter.Placement

    func write(_ bytes: [UInt8]) throws {
        try writer.write(bytes)
    }

    func finish() throws {
        guard try writer.commit(placement) else {
            throw SecStoreError(.duplicateItem, "\(writer.destination.path) already exists (it may have appeared while the backup was written); it was left as it is and no backup was written. Choose another name, or replace it.")
        }
    }
}

/// A backup written straight to an open descriptor (standard output), with write(2).
struct DescriptorSink: BackupSink {
    let descriptor: Int32

    func write(_ bytes: [UInt8]) throws {
        if let code = bytes.withUnsafeBytes({ DescriptorWriter.writeAll($0, to: descriptor) }) {
            throw SecStoreError(.ioFailure, "Cannot write the backup: \(String(cString: strerror(code))). Check where the output goes.")
        }
    }

    func finish() throws {}
}

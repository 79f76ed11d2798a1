import ArgumentParser
import Foundation
import SecStore

/// `secstore export FILE`: an encrypted backup of every item that may leave this machine.
struct ExportCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write an encrypted backup of the store (…ThisDeviceOnly items are left out), or with --plaintext an env, JSON or CSV file.",
        discussion: """
        The backup is encrypted with libsodium's crypto_secretstream under an Argon2id key from \
        a backup passphrase (asked twice, or --backup-passphrase-…). It holds every item's \
        attributes, dates and secret, except items whose accessibility ends in ThisDeviceOnly: \
        those never leave the machine. Items in locked classes need the store passphrase. With \
        both on standard input, the first line is the store passphrase and the next the backup's.

        --format env|json|csv --plaintext writes the secrets as plaintext instead (refused \
        without --plaintext; a warning at a terminal): env writes ACCOUNT=secret lines of \
        generic passwords (one service at a time: --service), json the items as `list \
        --show-secrets --json` prints them, csv one row per item. The item options choose the \
        items; …ThisDeviceOnly items are left out here too. `secstore import --format` reads \
        them back.

        Examples:
          secstore export ~/backup.ssb
          secstore export ~/backup.ssb --backup-passphrase-file ~/.backup-pass
          secstore export ~/backup.ssb --force --kdf-memory 1G
          secstore export - --backup-passphrase-file ~/.backup-pass | ssh backup-host 'cat > store.ssb'
          secstore export --format env --plaintext -s myapp myapp.env
          secstore export --format csv --plaintext - | other-password-manager import
        """)

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: ArgumentHelp("The backup file to write, or - for standard output.", valueName: "file"), completion: .file())
    var file: String
    @Flag(name: .customLong("force"), help: "Replace the file if it exists.")
    var force = false
    @Flag(name: .customLong("skip-damaged"), help: "Leave out items that fail authentication (a partial backup; exit status 7), instead of exporting nothing.")
    var skipDamaged = false
    @Option(name: .customLong("format"), help: ArgumentHelp(
        "backup (encrypted, the default), or plaintext env, json or csv (with --plaintext).", valueName: "format"))
    var format: InterchangeFormat = .backup
    @Flag(name: .customLong("plaintext"), help: "Confirm that --format env, json or csv writes the secrets unencrypted.")
    var plaintext = false
    @OptionGroup(title: "Items (plaintext formats)") var item: ItemOptions
    @OptionGroup var backupPassphrase: BackupPassphraseOptions
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var kdf: KDFOptions
    @OptionGroup var output: OutputOptions

    /// `-`: the backup goes to standard output, and every message to standard error.
    var toStandardOutput: Bool { file == "-" }

    func validate() throws {
        if toStandardOutput && output.json {
            throw ValidationError("--json cannot share standard output with the \(format.isPlaintext ? "export" : "backup") (export -).")
        }
        if format.isPlaintext {
            guard plaintext else {
                throw ValidationError("--format \(format.rawValue) writes every secret unencrypted: anyone who can read the file reads them. Add --plaintext if that is what you mean, or leave --format out for an encrypted backup.")
            }
            if backupPassphrase.source != nil || kdf.operations != nil || kdf.memory != nil {
                throw ValidationError("The backup passphrase and --kdf-… options apply to the encrypted backup, not to --format \(format.rawValue).")
            }
            if format == .env, item.resolvedClass(default: nil) == .internetPassword {
                throw ValidationError("--format env writes generic passwords (ACCOUNT=secret); internet passwords go in --format json or csv.")
            }
        } else {
            if plaintext {
                throw ValidationError("--plaintext goes with --format env, json or csv; the default format is the encrypted backup.")
            }
            if item.reference != nil || item.itemClass != nil || !item.attributes.isEmpty {
                throw ValidationError("An encrypted backup holds every item; the item options (--service, --account, …) choose the items of --format env, json or csv.")
            }
        }
    }

    func run() throws {
        let destination = URL(filePath: file)
        // Asked first, so that a taken name fails before the passphrase prompts and Argon2id;
        // `lstat`, so a dangling symbolic link counts as taken. The backup is still put in
        // place only if nothing is there by then (`replacingExisting`).
        var existing = stat()
        if !toStandardOutput && !force && lstat(destination.path, &existing) == 0 {
            throw CLIError.fileExists(destination)
        }
        if format.isPlaintext { return try exportPlaintext(to: destination) }
        let session = try StoreSession(store: storeOptions, passphrase: passphrase)
        let secret = try Prompter.passphrase(from: backupPassphrase.source, what: "backup passphrase", confirm: true,
                                             unavailable: Prompter.noTerminal(what: "backup passphrase", flagPrefix: "--backup-passphrase"))
        let bar = ProgressBar(label: "Exporting")
        defer { bar.finish() }
        // The engine writes a temporary file and renames it into place: a failed export
        // never loses an existing backup.
        let summary = try session.unlockingIfNeeded {
            toStandardOutput
                ? try session.store.exportBackup(writingTo: .standardOutput, passphrase: secret, limits: kdf.limits,
                                                 skippingDamaged: skipDamaged, progress: bar.update)
                : try Self.refusingExisting(destination) {
                    try session.store.exportBackup(to: destination, passphrase: secret, limits: kdf.limits,
                                                   skippingDamaged: skipDamaged, replacingExisting: force, progress: bar.update)
                }
        }
        bar.finish()
        let leftOut = summary.skippedDamaged.count + summary.skippedMalformedRows
        let partial: CLIError? = if leftOut > 0 {
            CLIError(.damaged, "The backup is partial: \(leftOut) damaged item\(leftOut == 1 ? " was" : "s were") left out.",
                     name: "partialBackup")
        } else if summary.itemsMismatchedDigest {
            CLIError(.damaged, "The backup may be partial: the store's items did not match its digest.", name: "partialBackup")
        } else {
            nil
        }
        let document: [String: JSONValue] = ["file": .string(destination.path), "exported": .int(summary.exported),
                                             "skippedThisDeviceOnly": .int(summary.skippedThisDeviceOnly),
                                             "skippedUnreadable": .int(summary.skippedUnreadable.count),
                                             "skippedDamaged": .int(leftOut)]
        if toStandardOutput {
            Console.note("Exported \(summary.exported) item\(summary.exported == 1 ? "" : "s") to standard output.")
        } else if output.json {
            if partial == nil { JSONOutput.print(.object(document)) }
        } else {
            Console.report("Exported \(summary.exported) item\(summary.exported == 1 ? "" : "s") to \(destination.path).")
            if summary.skippedThisDeviceOnly > 0 {
                Console.report("Left out \(summary.skippedThisDeviceOnly) …ThisDeviceOnly item\(summary.skippedThisDeviceOnly == 1 ? "" : "s"): they never leave this machine.")
            }
        }
        if !summary.skippedUnreadable.isEmpty {
            Console.note("Left out \(summary.skippedUnreadable.count) item\(summary.skippedUnreadable.count == 1 ? "" : "s") whose access control needs biometry, a companion device or an application password: never readable on Linux, never exported.")
        }
        if summary.itemsMismatchedDigest {
            Console.error("The store's items do not match its digest over them: items were deleted, reverted or copied in behind SecStore's back. The backup holds the items as they are now. Run `secstore verify`.")
        }
        for reference in summary.skippedDamaged {
            Console.error("Item \(reference.hexString) is damaged and was left out of the backup. Run `secstore verify`.")
        }
        DamageReporting.reportUnnamedRows(summary.skippedMalformedRows, "was left out of the backup", "were left out of the backup")
        if let partial {
            throw ErrorReporter.failing(partial, after: document, json: output.json && !toStandardOutput)
        }
    }

    /// The engine's answer to a name taken while the backup was written, as the tool words it.
    private static func refusingExisting<T>(_ destination: URL, _ export: () throws -> T) throws -> T {
        do {
            return try export()
        } catch let error as SecStoreError where error.code == .duplicateItem {
            throw CLIError.fileExists(destination)
        }
    }

    /// `--format env|json|csv --plaintext`: the chosen items with their secrets, unencrypted.
    private func exportPlaintext(to destination: URL) throws {
        let session = try StoreSession(store: storeOptions, passphrase: passphrase)
        // Before any secret is read: never onto the store's own files.
        if !toStandardOutput { try session.store.checkExportDestination(destination) }
        let classes = format == .env ? [ItemClass.genericPassword] : ItemSearch.classes(item, default: nil)
        var selection = try session.unlockingIfNeeded { try PlaintextSelection.read(item, classes: classes, from: session.store) }
        var items = ItemSearch.sorted(selection.items)
        // Leaves `items` the only holder of the secrets, so that wiping them wipes the one copy
        // rather than a copy made on write.
        selection.items = []
        defer {
            for index in items.indices where items[index].data != nil {
                items[index].data!.withUnsafeMutableBytes { Wipe.buffer($0) }
            }
        }
        let leftOut = selection.leftOutDamaged
        guard leftOut == 0 || skipDamaged else {
            for reference in selection.damaged {
                Console.error("Item \(reference.hexString) is damaged (it fails authentication, or its row is malformed). Run `secstore verify`.")
            }
            DamageReporting.reportUnnamedRows(selection.malformedRows, "stops the export", "stop the export")
            throw CLIError(.damaged, "\(leftOut) item\(leftOut == 1 ? " is" : "s are") damaged. Nothing was exported; pass --skip-damaged to export the others.",
                           name: SecStoreError.Code.corruptData.name)
        }
        var bytes = try PlaintextExport.encode(items, as: format)
        defer { bytes.wipe() }
        if Terminal.standardErrorIsTerminal {
            Console.warn("\(items.count) secret\(items.count == 1 ? "" : "s") written in plaintext to \(toStandardOutput ? "standard output" : destination.path): anyone who can read \(toStandardOutput ? "it" : "the file") reads them. Remove it when you are done (the encrypted backup is `secstore export FILE`).")
        }
        if toStandardOutput {
            Console.writeBytes(bytes.bytes)
        } else {
            try bytes.bytes.withUnsafeBytes { try PlaintextFile.write($0, to: destination, replacing: force) }
        }
        let count = items.count
        let tooLargeToImport = PlaintextExport.importLimitWarning(byteCount: bytes.bytes.count)
        if let tooLargeToImport { Console.warn(tooLargeToImport) }
        let document: [String: JSONValue] = ["file": .string(destination.path), "format": .string(format.rawValue), "plaintext": true,
                                             "exported": .int(count), "skippedThisDeviceOnly": .int(selection.skippedThisDeviceOnly),
                                             "skippedUnreadable": .int(selection.unreadable.count), "skippedDamaged": .int(leftOut),
                                             "exceedsImportLimit": .bool(tooLargeToImport != nil)]
        if output.json {
            if leftOut == 0 { JSONOutput.print(.object(document)) }
        } else {
            let target = toStandardOutput ? "standard output" : destination.path
            if toStandardOutput {
                Console.note("Exported \(count) item\(count == 1 ? "" : "s") in plaintext (\(format.rawValue)) to \(target).")
            } else {
                Console.report("Exported \(count) item\(count == 1 ? "" : "s") in plaintext (\(format.rawValue)) to \(target).")
            }
            if selection.skippedThisDeviceOnly > 0 {
                Console.note("Left out \(selection.skippedThisDeviceOnly) …ThisDeviceOnly item\(selection.skippedThisDeviceOnly == 1 ? "" : "s"): they never leave this machine.")
            }
        }
        if !selection.unreadable.isEmpty {
            Console.note("Left out \(selection.unreadable.count) item\(selection.unreadable.count == 1 ? "" : "s") whose access control needs biometry, a companion device or an application password: never readable on Linux.")
        }
        // Only JSON carries an item's access control (`accessControl`); env and CSV have no column for it.
        let constrained = format == .json ? 0 : items.filter { !($0.attributes.accessControlFlags ?? []).isEmpty }.count
        if constrained > 0 {
            Console.note("\(constrained) item\(constrained == 1 ? " has" : "s have") access control, which the \(format.rawValue) format cannot hold: imported from this file, \(constrained == 1 ? "it comes" : "they come") back without it. --format json keeps it.")
        }
        if leftOut > 0 {
            for reference in selection.damaged {
                Console.error("Item \(reference.hexString) is damaged and was left out. Run `secstore verify`.")
            }
            DamageReporting.reportUnnamedRows(selection.malformedRows, "was left out", "were left out")
            throw ErrorReporter.failing(CLIError(.damaged, "The export is partial: \(leftOut) damaged item\(leftOut == 1 ? " was" : "s were") left out.",
                                                 name: "partialBackup"), after: document, json: output.json)
        }
    }

}

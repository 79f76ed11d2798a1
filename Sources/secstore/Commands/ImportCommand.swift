import ArgumentParser
import Foundation
import SecStore

/// `secstore import FILE`: restores a backup made by `secstore export`.
struct ImportCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Restore the items of a backup made by `secstore export`, or import an env, JSON or CSV file.",
        discussion: """
        Items come back with their attributes, dates, access groups and secrets, in one \
        transaction: a damaged, truncated or foreign file imports nothing (status 7), and a \
        wrong backup passphrase is status 6. When a backup item has the same class, names and \
        group as a stored one, --on-conflict decides: skip (keep the stored item, the default), \
        replace, or fail (import nothing, status 4). Reports how many items were added, \
        skipped and replaced.

        --format env|json|csv reads plaintext (FILE or - for standard input), in one \
        transaction too: env takes NAME=value lines as generic passwords of --service, NAME \
        the account; json takes the items as `list --show-secrets --json` prints them; csv a \
        header row naming the columns (class, service, account, group, label, …, secret). \
        Items that name no group go to --group, else the default group of `add`. --dry-run \
        reports what would happen and changes nothing.

        Examples:
          secstore import ~/backup.ssb
          secstore import ~/backup.ssb --on-conflict replace
          secstore --store new.secstore import backup.ssb --backup-passphrase-file bp
          secstore import --format env -s myapp .env && shred -u .env
          secstore import --format csv passwords.csv --on-conflict replace --dry-run
        """)

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: ArgumentHelp("The backup file to read (with --format env, json or csv: - reads standard input).", valueName: "file"), completion: .file())
    var file: String
    @Option(name: .customLong("on-conflict"), help: ArgumentHelp(
        "What to do with an item already in the store: skip, replace or fail.", valueName: "policy"))
    var conflictPolicy: ImportConflictPolicy = .skip
    @Option(name: .customLong("format"), help: ArgumentHelp(
        "backup (encrypted, the default), or plaintext env, json or csv.", valueName: "format"))
    var format: InterchangeFormat = .backup
    @Option(name: [.customShort("s"), .customLong("service")], help: ArgumentHelp(
        "--format env: the service of every item (each NAME is an account).", valueName: "service"))
    var service: String?
    @Option(name: [.customShort("g"), .customLong("group")], help: ArgumentHelp(
        "Plaintext formats: the access group of items that name none (default: as `add`).", valueName: "group"))
    var group: String?
    @Option(name: .customLong("accessibility"), help: ArgumentHelp(
        "Plaintext formats: the accessibility of items that name none (default whenUnlocked).", valueName: "class"))
    var accessibility: Accessibility?
    @Flag(name: .customLong("dry-run"), help: "Plaintext formats: report what would be added, skipped and replaced; change nothing.")
    var dryRun = false
    @OptionGroup var backupPassphrase: BackupPassphraseOptions
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if format.isPlaintext {
            if backupPassphrase.source != nil {
                throw ValidationError("The backup passphrase applies to the encrypted backup, not to --format \(format.rawValue).")
            }
            if service != nil && format != .env {
                throw ValidationError("--service names the service of --format env lines; json and csv items name their own.")
            }
            if file == "-" && passphrase.stdin {
                throw ValidationError("Standard input cannot hold both the items (-) and the store passphrase. Use --passphrase-file or --passphrase-env.")
            }
        } else if service != nil || group != nil || accessibility != nil || dryRun {
            throw ValidationError("--service, --group, --accessibility and --dry-run apply to --format env, json and csv; a backup restores its items as they were.")
        }
    }

    func run() throws {
        if format.isPlaintext { return try importPlaintext() }
        let source = URL(filePath: file)
        guard FileManager.default.isReadableFile(atPath: source.path) else {
            throw CLIError(.failure, "Cannot read the backup \(source.path). Check the path and its permissions.", name: SecStoreError.Code.ioFailure.name)
        }
        let session = try StoreSession(store: storeOptions, passphrase: passphrase)
        let secret = try Prompter.passphrase(from: backupPassphrase.source, what: "backup passphrase", confirm: false,
                                             unavailable: Prompter.noTerminal(what: "backup passphrase", flagPrefix: "--backup-passphrase"))
        let bar = ProgressBar(label: "Importing")
        defer { bar.finish() }
        let summary: ImportSummary
        do {
            summary = try session.unlockingIfNeeded {
                try session.store.importBackup(from: source, passphrase: secret, conflictPolicy: conflictPolicy, progress: bar.update)
            }
        } catch let error as SecStoreError where error.code == .authenticationFailed {
            // The library's message says which: the backup passphrase, or an item this store
            // cannot take (access control needs a store passphrase).
            throw CLIError(.authenticationFailed, error.message + " Nothing was imported.", name: error.code.name)
        }
        bar.finish()
        if output.json {
            JSONOutput.print(["file": .string(source.path), "added": .int(summary.added), "skipped": .int(summary.skipped),
                              "replaced": .int(summary.replaced), "keptThisDeviceOnly": .int(summary.keptThisDeviceOnly),
                              "skippedReserved": .int(summary.skippedReserved)])
        } else {
            Console.report("Imported \(source.path): \(summary.added) added, \(summary.skipped) skipped, \(summary.replaced) replaced.")
            Self.noteKept(summary.keptThisDeviceOnly)
        }
        if summary.skippedReserved > 0 {
            let count = summary.skippedReserved
            Console.warn("Left out \(count) \(count == 1 ? "item" : "items") of the access group \(ImportRules.syncGroup), which is reserved for sync's own keys and settings: no import writes there. Sync makes its own entries (`secstore sync init` or `join`).")
        }
    }

    /// Says that stored `…ThisDeviceOnly` items were kept under `--on-conflict replace`.
    private static func noteKept(_ count: Int) {
        guard count > 0 else { return }
        Console.note("Kept \(count) stored …ThisDeviceOnly \(count == 1 ? "item" : "items") with the names of imported ones (counted as skipped): an import never replaces one, since no backup or export holds its secret. Replace it deliberately with `secstore update`, or delete it first.")
    }

    /// `--format env|json|csv`: every item in one transaction (or none).
    private func importPlaintext() throws {
        let source = file == "-" ? "standard input" : URL(filePath: file).path
        var data = file == "-"
            ? try InputFile.readAll(STDIN_FILENO, name: "standard input", what: "import", limit: PlaintextImport.largestFile)
            : try InputFile.read(file, what: "import", limit: PlaintextImport.largestFile)
        defer { data.resetBytes(in: 0..<data.count) }
        var entries = try PlaintextImport.decode(data, as: format, source: source, service: service)
        let defaultGroup = try DefaultGroup.forNewItem(explicit: group)
        for index in entries.indices {
            if entries[index].item.attributes.accessGroup == nil { entries[index].item.attributes.accessGroup = defaultGroup }
            if let accessibility, entries[index].item.attributes.accessibility == nil {
                entries[index].item.attributes.accessibility = accessibility
            }
        }
        let session = try StoreSession(store: storeOptions, passphrase: passphrase)
        var summary = ImportCounts()
        do {
            try session.unlockingIfNeeded {
                summary = ImportCounts()
                try session.store.write { transaction in
                    for entry in entries {
                        try Self.importOne(entry, policy: conflictPolicy, in: transaction, summary: &summary)
                    }
                    // A dry run ends here: the transaction rolls back.
                    if dryRun { throw DryRunRollback() }
                }
            }
        } catch is DryRunRollback {}
        if output.json {
            var report: [String: JSONValue] = ["file": .string(source), "format": .string(format.rawValue),
                                               "added": .int(summary.added), "skipped": .int(summary.skipped),
                                               "replaced": .int(summary.replaced),
                                               "keptThisDeviceOnly": .int(summary.keptThisDeviceOnly)]
            if dryRun { report["dryRun"] = true }
            JSONOutput.print(.object(report))
        } else {
            let counts = "\(summary.added) added, \(summary.skipped) skipped, \(summary.replaced) replaced"
            Console.report(dryRun ? "Would import \(source): \(counts) (dry run: nothing was changed)." : "Imported \(source): \(counts).")
            Self.noteKept(summary.keptThisDeviceOnly)
            if !dryRun && file != "-" && Terminal.standardErrorIsTerminal {
                Console.note("\(source) still holds the secrets in plaintext: remove it (shred -u) once you no longer need it.")
            }
        }
    }

    private struct DryRunRollback: Error {}

    /// What a plaintext import did, as ``ImportSummary`` says of a backup's.
    private struct ImportCounts {
        var added = 0, skipped = 0, replaced = 0, keptThisDeviceOnly = 0
    }

    private static func importOne(_ entry: PlaintextImport.Entry, policy: ImportConflictPolicy, in transaction: StoreTransaction,
                                  summary: inout ImportCounts) throws {
        do {
            try ImportRules.checkImportable(entry.item.attributes, itemClass: entry.item.itemClass, origin: "This")
            if let existing = try ItemWriter.collidingItem(with: entry.item, in: transaction),
               let reference = existing.persistentReference {
                switch policy {
                case .skip:
                    summary.skipped += 1
                case .replace where ImportRules.keepsStored(existing.attributes.accessibility):
                    summary.skipped += 1
                    summary.keptThisDeviceOnly += 1
                case .replace:
                    try ItemWriter.replace(reference, with: entry.item, in: transaction)
                    summary.replaced += 1
                case .fail:
                    throw CLIError(.duplicate, "\(entry.origin): the store already has this \(entry.item.itemClass.rawValue) item (\(AddCommand.describe(entry.item)), group \(Table.sanitize(entry.item.attributes.accessGroup ?? ""))). Nothing was imported; --on-conflict skip or replace decides.",
                                   name: SecStoreError.Code.duplicateItem.name)
                }
            } else {
                try transaction.add(entry.item)
                summary.added += 1
            }
        } catch let error as SecStoreError where error.code != .interactionNotAllowed {
            throw CLIError(ExitStatus(error.code), "\(entry.origin): \(error.message) Nothing was imported.", name: error.code.name)
        }
    }
}

import ArgumentParser
import Foundation
import SecStore

/// `secstore import FILE`: restores a backup made by `secstore export`.
struct ImportCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Restore the items of a backup made by `secstore export`.",
        discussion: """
        Items come back with their attributes, dates, access groups and secrets, in one \
        transaction: a damaged, truncated or foreign file imports nothing (status 7), and a \
        wrong backup passphrase is status 6. When a backup item has the same class, names and \
        group as a stored one, --on-conflict decides: skip (keep the stored item, the default), \
        replace, or fail (import nothing, status 4). Reports how many items were added, \
        skipped and replaced.

        Examples:
          secstore import ~/backup.ssb
          secstore import ~/backup.ssb --on-conflict replace
          secstore --store new.secstore import backup.ssb --backup-passphrase-file bp
        """)

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: ArgumentHelp("The backup file to read.", valueName: "file"), completion: .file())
    var file: String
    @Option(name: .customLong("on-conflict"), help: ArgumentHelp(
        "What to do with an item already in the store: skip, replace or fail.", valueName: "policy"))
    var conflictPolicy: ImportConflictPolicy = .skip
    @OptionGroup var backupPassphrase: BackupPassphraseOptions
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
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
                              "replaced": .int(summary.replaced)])
        } else {
            Console.line("Imported \(source.path): \(summary.added) added, \(summary.skipped) skipped, \(summary.replaced) replaced.")
        }
    }
}

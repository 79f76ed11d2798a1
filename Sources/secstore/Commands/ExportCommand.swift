import ArgumentParser
import Foundation
import SecStore

/// `secstore export FILE`: an encrypted backup of every item that may leave this machine.
struct ExportCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write an encrypted backup of the store (…ThisDeviceOnly items are left out).",
        discussion: """
        The backup is encrypted with libsodium's crypto_secretstream under an Argon2id key from \
        a backup passphrase (asked twice, or --backup-passphrase-…). It holds every item's \
        attributes, dates and secret, except items whose accessibility ends in ThisDeviceOnly: \
        those never leave the machine. Items in locked classes need the store passphrase. With \
        both on standard input, the first line is the store passphrase and the next the backup's.

        Examples:
          secstore export ~/backup.ssb
          secstore export ~/backup.ssb --backup-passphrase-file ~/.backup-pass
          secstore export ~/backup.ssb --force --kdf-memory 1G
          secstore export - --backup-passphrase-file ~/.backup-pass | ssh backup-host 'cat > store.ssb'
        """)

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: ArgumentHelp("The backup file to write, or - for standard output.", valueName: "file"), completion: .file())
    var file: String
    @Flag(name: .customLong("force"), help: "Replace the file if it exists.")
    var force = false
    @Flag(name: .customLong("skip-damaged"), help: "Leave out items that fail authentication (a partial backup; exit status 7), instead of exporting nothing.")
    var skipDamaged = false
    @OptionGroup var backupPassphrase: BackupPassphraseOptions
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var kdf: KDFOptions
    @OptionGroup var output: OutputOptions

    /// `-`: the backup goes to standard output, and every message to standard error.
    var toStandardOutput: Bool { file == "-" }

    func validate() throws {
        if toStandardOutput && output.json {
            throw ValidationError("--json cannot share standard output with the backup (export -).")
        }
    }

    func run() throws {
        let destination = URL(filePath: file)
        if !toStandardOutput && FileManager.default.fileExists(atPath: destination.path) && !force {
            throw CLIError(.duplicate, "\(destination.path) already exists. Pass --force to replace it, or choose another name.",
                           name: "fileExists")
        }
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
                : try session.store.exportBackup(to: destination, passphrase: secret, limits: kdf.limits,
                                                 skippingDamaged: skipDamaged, progress: bar.update)
        }
        bar.finish()
        if toStandardOutput {
            Console.note("Exported \(summary.exported) item\(summary.exported == 1 ? "" : "s") to standard output.")
        } else if output.json {
            JSONOutput.print(["file": .string(destination.path), "exported": .int(summary.exported),
                              "skippedThisDeviceOnly": .int(summary.skippedThisDeviceOnly),
                              "skippedUnreadable": .int(summary.skippedUnreadable.count)])
        } else {
            Console.line("Exported \(summary.exported) item\(summary.exported == 1 ? "" : "s") to \(destination.path).")
            if summary.skippedThisDeviceOnly > 0 {
                Console.line("Left out \(summary.skippedThisDeviceOnly) …ThisDeviceOnly item\(summary.skippedThisDeviceOnly == 1 ? "" : "s"): they never leave this machine.")
            }
        }
        if !summary.skippedUnreadable.isEmpty {
            Console.note("Left out \(summary.skippedUnreadable.count) item\(summary.skippedUnreadable.count == 1 ? "" : "s") whose access control needs biometry, a companion device or an application password: never readable on Linux, never exported.")
        }
        if summary.itemsMismatchedDigest {
            Console.error("The store's items do not match its digest over them: items were deleted, reverted or copied in behind SecStore's back. The backup holds the items as they are now. Run `secstore verify`.")
        }
        guard summary.skippedDamaged.isEmpty else {
            for reference in summary.skippedDamaged {
                Console.error("Item \(reference.hexString) is damaged and was left out of the backup. Run `secstore verify`.")
            }
            throw CLIError(.damaged, "The backup is partial: \(summary.skippedDamaged.count) damaged item\(summary.skippedDamaged.count == 1 ? " was" : "s were") left out.",
                           name: "partialBackup")
        }
        if summary.itemsMismatchedDigest {
            throw CLIError(.damaged, "The backup may be partial: the store's items did not match its digest.", name: "partialBackup")
        }
    }
}

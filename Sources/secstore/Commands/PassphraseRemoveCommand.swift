import ArgumentParser
import SecStore

/// `secstore passphrase remove`.
struct PassphraseRemoveCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove the store's passphrase (deletes whenPasscodeSetThisDeviceOnly items).",
        discussion: """
        As on Apple systems, items with accessibility whenPasscodeSetThisDeviceOnly are deleted \
        with the passphrase; the command says how many. At a terminal it asks before deleting \
        any (--yes does not ask); --dry-run says how many would go and changes nothing.

        Examples:
          secstore passphrase remove
          secstore passphrase remove --dry-run
          secstore passphrase remove --passphrase-file ~/.config/secstore/pass --yes --json
        """)

    @OptionGroup var storeOptions: StoreOptions
    @Flag(name: [.customShort("y"), .customLong("yes")], help: "Do not ask before deleting whenPasscodeSetThisDeviceOnly items at a terminal.")
    var yes = false
    @Flag(name: .customLong("dry-run"), help: "Say how many items would be deleted; change nothing (no passphrase needed).")
    var dryRun = false
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let doomed = try Self.passcodeItemCount(storeOptions)
        if dryRun {
            let store = try storeOptions.open()
            guard try store.lockState != .noPassphrase else {
                throw CLIError.usage("The store has no passphrase to remove. Set one with `secstore passphrase set`.")
            }
            if output.json {
                JSONOutput.print(["dryRun": true, "deletedItems": 0, "wouldDeleteItems": .int(doomed)])
            } else {
                Console.report("Would remove the passphrase and delete \(doomed) whenPasscodeSetThisDeviceOnly item\(doomed == 1 ? "" : "s") (dry run: nothing was changed).")
            }
            return
        }
        if doomed > 0 && !yes && Terminal.canPrompt {
            guard try Prompter.confirm("Removing the passphrase deletes \(doomed) whenPasscodeSetThisDeviceOnly item\(doomed == 1 ? "" : "s"). Go on?") else {
                throw CLIError(.failure, "Nothing was changed.", name: "declined")
            }
        }
        let (store, current) = try openWithCurrentPassphrase(storeOptions, passphrase, action: "remove")
        let deleted = try withPassphraseCheck { try store.removePassphrase(current) }
        if output.json {
            JSONOutput.print(["lockState": .string(LockState.noPassphrase.rawValue), "deletedItems": .int(deleted)])
        } else {
            Console.report("Passphrase removed; \(deleted) whenPasscodeSetThisDeviceOnly item\(deleted == 1 ? "" : "s") deleted.")
        }
    }

    /// How many items removing the passphrase deletes (their class is readable in the file).
    static func passcodeItemCount(_ storeOptions: StoreOptions) throws -> Int {
        try storeOptions.open().statistics().countsByAccessibility[.whenPasscodeSetThisDeviceOnly] ?? 0
    }
}

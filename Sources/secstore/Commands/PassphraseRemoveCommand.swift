import ArgumentParser
import SecStore

/// `secstore passphrase remove`.
struct PassphraseRemoveCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove the store's passphrase (deletes whenPasscodeSetThisDeviceOnly items).",
        discussion: """
        As on Apple systems, items with accessibility whenPasscodeSetThisDeviceOnly are deleted \
        with the passphrase; the command says how many.

        Examples:
          secstore passphrase remove
          secstore passphrase remove --passphrase-file ~/.config/secstore/pass --json
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let (store, current) = try openWithCurrentPassphrase(storeOptions, passphrase, action: "remove")
        let deleted = try withPassphraseCheck { try store.removePassphrase(current) }
        if output.json {
            JSONOutput.print(["lockState": .string(LockState.noPassphrase.rawValue), "deletedItems": .int(deleted)])
        } else {
            Console.line("Passphrase removed; \(deleted) whenPasscodeSetThisDeviceOnly item\(deleted == 1 ? "" : "s") deleted.")
        }
    }
}

import ArgumentParser
import SecStore

/// `secstore passphrase set | change | remove`.
struct PassphraseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passphrase",
        abstract: "Set, change or remove the store's passphrase.",
        discussion: """
        The passphrase protects the whenUnlocked, afterFirstUnlock and whenPasscodeSetThisDeviceOnly \
        classes (and their …ThisDeviceOnly variants), like a device passcode; always items need only the device key.

        Examples:
          secstore passphrase set
          secstore passphrase change --passphrase-file old --new-passphrase-file new
          secstore passphrase remove
        """,
        subcommands: [PassphraseSetCommand.self, PassphraseChangeCommand.self, PassphraseRemoveCommand.self])
}

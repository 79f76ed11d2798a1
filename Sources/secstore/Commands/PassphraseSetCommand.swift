import ArgumentParser
import SecStore

/// `secstore passphrase set`.
struct PassphraseSetCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Protect a store that has no passphrase.",
        discussion: """
        The passphrase is asked twice at the terminal, or read with --passphrase-stdin, \
        --passphrase-file or --passphrase-env. No item is re-encrypted: the class keys are \
        re-wrapped in one transaction.

        Examples:
          secstore passphrase set
          secstore passphrase set --kdf-ops 4 --kdf-memory 512M
          printf '%s\\n' "$PASS" | secstore passphrase set --passphrase-stdin
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var kdf: KDFOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let store = try storeOptions.open()
        guard try store.lockState == .noPassphrase else {
            throw CLIError.usage("The store already has a passphrase. Change it with `secstore passphrase change`.")
        }
        let new = try Prompter.passphrase(from: passphrase.source, what: "new store passphrase", confirm: true,
                                          unavailable: Prompter.noTerminal(what: "passphrase", flagPrefix: "--passphrase"))
        try store.setPassphrase(new, limits: kdf.limits)
        reportPassphraseChange(output, "Passphrase set. whenUnlocked items now need it; run `secstore unlock` after each boot for afterFirstUnlock items.")
    }
}

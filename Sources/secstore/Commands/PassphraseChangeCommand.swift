import ArgumentParser
import SecStore

/// `secstore passphrase change`.
struct PassphraseChangeCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "change",
        abstract: "Replace the store's passphrase.",
        discussion: """
        The current passphrase comes from --passphrase-… or the prompt, the new one from \
        --new-passphrase-… or the prompt (asked twice). With both on standard input, the \
        first line is the current passphrase and the second the new one.

        Examples:
          secstore passphrase change
          printf '%s\\n%s\\n' "$OLD" "$NEW" |
            secstore passphrase change --passphrase-stdin --new-passphrase-stdin
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var newPassphrase: NewPassphraseOptions
    @OptionGroup var kdf: KDFOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let (store, old) = try openWithCurrentPassphrase(storeOptions, passphrase, action: "change")
        let new = try Prompter.passphrase(from: newPassphrase.source, what: "new store passphrase", confirm: true,
                                          unavailable: Prompter.noTerminal(what: "new passphrase", flagPrefix: "--new-passphrase"))
        try withPassphraseCheck { try store.changePassphrase(from: old, to: new, limits: kdf.limits) }
        reportPassphraseChange(output, "Passphrase changed.")
    }
}

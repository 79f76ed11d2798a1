import ArgumentParser
import DeviceIdentity
import SecStore

/// `secstore identity reset`.
struct IdentityResetCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Replace the device identifier with a new random one.",
        discussion: """
        Every program that reads the identifier from this group sees the new value. Prints it.

        Examples:
          secstore identity reset
          secstore identity reset --group ABCDE12345.com.example.shared --json
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var identityOptions: IdentityOptions
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try identityOptions.run(storeOptions, passphrase, output) { try $0.reset() }
    }
}

import ArgumentParser
import DeviceIdentity
import SecStore

/// `secstore identity show`.
struct IdentityShowCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print the device identifier, creating it on first use.",
        discussion: """
        Prints the UUID alone on standard output. The first call creates it, as an app's first \
        launch would; --json adds where it came from (store, mirror, derived or generated).

        Examples:
          secstore identity show
          secstore identity show --json
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var identityOptions: IdentityOptions
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try identityOptions.run(storeOptions, passphrase, output) { try $0.identifier() }
    }
}

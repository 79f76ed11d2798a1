import ArgumentParser
import SecStore

/// `unlock --passphrase P [--for SECONDS]`: unlocks, which publishes the AfterFirstUnlock keys
/// for other processes (with `--for`, every class for that long: a shared unlock), prints
/// `unlocked <backend>` and exits.
struct UnlockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock",
        abstract: "Unlock the store (publishing its AfterFirstUnlock keys) and exit.")

    @OptionGroup var storeOptions: StoreOptions

    // `.unconditional`: a passphrase is test data and may start with "-".
    @Option(parsing: .unconditional, help: "The store's passphrase.")
    var passphrase: String

    @Option(name: .customLong("for"), help: "Share the unlock with other processes for this many seconds.")
    var seconds: Double?

    func run() throws {
        let store = try storeOptions.openStore()
        if let seconds {
            try store.unlock(passphrase: passphrase, sharedFor: seconds)
        } else {
            try store.unlock(passphrase: passphrase)
        }
        print("unlocked \(store.firstUnlockBackend)")
    }
}

import ArgumentParser
import SecStore

/// `unlock --passphrase P`: unlocks, which publishes the AfterFirstUnlock keys for other
/// processes, prints `unlocked <backend>` and exits.
struct UnlockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock",
        abstract: "Unlock the store (publishing its AfterFirstUnlock keys) and exit.")

    @OptionGroup var storeOptions: StoreOptions

    // `.unconditional`: a passphrase is test data and may start with "-".
    @Option(parsing: .unconditional, help: "The store's passphrase.")
    var passphrase: String

    func run() throws {
        let store = try storeOptions.openStore()
        try store.unlock(passphrase: passphrase)
        print("unlocked \(store.firstUnlockBackend)")
    }
}

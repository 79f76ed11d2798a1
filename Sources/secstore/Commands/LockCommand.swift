import ArgumentParser
import SecStore

/// `secstore lock`: takes back what `secstore unlock` published, a shared unlock included.
struct LockCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Lock the store: end a shared unlock (`unlock --for`); afterFirstUnlock items become unreadable again until the next unlock.",
        discussion: """
        Removes every entry of the store from the kernel user keyring — its afterFirstUnlock \
        class keys, every key a `secstore unlock --for` shared, the time of its passphrase \
        proof and its location record — as a reboot would. (`secstore keyring prune` does the \
        same for stores that no longer exist.) Programs that \
        already hold the store open keep what they unlocked with the passphrase until they \
        lock or exit. Without a shared unlock, whenUnlocked items are not shared between \
        processes, so every \
        command that reads them needs the passphrase anyway. Does nothing on a store without \
        a passphrase.

        Examples:
          secstore lock
          secstore --store ~/work.secstore lock --json
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let store = try storeOptions.open()
        let state = try store.lockState
        // Also without a passphrase: a shared unlock from before the passphrase was removed
        // must not linger in the keyring.
        store.lock(forgettingFirstUnlock: true)
        if output.json {
            JSONOutput.print(["lockState": .string(try store.lockState.rawValue), "passphrase": .bool(state != .noPassphrase)])
        } else if state == .noPassphrase {
            Console.report("The store has no passphrase, so there is nothing to lock. Set one with `secstore passphrase set`.")
        } else {
            Console.report("Locked. Any shared unlock is over; afterFirstUnlock items are unreadable until the next `secstore unlock`.")
        }
    }
}

import ArgumentParser
import SecStore

/// `secstore unlock`: unlocks the store and publishes its afterFirstUnlock keys so the
/// user's background processes can read those items until reboot or `secstore lock`.
struct UnlockCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "unlock",
        abstract: "Unlock the store for your processes: afterFirstUnlock items become readable until reboot or `secstore lock`.",
        discussion: """
        Checks the passphrase and puts the afterFirstUnlock class keys (sealed under a key \
        from the store) in the kernel user keyring, like the first unlock after boot on an \
        iPhone. whenUnlocked items stay locked for other processes: each command that reads \
        them takes the passphrase itself.

        Examples:
          secstore unlock                                   # asks for the passphrase
          secstore unlock --passphrase-file ~/.config/secstore/pass
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let session = try StoreSession(store: storeOptions, passphrase: passphrase)
        let store = session.store
        guard try store.lockState != .noPassphrase else {
            if output.json {
                JSONOutput.print(["lockState": .string(LockState.noPassphrase.rawValue), "sharedWith": "none"])
            } else {
                Console.line("The store has no passphrase, so there is nothing to unlock.")
            }
            return
        }
        try session.unlockIfLocked()
        let shared = store.firstUnlockBackend == .kernelKeyring
        if !shared {
            Console.warn("The kernel keyring is unavailable here, so other processes cannot read afterFirstUnlock items. They need the passphrase themselves.")
        }
        if output.json {
            JSONOutput.print(["lockState": .string(try store.lockState.rawValue), "sharedWith": shared ? "kernelKeyring" : "none"])
        } else {
            Console.line(shared
                ? "Unlocked. afterFirstUnlock items are readable by your processes until reboot or `secstore lock`."
                : "Unlocked for this command only.")
        }
    }
}

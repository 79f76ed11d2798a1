import ArgumentParser
import Foundation
import SecStore

/// `secstore lock`: takes back what `secstore unlock` published, a shared unlock included.
struct LockCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Lock the store: end a shared unlock (`unlock --for`); afterFirstUnlock items become unreadable again until the next unlock.",
        discussion: """
        Removes every entry of the store from the kernel user keyring — its afterFirstUnlock \
        class keys, every key a `secstore unlock --for` shared, the time of its passphrase \
        proof and its location record — as a reboot would, all at once: a `secstore unlock` \
        still sharing its keys in another process is ended too, and fails. (`secstore keyring \
        prune` does the same for stores that no longer exist.) Programs that \
        already hold the store open keep what they unlocked with the passphrase until they \
        lock or exit. Without a shared unlock, whenUnlocked items are not shared between \
        processes, so every \
        command that reads them needs the passphrase anyway. On a store without a passphrase \
        there is nothing to lock, but entries left from before the passphrase was removed are \
        still removed. Where the kernel keyring is off or unavailable, says what it could not reach.

        Examples:
          secstore lock
          secstore --store ~/work.secstore lock --json
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let store: SecretStore
        do {
            store = try storeOptions.open()
        } catch {
            // A store that no longer opens (damaged, its key gone) may still have a shared
            // unlock in force: end it by the location record its unlock left, then say why
            // the store did not open.
            let ended = Self.endSharedUnlock(at: storeOptions.storeURL)
            if ended > 0 { Console.warn("The store did not open, but its shared unlock is over: \(ended) kernel keyring entr\(ended == 1 ? "y" : "ies") removed.") }
            throw error
        }
        let state = try store.lockState
        // Also without a passphrase: a shared unlock from before the passphrase was removed
        // must not linger in the keyring.
        store.lock(forgettingFirstUnlock: true)
        let unreached = try Self.unreachedKeyring(of: store)
        if output.json {
            var report: [String: JSONValue] = ["lockState": .string(try store.lockState.rawValue), "passphrase": .bool(state != .noPassphrase)]
            if let unreached { report["keyringNotReachedBecause"] = .string(unreached) }
            JSONOutput.print(.object(report))
        } else if state == .noPassphrase {
            Console.report("The store has no passphrase, so there is nothing to lock. Set one with `secstore passphrase set`.")
        } else if let unreached {
            Console.report("Locked for the processes that share this environment's keyring; \(unreached), so a shared unlock made where the keyring is on (the host, another container) was not touched: run `secstore lock` there.")
        } else {
            Console.report("Locked. Any shared unlock is over; afterFirstUnlock items are unreadable until the next `secstore unlock`.")
        }
    }

    /// Why this process could not reach the kernel keyring a shared unlock lives in, or `nil`
    /// when it could. Throws when it could and an entry of the store is still there after the
    /// lock: saying "locked" then would be false.
    static func unreachedKeyring(of store: SecretStore) throws -> String? {
        guard store.firstUnlockBackend == .kernelKeyring else {
            if let refusal = store.keyringRefusal { return "the kernel keyring is unavailable here (\(refusal))" }
            return "the kernel keyring is turned off (SECSTORE_KEYRING=off)"
        }
        let left = try FirstUnlockCache.keyringEntries().filter { $0.storeID == store.storeID }.count
        guard left == 0 else {
            // Either the lock could not remove them, or an unlock in another process shared its
            // keys after the lock had (its keyring is a new one): both leave a shared unlock in force.
            throw CLIError(.failure, "The store is locked for this command, but \(left) of its kernel keyring entr\(left == 1 ? "y is" : "ies are") there after the lock: they could not be removed, or a `secstore unlock` in another process shared its keys since. A shared unlock may be in force. `secstore keyring list` shows them; run `secstore lock` again, or remove them with `keyctl invalidate`.", name: "keyringRefused")
        }
        return nil
    }

    /// Removes the kernel keyring entries of the store whose location record names `url`;
    /// how many. Nothing when the keyring is turned off here or cannot be read.
    static func endSharedUnlock(at url: URL) -> Int {
        guard !FirstUnlockCache.isTurnedOffByEnvironment, let entries = try? FirstUnlockCache.keyringEntries() else { return 0 }
        let path = url.standardizedFileURL.path
        let stores = Set(entries.filter { $0.storeURL?.standardizedFileURL.path == path }.map(\.storeID))
        guard !stores.isEmpty else { return 0 }
        return (try? FirstUnlockCache.removeKeyringEntries(ofStores: stores)) ?? 0
    }
}

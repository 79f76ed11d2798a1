import ArgumentParser
import Foundation
import SecStore

/// `secstore unlock`: unlocks the store for the user's processes: the afterFirstUnlock
/// classes until reboot or `secstore lock`, and with `--for` every class for that long.
struct UnlockCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "unlock",
        abstract: "Unlock the store for your processes: afterFirstUnlock items until reboot or `secstore lock`; with --for, every item for that long.",
        discussion: """
        Checks the passphrase and puts the afterFirstUnlock class keys (sealed under a key \
        from the store) in the kernel user keyring, like the first unlock after boot on an \
        iPhone.

        Where the kernel refuses keyrings (some containers) or SECSTORE_KEYRING=off, a warning \
        says the unlock is not shared. When the keyring refuses the keys for another reason \
        (EDQUOT: your key quota is full), the unlock is not shared and the command fails \
        (status 1): \
        `secstore keyring prune` frees the entries of stores that are gone. A `secstore lock` \
        that runs while the keys are being shared ends this unlock too (status 1): nothing of \
        it stays shared.

        With --for DURATION (90s, 30m, 8h, 2d; at most 30 days) every passphrase-protected \
        class is shared the same way, with a kernel timeout: until it runs out, \
        `secstore lock`, or reboot, your processes read whenUnlocked items without the \
        passphrase, as an unlocked iPhone's apps do, and items that ask for user presence \
        (SecAccessControl .userPresence) are readable for 5 minutes after this unlock. \
        Any process running as you can read them meanwhile: see docs/accessibility.md.

        Examples:
          secstore unlock                                   # asks for the passphrase
          secstore unlock --for 8h                          # a working day
          secstore unlock --for 30m --passphrase-file ~/.config/secstore/pass
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var passphrase: PassphraseOptions
    @Option(name: .customLong("for"), help: ArgumentHelp("Share every passphrase-protected class with your processes for this long (90s, 30m, 8h, 2d).", valueName: "duration"))
    var duration: DurationArgument?
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if let duration, duration.seconds > SecretStore.longestSharedUnlock {
            throw ValidationError("--for is at most 30 days (30d).")
        }
    }

    func run() throws {
        let session = try StoreSession(store: storeOptions, passphrase: passphrase, sharingUnlockFor: duration?.seconds)
        let store = session.store
        guard try store.lockState != .noPassphrase else {
            if output.json {
                JSONOutput.print(["lockState": .string(LockState.noPassphrase.rawValue), "sharedWith": "none"])
            } else {
                Console.report("The store has no passphrase, so there is nothing to unlock.")
            }
            return
        }
        try session.unlockIfLocked()
        // Shared only when the kernel keyring really holds the keys: not when it is off or
        // unavailable (a warning, as before), and never when it refused them (an error).
        let refusal = store.keyringRefusal
        let shared = refusal == nil && store.firstUnlockBackend == .kernelKeyring
            && (duration == nil || session.unlockShared == true)
        var report: [String: JSONValue] = ["lockState": .string(try store.lockState.rawValue), "sharedWith": .string(shared ? "kernelKeyring" : "none")]
        if !shared {
            let why: String
            if let refusal, !refusal.meansUnavailable {
                throw Self.refused(refusal, sharing: duration != nil)
            } else if let refusal {
                why = "the kernel keyring is unavailable here: \(refusal)"
            } else {
                why = "the kernel keyring is turned off (SECSTORE_KEYRING=off)"
            }
            Console.warn("Other processes cannot share this unlock: \(why). They need the passphrase themselves.")
            report["notSharedBecause"] = .string(why)
        }
        if let duration { report["sharedForSeconds"] = .number(Int64(duration.seconds.rounded(.up))) }
        if output.json {
            JSONOutput.print(.object(report))
        } else if !shared {
            Console.report("Unlocked for this command only.")
        } else if let duration {
            Console.report("Unlocked for \(Self.describe(duration.seconds)): your processes read every item until then, `secstore lock`, or reboot.")
        } else {
            Console.report("Unlocked. afterFirstUnlock items are readable by your processes until reboot or `secstore lock`.")
        }
    }

    /// The kernel keyring refused the keys for a reason that can be fixed (a full quota), or a
    /// `secstore lock` ended the unlock while it was sharing them: the unlock is not shared,
    /// and the command fails rather than say otherwise.
    static func refused(_ refusal: KeyringRefusal, sharing: Bool) -> CLIError {
        let what = sharing ? "This shared unlock is not in force" : "This unlock is not shared with your other processes"
        if refusal.meansLockedMeanwhile {
            // The lock is the user's latest word: say so, and leave nothing of the unlock.
            return CLIError(.failure, "\(what): the store's kernel keyring was removed or replaced while its keys were being shared — by a `secstore lock`, or by another unlock that made the keyring at the same moment — and nothing of this unlock is left there. The store is unlocked for this command only. Run `secstore unlock` again if you still want it.",
                            name: "lockedMeanwhile")
        }
        var message = "\(what): the kernel keyring refused its keys — \(refusal). The store is unlocked for this command only."
        if refusal.meansQuotaExceeded {
            message += " Run `secstore keyring prune` to remove the entries of stores that no longer exist (`secstore keyring list` shows them), or raise kernel.keys.maxkeys and kernel.keys.maxbytes (sysctl), then unlock again."
        } else {
            message += " Check your key quota (/proc/key-users against kernel.keys.maxkeys and maxbytes): `secstore keyring prune` removes the entries of stores that no longer exist. Then unlock again."
        }
        return CLIError(.failure, message, name: "keyringRefused")
    }

    private static func describe(_ seconds: TimeInterval) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole % 86400 == 0 { return "\(whole / 86400) d" }
        if whole % 3600 == 0 { return "\(whole / 3600) h" }
        if whole % 60 == 0 { return "\(whole / 60) min" }
        return "\(whole) s"
    }
}

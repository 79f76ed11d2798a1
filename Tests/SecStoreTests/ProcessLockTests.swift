import Foundation
import Testing
@testable import SecStore

/// Lock behaviour across real separate processes (`secstore-test-helper`).
@Suite struct ProcessLockTests {
    static var kernelKeyringWorks: Bool {
        do {
            try KernelKeyring.add(description: "secstore:probe:\(getpid())", payload: [1])
            KernelKeyring.remove(description: "secstore:probe:\(getpid())")
            return true
        } catch {
            return false
        }
    }

    /// A store with the passphrase "pw" and an afterFirstUnlock item `svc`/`ck` holding
    /// "background" (and, with `foreground`, a whenUnlocked item `svc`/`ak` holding it), locked
    /// as after a reboot: nothing unlocked yet, nothing in the keyring.
    func lockedStore(_ dir: TemporaryDirectory, foreground: String? = nil) throws {
        let store = try dir.openStore()
        try store.setPassphraseAsOwner("pw", limits: .minimumForTesting)
        try store.add(.genericPassword(service: "svc", account: "ck", data: Data("background".utf8), accessibility: .afterFirstUnlock))
        if let foreground {
            try store.add(.genericPassword(service: "svc", account: "ak", data: Data(foreground.utf8), accessibility: .whenUnlocked))
        }
        store.lock(forgettingFirstUnlock: true)
    }

    func runHelper(_ command: String, _ dir: TemporaryDirectory, _ extra: [String] = []) throws -> HelperProcess.Outcome {
        try helper.run([command, "--store", dir.storeURL.path, "--device-key", dir.deviceKeyURL.path,
                               "--app-id", "ABCDE12345.com.example.app", "--group", TestEntitlements.g1] + extra)
    }

    @Test(.enabled(if: kernelKeyringWorks, "needs the kernel user keyring (add_key/keyctl)"))
    func afterFirstUnlockIsSharedWithLaterProcessesWhenUnlockedIsNot() throws {
        let dir = TemporaryDirectory()
        try lockedStore(dir, foreground: "foreground")
        defer { try? dir.openStore().lock(forgettingFirstUnlock: true) }

        let before = try runHelper("read", dir, ["--service", "svc", "--account", "ck"])
        #expect(before.status == 1)
        #expect(before.lines == ["error interactionNotAllowed -25308"])

        let unlock = try runHelper("unlock", dir, ["--passphrase", "pw"])
        #expect(unlock.status == 0)
        #expect(unlock.lines == ["unlocked kernel user keyring"])

        let background = try runHelper("read", dir, ["--service", "svc", "--account", "ck"])
        #expect(background.status == 0)
        #expect(background.lines == ["background"])
        let foreground = try runHelper("read", dir, ["--service", "svc", "--account", "ak"])
        #expect(foreground.lines == ["error interactionNotAllowed -25308"])
        let withPassphrase = try runHelper("read", dir, ["--service", "svc", "--account", "ak", "--passphrase", "pw"])
        #expect(withPassphrase.lines == ["foreground"])
    }

    /// Before: a long-lived handle that read an afterFirstUnlock item with the key another
    /// process's unlock left in the keyring kept that key after `secstore lock`, although it
    /// never had the passphrase (new processes were locked out, it was not). A borrowed key
    /// is now used only while its keyring entry is there.
    @Test(.enabled(if: kernelKeyringWorks, "needs the kernel user keyring (add_key/keyctl)"))
    func aKeyBorrowedFromTheKeyringGoesWithALockElsewhere() throws {
        let dir = TemporaryDirectory()
        try lockedStore(dir)
        defer { try? dir.openStore().lock(forgettingFirstUnlock: true) }
        let read = { (store: SecretStore) in try store.items(matching: Query(service: "svc", account: "ck", returning: .data)).first?.data }

        #expect(try runHelper("unlock", dir, ["--passphrase", "pw"]).status == 0)
        let daemon = try dir.openStore()   // never given the passphrase
        #expect(try read(daemon) == Data("background".utf8))
        try dir.openStore().lock(forgettingFirstUnlock: true)   // what `secstore lock` does
        #expect { try read(daemon) } throws: { ($0 as? SecStoreError)?.code == .interactionNotAllowed }
        // The next unlock anywhere lends it again.
        #expect(try runHelper("unlock", dir, ["--passphrase", "pw"]).status == 0)
        #expect(try read(daemon) == Data("background".utf8))
        // A handle that proved the passphrase itself keeps what it unlocked.
        let own = try dir.openStore()
        try own.unlock(passphrase: "pw")
        try dir.openStore().lock(forgettingFirstUnlock: true)
        #expect(try read(own) == Data("background".utf8))
    }

    /// Before: `info` counted the items of a shared unlock (`unlock --for`) as locked while
    /// `get` and `list` read them: the count looked at the keys a handle holds, not at what a
    /// read finds. It now counts what a read would say.
    @Test(.enabled(if: kernelKeyringWorks, "needs the kernel user keyring (add_key/keyctl)"))
    func statisticsCountWhatAReadFinds() throws {
        let dir = TemporaryDirectory()
        try lockedStore(dir, foreground: "foreground")
        defer { try? dir.openStore().lock(forgettingFirstUnlock: true) }
        let owner = try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL))
        #expect(try owner.statistics().lockedItemCount == 2)
        #expect(try runHelper("unlock", dir, ["--passphrase", "pw", "--for", "60"]).status == 0)
        let stats = try owner.statistics()
        #expect(stats.lockedItemCount == 0, "\(stats)")
        #expect(try owner.items(matching: Query(service: "svc", limit: .all, returning: .data)).count == 2)
    }

    /// Kills a process that changes the passphrase over and over at a random moment, then
    /// checks that exactly one of the two passphrases opens the store and nothing was lost.
    @Test func sigkillDuringPassphraseChangeLeavesOldOrNew() throws {
        let dir = TemporaryDirectory()
        let accounts = Accessibility.allCases.map(\.rawValue)
        do {
            let store = try dir.openStore()
            try store.setPassphraseAsOwner("alpha", limits: .minimumForTesting)
            for accessibility in Accessibility.allCases {
                try store.add(.genericPassword(service: "svc", account: accessibility.rawValue,
                                               data: Data("value-\(accessibility.rawValue)".utf8), accessibility: accessibility))
            }
            store.lock(forgettingFirstUnlock: true)
        }
        var outcomes: Set<String> = []
        // Six in the suite; scripts/crash-campaign.sh sets SECSTORE_CRASH_TRIALS for hundreds.
        for _ in 0..<(ProcessInfo.processInfo.environment["SECSTORE_CRASH_TRIALS"].flatMap(Int.init) ?? 6) {
            let running = try helper.start([
                "churn-passphrase", "--store", dir.storeURL.path, "--device-key", dir.deviceKeyURL.path,
                "--owner", "yes",
                "--first", "alpha", "--second", "beta",
                "--first-unlock-cache", "process",
            ])
            // Kill only after at least one change has committed, at a random moment of the churn.
            #expect(running.waitForLine("now beta"))
            Thread.sleep(forTimeInterval: Double.random(in: 0.0...0.1))
            running.kill()

            let store = try dir.openStore()
            var opened: [String] = []
            for candidate in ["alpha", "beta"] where (try? store.unlock(passphrase: candidate)) != nil {
                opened.append(candidate)
            }
            #expect(opened.count == 1, "exactly one passphrase must work, got \(opened)")
            outcomes.formUnion(opened)
            for account in accounts {
                let item = try store.items(matching: Query(service: "svc", account: account, returning: .data))
                #expect(item.first?.data == Data("value-\(account)".utf8))
            }
            // Next round churns from whichever passphrase is current.
            if opened == ["beta"] {
                try store.ownerHandle().changePassphrase(from: "beta", to: "alpha", limits: .minimumForTesting)
            }
            store.lock(forgettingFirstUnlock: true)
        }
    }
}


import Foundation
import Testing

/// `secstore keyring prune` racing `secstore unlock` of a store prune found holding no key,
/// prune stopped by strace after each of its keyring calls in turn (``StoppedRun``) while the
/// unlock runs in the gap (``BackgroundRun``), as the user of a ``KeyringUser``.
///
/// Prune looks at a store's keyring, then removes it if it held no key: two calls, since the
/// kernel cannot remove a keyring only if it is empty. Before: an unlock that put its keys in
/// the keyring between the two lost them with it, after saying "Unlocked." (and a store whose
/// keyring held a location record only was removed without a second look at all); and
/// `prune --json` listed under `removed` a store its second look had kept. Now prune looks
/// and removes holding the keyring lock, which an unlock takes to put an entry in a store's
/// keyring: an unlock's keys are in the keyring by prune's second look (kept) or go into a new
/// keyring after it; and `removed` lists what was removed.
@Suite("secstore keyring prune while an unlock puts its keys in the keyring it found empty")
struct KeyringPruneRaceTests {
    static var available: Bool { KeyringUser.available && StoppedRun.available }
    static var skipReason: Comment { Comment(rawValue: KeyringUser.unavailableBecause ?? "needs strace") }

    /// `refusedAddKey`: which `add_key` of an unlock the kernel refuses (EDQUOT, injected by
    /// strace) to leave the store holding no key — the 2nd (the location record) leaves its
    /// keyring empty, the 3rd (`ck`) leaves the location record only.
    @Test(.enabled(if: available, skipReason), arguments: [2, 3])
    func anUnlockDuringAPruneKeepsItsKeys(refusedAddKey: Int) throws {
        let user = try KeyringUser()
        try user.createStore("s")
        let id = try user.storeID("s")
        var removedFirst = 0, keptForTheUnlock = 0
        var keptAfterCall: Int?
        for call in 1...60 {
            try Self.leaveHoldingNoKey(user, id, refusedAddKey: refusedAddKey)
            let prune = try StoppedRun(user, stoppingAfter: call, of: "keyctl", ["keyring", "prune", "--json"])
            guard prune.waitUntilStoppedOrEnded() else {
                // Every keyring call made without stopping: nothing left to stop between.
                _ = try prune.resume()
                break
            }
            let unlock = try BackgroundRun(user, ["unlock", "--passphrase-file", user.passphraseFile,
                                                  "--store", user.store("s"), "--device-key", user.deviceKey])
            #expect(unlock.waitUntilEndedOrWaitingForALock(), "prune stopped after keyctl \(call)")
            let pruned = try prune.resume()
            let unlocked = try unlock.wait()

            let context = "prune stopped after keyctl \(call): \(pruned)\nunlock: \(unlocked)"
            #expect(pruned.status == Exit.success && unlocked.status == Exit.success, "\(context)")
            let listed = try user.listed()
            #expect(listed[id]?["entries"] as? [String] == ["ck", "cku"], "the unlock's keys are in the keyring: \(listed) \(context)")
            let read = try user.run(store: "s", "get", "--service", "daemon", "--account", "token")
            #expect(read.status == Exit.success && read.stdout == "background", "\(read) \(context)")

            let report = try pruned.jsonObject()
            let removed = (report["removed"] as? [[String: Any]] ?? []).compactMap { $0["storeID"] as? String }
            let kept = (report["kept"] as? [[String: Any]] ?? []).filter { $0["storeID"] as? String == id }
            if report["removedEntries"] as? Int == 1 {
                // Removed before the unlock put anything in it: the unlock made a new keyring.
                removedFirst += 1
                #expect(removed == [id] && kept.isEmpty, "\(context)")
            } else {
                #expect(report["removedEntries"] as? Int == 0, "\(context)")
                #expect(removed.isEmpty, "listed as removed though kept: \(context)")
                #expect(kept.count <= 1, "\(context)")
                if kept.first?["state"] as? String == "empty" {
                    // Listed as holding no key, and the unlock's keys there when prune looked
                    // again: kept, and said so.
                    keptForTheUnlock += 1
                    keptAfterCall = keptAfterCall ?? call
                    #expect((kept.first?["note"] as? String)?.contains("an unlock shared them meanwhile") == true, "\(context)")
                } else {
                    // The unlock's keys were there when prune listed the store (it exists), or
                    // the unlock replaced the location record while prune was reading the
                    // store's keyring (not listed at all): prune had nothing of it to remove.
                    #expect(kept.isEmpty || kept.first?["state"] as? String == "exists" && kept.first?["note"] == nil, "\(context)")
                }
            }
            _ = try user.run("keyring", "prune", "--all")
        }
        #expect(removedFirst >= 1 && keptForTheUnlock >= 1, "removed first \(removedFirst) times, kept \(keptForTheUnlock) times")

        // The same race, stopped where it kept the store, in text: it says so, and why. Which
        // side an unlock lands on at one stop is timing (whether it reached the keyring lock
        // before prune went on), as the loop above shows, so the stop is tried until a run
        // keeps the store: a wrong or missing text fails every attempt.
        guard let call = keptAfterCall else { return }
        let keptText = "Kept 1 store that held no key when listed, and keys when prune came to remove it: an unlock shared them meanwhile."
        var outputs: [String] = []
        for _ in 0..<8 {
            try Self.leaveHoldingNoKey(user, id, refusedAddKey: refusedAddKey)
            let prune = try StoppedRun(user, stoppingAfter: call, of: "keyctl", ["keyring", "prune"])
            try #require(prune.waitUntilStoppedOrEnded())
            let unlock = try BackgroundRun(user, ["unlock", "--passphrase-file", user.passphraseFile,
                                                  "--store", user.store("s"), "--device-key", user.deviceKey])
            #expect(unlock.waitUntilEndedOrWaitingForALock())
            let pruned = try prune.resume()
            #expect(try unlock.wait().status == Exit.success)
            #expect(pruned.status == Exit.success, "\(pruned)")
            outputs.append(pruned.stdout + pruned.stderr)
            if outputs.last!.contains(keptText) { break }
            _ = try user.run("keyring", "prune", "--all")
        }
        #expect(outputs.last?.contains(keptText) == true, "prune stopped after keyctl \(call), \(outputs.count) runs: \(outputs)")
    }

    /// Runs an unlock of store `s` whose `refusedAddKey`-th `add_key` strace fails with
    /// EDQUOT, as a full key quota would: the store is left holding no key.
    private static func leaveHoldingNoKey(_ user: KeyringUser, _ id: String, refusedAddKey: Int) throws {
        let refused = try user.run(["-f", "-o", "/dev/null", "-e", "trace=add_key", "-e", "inject=add_key:error=EDQUOT:when=\(refusedAddKey)",
                                    CLI.executableURL.path, "unlock", "--passphrase-file", user.passphraseFile,
                                    "--store", user.store("s"), "--device-key", user.deviceKey],
                                   executable: StoppedRun.straceURL)
        try #require(refused.status == Exit.failure && refused.stderr.contains("(EDQUOT)"), "\(refused)")
        let listed = try user.listed()
        try #require(listed[id]?["state"] as? String == "empty" && listed[id]?["entries"] as? [String] == [], "\(listed)")
    }
}

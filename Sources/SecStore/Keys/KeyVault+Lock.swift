import Foundation
internal import GRDB

/// Unlocking and locking the classes a passphrase protects: proving the passphrase, installing
/// the class keys it unwraps (and sharing them for a while, `secstore unlock --for`), and
/// wiping them again.
extension KeyVault {
    /// Unlocks the passphrase-protected classes and, the first time since boot, publishes the
    /// `AfterFirstUnlock` keys for the user's other processes. A store without a passphrase
    /// has nothing to unlock.
    ///
    /// With `sharingUntil`, also shares every passphrase-protected class key and the time
    /// of this proof with the user's processes until then (`secstore unlock --for`), sealed
    /// in the kernel keyring with a kernel timeout. Returns false when nothing could be shared
    /// (no kernel keyring here).
    @discardableResult
    func unlock(passphrase: [UInt8], sharingUntil expiry: Date? = nil) throws -> Bool {
        let (record, rows) = try database.read { db in
            try reloadIfChanged(db)
            let record = try PassphraseRecord.fetch(db)
            // Only rows the key table's rules accept: a deleted or swapped row must never
            // make a wrong passphrase look right, or a protected class look unlocked.
            try keyTable.requireSound(db, path: database.path)
            return (record, keyTable.read(try KeyRecord.fetchClassKeys(db), passphrase: record).sound.values)
        }
        guard let record else { return false }
        let wrap = try passphraseWrapKey(passphrase: passphrase, record: record)
        var opened: [(Accessibility, SecureBytes)] = []
        for row in rows where row.protection == .passphrase {
            guard let accessibility = row.accessibility, let classKey = try row.unwrap(with: wrap, storeID: storeID) else {
                throw SecStoreError(.authenticationFailed, "The passphrase is not correct.")
            }
            opened.append((accessibility, classKey))
        }
        try install(opened, provenByPassphrase: true)
        let provenAt = Date()
        state.withLock { $0.passphraseProvenAt = provenAt }
        guard let expiry else { return false }
        let epoch = state.withLock { $0.epoch }
        var shared = true
        for (accessibility, classKey) in opened {
            shared = firstUnlock.publishSession(classKey, for: accessibility, until: expiry, epoch: epoch) && shared
        }
        guard shared else {
            // All or nothing: a partly shared unlock would not be what the tool reports.
            firstUnlock.withdrawSession()
            return false
        }
        firstUnlock.publishPresence(at: provenAt, until: expiry, epoch: epoch)
        return true
    }

    /// Whether the store has a passphrase, as this handle last read the key rows.
    var hasPassphrase: Bool { state.withLock { $0.passphraseSet } }

    /// When the passphrase was last proven: by this handle (``unlock(passphrase:)``), or by a
    /// session unlock still in force (`secstore unlock --for`). `nil` when neither.
    var passphraseProvenAt: Date? {
        let (own, epoch) = state.withLock { ($0.passphraseProvenAt, $0.epoch) }
        let shared = firstUnlock.sharedPresence(epoch: epoch)
        return [own, shared].compactMap { $0 }.max()
    }

    /// Makes `classKeys` readable. `provenByPassphrase` marks keys this handle unwrapped with
    /// the passphrase, which stay installed when another process changes the key rows.
    func install(_ classKeys: [(Accessibility, SecureBytes)], provenByPassphrase: Bool) throws {
        let keys = try classKeys.map { ($0.0.code, try ItemKeys(classKey: $0.1)) }
        state.withLock { state in
            for (code, itemKeys) in keys {
                state.keys[code] = itemKeys
                state.borrowedFromKeyring.remove(code)
                if provenByPassphrase { state.unlockedByPassphrase.insert(code) }
            }
        }
        for (accessibility, classKey) in classKeys where accessibility.staysUnlockedAfterFirstUnlock {
            firstUnlock.publish(classKey, for: accessibility)
        }
        autoLock?.touch()
    }

    /// Wipes the keys of the passphrase-protected classes from memory. `AfterFirstUnlock`
    /// classes stay readable, as after a first unlock on Apple systems, unless
    /// `forgettingFirstUnlock` also removes them from the first-unlock cache (as a reboot would).
    func lock(forgettingFirstUnlock: Bool) {
        // Another process may have set the passphrase since this handle last looked; if the
        // file cannot be read now, lock what is known to be protected.
        _ = try? database.read { db in try reloadIfChanged(db) }
        state.withLock { state in
            for code in state.passphraseProtected {
                let accessibility = Accessibility(code: code)!
                if forgettingFirstUnlock || !accessibility.staysUnlockedAfterFirstUnlock {
                    state.keys[code] = nil
                    state.unlockedByPassphrase.remove(code)
                    state.borrowedFromKeyring.remove(code)
                }
            }
        }
        state.withLock { $0.passphraseProvenAt = nil }
        if forgettingFirstUnlock {
            for accessibility in Accessibility.allCases where accessibility.staysUnlockedAfterFirstUnlock {
                firstUnlock.remove(accessibility)
            }
            firstUnlock.removeSession()
        }
    }

    /// Whether any passphrase-protected class other than `AfterFirstUnlock` is readable:
    /// this handle holds its key, or a shared unlock (`secstore unlock --for`) of the
    /// current key epoch is in force.
    var isUnlocked: Bool {
        let (own, epoch) = state.withLock { state in
            (state.passphraseProtected.contains { code in
                !Accessibility(code: code)!.staysUnlockedAfterFirstUnlock && state.keys[code] != nil
            }, state.epoch)
        }
        return own || firstUnlock.loadSession(.whenUnlocked, epoch: epoch) != nil
    }
}

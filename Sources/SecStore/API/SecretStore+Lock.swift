import Foundation

/// Whether the passphrase-protected classes of a store are readable through a handle.
///
/// ```swift
/// switch try store.lockState {
/// case .noPassphrase, .unlocked: break
/// case .locked: try store.unlock(passphrase: askUser())
/// }
/// ```
public enum LockState: String, Sendable, Hashable, CustomStringConvertible {
    /// The store has no passphrase: every class but `whenPasscodeSetThisDeviceOnly` is
    /// readable, like a device without a passcode.
    case noPassphrase
    /// A passphrase is set and this handle has not been unlocked (or was locked again).
    case locked
    /// A passphrase is set and this handle was unlocked with it, or a shared unlock
    /// (``SecretStore/unlock(passphrase:sharedFor:)``, `secstore unlock --for`) is in force.
    case unlocked

    /// The case name: `noPassphrase`, `locked` or `unlocked`.
    public var description: String { rawValue }
}

/// The passphrase (the analogue of a device passcode, set by the owner) and the lock.
///
/// ```swift
/// try ownerStore.setPassphrase("correct horse battery staple")
/// try store.unlock(passphrase: "correct horse battery staple")
/// store.lock()
/// ```
extension SecretStore {
    /// The lock state of this handle. Reads the file, since another process may have set
    /// or removed the passphrase.
    ///
    /// ```swift
    /// if try store.lockState == .locked { try store.unlock(passphrase: askUser()) }
    /// ```
    public var lockState: LockState {
        get throws {
            try guarded {
                let hasPassphrase = try engine.database.read { db in
                    try engine.vault.reloadIfChanged(db)
                    return try PassphraseRecord.fetch(db) != nil
                }
                guard hasPassphrase else { return .noPassphrase }
                return engine.vault.isUnlocked ? .unlocked : .locked
            }
        }
    }

    /// The Argon2id limits of the current passphrase, or `nil` without one.
    ///
    /// ```swift
    /// if let limits = try store.passphraseLimits, limits.isWeak { print("consider a stronger setting") }
    /// ```
    public var passphraseLimits: PasswordHashingLimits? {
        get throws { try guarded { try engine.vault.passphraseRecord()?.limits } }
    }

    /// Where `AfterFirstUnlock` keys are shared: the kernel user keyring, or process memory
    /// when the kernel refuses keyrings (some containers), when `SECSTORE_KEYRING=off`, or
    /// when the kernel refused this handle's last unlock (``keyringRefusal`` says why).
    ///
    /// ```swift
    /// if store.firstUnlockBackend == .processMemory { print("other processes need their own unlock") }
    /// ```
    public var firstUnlockBackend: FirstUnlockCache { engine.vault.firstUnlock.backend }

    /// Why the keys of this handle's last unlock (or passphrase change) are not in the kernel
    /// keyring, or why the keyring is not used here; `nil` when the kernel took every key
    /// (or none was shared). When the kernel refuses one key, none of that unlock is shared:
    /// the keys stay readable in this process only.
    ///
    /// ```swift
    /// try store.unlock(passphrase: passphrase)
    /// if let refusal = store.keyringRefusal, refusal.meansQuotaExceeded {
    ///     // `secstore keyring prune`, or raise kernel.keys.maxkeys / maxbytes
    /// }
    /// ```
    public var keyringRefusal: KeyringRefusal? { engine.vault.firstUnlock.refusal }

    /// Starts an attempt to share keys: the first-unlock cache forgets the last refusal and
    /// records where this store and its device key are beside the entries it writes.
    private func beginSharing() {
        engine.vault.firstUnlock.beginSharing(storeURL: url,
                                              deviceKeyURL: options.resolvedDeviceKeyURL)
    }

    /// Unlocks the passphrase-protected classes for this handle. The first unlock since boot
    /// also makes `AfterFirstUnlock` items readable by the user's other processes. Does
    /// nothing on a store without a passphrase.
    ///
    /// ```swift
    /// try store.unlock(passphrase: passphrase)
    /// let token = try store.data(forAccount: "alice", service: "api.example.com")
    /// ```
    ///
    /// - Throws: ``SecStoreError`` `authenticationFailed` when the passphrase is wrong.
    public func unlock(passphrase: String) throws {
        try guarded {
            var bytes = Array(passphrase.utf8)
            defer { Wipe.bytes(&bytes) }
            beginSharing()
            try engine.vault.unlock(passphrase: bytes)
        }
        upgradeVersion1RowsIfPossible()
    }

    /// Unlocks the passphrase-protected classes for the user's processes for `duration`:
    /// the Linux analogue of "the device is unlocked". Every passphrase-protected class key,
    /// and the time of this passphrase proof, go to the kernel user keyring, sealed under a key
    /// of this store, with a kernel timeout; until it runs out, ``lock(forgettingFirstUnlock:)``
    /// with `true` (`secstore lock`), or reboot, any process of the user that opens the store
    /// reads its `whenUnlocked` items without the passphrase. `secstore unlock --for` calls it.
    ///
    /// ```swift
    /// try store.unlock(passphrase: passphrase, sharedFor: 8 * 3600)   // a working day
    /// ```
    ///
    /// - Returns: false when the kernel keyring is unavailable (some containers) or refused a
    ///   key (a full key quota; ``keyringRefusal`` says which): then only this handle is
    ///   unlocked, and nothing of this unlock is shared.
    /// - Throws: ``SecStoreError`` `authenticationFailed` when the passphrase is wrong,
    ///   `invalidParameter` for a duration that is not positive or exceeds 30 days.
    @discardableResult
    public func unlock(passphrase: String, sharedFor duration: TimeInterval) throws -> Bool {
        try guarded {
            guard duration > 0, duration <= SecretStore.longestSharedUnlock else {
                throw SecStoreError.invalid("A shared unlock lasts from 1 second to 30 days, not \(duration) seconds.")
            }
            var bytes = Array(passphrase.utf8)
            defer { Wipe.bytes(&bytes) }
            beginSharing()
            let shared = try engine.vault.unlock(passphrase: bytes, sharingUntil: Date(timeIntervalSinceNow: duration))
            upgradeVersion1RowsIfPossible()
            return shared
        }
    }

    /// The longest ``unlock(passphrase:sharedFor:)``: 30 days.
    ///
    /// ```swift
    /// try store.unlock(passphrase: passphrase, sharedFor: SecretStore.longestSharedUnlock)
    /// ```
    public static let longestSharedUnlock: TimeInterval = 30 * 24 * 3600

    /// Wipes the passphrase-protected class keys from this handle's memory. `AfterFirstUnlock`
    /// items stay readable (as after a first unlock on Apple systems) unless
    /// `forgettingFirstUnlock` also removes their keys from the kernel keyring, as a reboot
    /// would, and ends a shared unlock (``unlock(passphrase:sharedFor:)``): then every entry
    /// of this store in the keyring goes (first unlock, shared unlock, presence proof,
    /// location record), whichever process put it there.
    ///
    /// ```swift
    /// store.lock()                                // this handle only
    /// store.lock(forgettingFirstUnlock: true)     // as `secstore lock`: every process, as after a reboot
    /// ```
    public func lock(forgettingFirstUnlock: Bool = false) {
        engine.vault.lock(forgettingFirstUnlock: forgettingFirstUnlock)
        if forgettingFirstUnlock { engine.vault.firstUnlock.removeAll() }
    }

    /// Protects the store with a passphrase. Re-wraps the class keys in one transaction;
    /// no item is re-encrypted. The handle stays unlocked. Owner access only: the passphrase
    /// guards every access group's items, as a device passcode does, and no app sets it.
    ///
    /// ```swift
    /// let owner = try SecretStore(at: storeURL, options: .init(access: .owner))
    /// try owner.setPassphrase("correct horse battery staple")
    /// ```
    ///
    /// - Parameters:
    ///   - passphrase: the new passphrase.
    ///   - limits: Argon2id limits, stored with the store. ``PasswordHashingLimits/moderate``
    ///     by default; tests may use ``PasswordHashingLimits/minimumForTesting``.
    /// - Throws: ``SecStoreError`` `missingEntitlement` for a handle without owner access,
    ///   `invalidParameter` when a passphrase is already set or the passphrase is empty.
    public func setPassphrase(_ passphrase: String, limits: PasswordHashingLimits = .moderate) throws {
        try guarded {
            try RowScanner.requireOwner(options.access, "Setting the store's passphrase")
            var bytes = Array(passphrase.utf8)
            defer { Wipe.bytes(&bytes) }
            beginSharing()
            try engine.vault.setPassphrase(bytes, limits: limits)
        }
    }

    /// Replaces the passphrase. A crash at any point leaves the old or the new one working.
    /// Owner access only, as for ``setPassphrase(_:limits:)``.
    ///
    /// ```swift
    /// try owner.changePassphrase(from: oldPassphrase, to: newPassphrase)
    /// ```
    ///
    /// - Throws: ``SecStoreError`` `missingEntitlement` for a handle without owner access,
    ///   `authenticationFailed` when `old` is wrong.
    public func changePassphrase(from old: String, to new: String, limits: PasswordHashingLimits = .moderate) throws {
        try guarded {
            try RowScanner.requireOwner(options.access, "Changing the store's passphrase")
            var oldBytes = Array(old.utf8), newBytes = Array(new.utf8)
            defer { Wipe.bytes(&oldBytes); Wipe.bytes(&newBytes) }
            beginSharing()
            try engine.vault.changePassphrase(from: oldBytes, to: newBytes, limits: limits)
        }
    }

    /// Removes the passphrase. As on Apple systems, every `whenPasscodeSetThisDeviceOnly`
    /// item is deleted with it, in every access group: so owner access only, as for
    /// ``setPassphrase(_:limits:)``.
    ///
    /// ```swift
    /// let deleted = try owner.removePassphrase(passphrase)
    /// print("\(deleted) items that needed a passphrase were deleted")
    /// ```
    ///
    /// - Returns: how many `whenPasscodeSetThisDeviceOnly` items were deleted.
    /// - Throws: ``SecStoreError`` `missingEntitlement` for a handle without owner access,
    ///   `authenticationFailed` when `passphrase` is wrong.
    @discardableResult
    public func removePassphrase(_ passphrase: String) throws -> Int {
        return try guarded {
            try RowScanner.requireOwner(options.access, "Removing the store's passphrase")
            var bytes = Array(passphrase.utf8)
            defer { Wipe.bytes(&bytes) }
            beginSharing()
            return try engine.vault.removePassphrase(bytes)
        }
    }
}

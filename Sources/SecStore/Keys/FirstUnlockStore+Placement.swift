import Foundation
import Synchronization

/// Where an attempt puts its entries: the store's own keyring, found or made once per attempt
/// (entries an older SecStore left straight in the user keyring taken in), and the location
/// record beside the first entry.
extension FirstUnlockStore {
    /// The store's keyring for this attempt: found or made at the attempt's first entry, then
    /// the same one for all of them. Never looked up again: if a lock removes it, the attempt's
    /// later entries must fail, not go into a new keyring and outlive the lock.
    func attemptKeyring() throws(KernelKeyring.Failure) -> Int32 {
        if let keyring = attempt.withLock({ $0.keyring }) { return keyring }
        let keyring = try KernelKeyring.keyring(named: keyringName)
        adoptOlderEntries(into: keyring)
        attempt.withLock { $0.keyring = keyring }
        return keyring
    }

    /// The keyring lock (``KeyringLock``), shared, for putting one entry in the store's
    /// keyring; nil when its file cannot be used (another user's, an unwritable `/tmp`), and the
    /// entry is put without it: an unlock never fails for want of the lock. Only a
    /// `secstore keyring prune` running at that moment could then remove the keyring under it,
    /// and prune removes nothing without the lock. Logged once per process.
    func sharingLock() -> KeyringLock? {
        do {
            return try KeyringLock(.shared)
        } catch {
            let first = Self.lockWarning.withLock { warned in
                defer { warned = true }
                return !warned
            }
            if first { logger.warning("\(error); keys are shared without it") }
            return nil
        }
    }

    private static let lockWarning = Mutex(false)

    /// Entries an older SecStore linked straight in the user keyring (before each store had a
    /// keyring of its own) move into the store's keyring at an attempt's first entry, before
    /// any of the attempt's own: `lock` then removes them with the rest, and a read does not
    /// find them before the current ones (a search looks at the user keyring's own keys
    /// first). One whose name the store's keyring already holds is a stale copy, and goes.
    /// One that cannot be moved stays where it is, where `removeAll()` still finds it.
    private func adoptOlderEntries(into keyring: Int32) {
        guard let keys = try? KernelKeyring.userKeys() else { return }
        for key in keys where key.parent == KernelKeyring.userKeyring && key.type == "user" && key.description.hasPrefix(prefix) {
            if KernelKeyring.holds(keyring, description: key.description) {
                try? KernelKeyring.invalidate(serial: key.serial)
            } else {
                try? KernelKeyring.move(serial: key.serial, fromUserKeyringInto: keyring)
            }
        }
    }

    /// Writes this handle's ``Location`` record once per attempt: `secstore:<id>:path:<hash>`,
    /// holding the store path and the device key path, separated by a NUL. One record per
    /// path, so copies of a store in two places both count.
    func recordLocation(in keyring: Int32) throws(KernelKeyring.Failure) {
        guard let location = location.withLock({ $0 }), !location.recorded else { return }
        let payload = Array((location.storePath + "\u{0}" + location.deviceKeyPath).utf8)
        try KernelKeyring.add(description: prefix + FirstUnlockCache.locationTag + Self.pathHash(location.storePath), payload: payload,
                              into: keyring)
        self.location.withLock { $0?.recorded = true }
    }

    /// Where a store will be: a new store is built under `.<name>.new-<UUID>` beside its path
    /// and linked into place (``SecretStore/create(at:options:passphrase:limits:)``), and
    /// setting its passphrase there publishes keys. Recording the temporary name would make
    /// the store look gone once it is in place, so the record names the final path.
    /// (`KeyringTests` pins this against `secstore create --passphrase-file`.)
    static func finalPath(of path: String) -> String {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let name = path[slash...]
        guard name.hasPrefix("."), let marker = name.range(of: ".new-", options: .backwards),
              UUID(uuidString: String(name[marker.upperBound...])) != nil,
              name.index(after: name.startIndex) < marker.lowerBound else { return path }
        return String(path[..<slash]) + name[name.index(after: name.startIndex)..<marker.lowerBound]
    }

    /// FNV-1a (64 bits) of `path` in hex: tells records of different paths apart (not secret).
    private static func pathHash(_ path: String) -> String {
        let hash = path.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
        return Hex.string(withUnsafeBytes(of: hash.bigEndian) { Array($0) })
    }
}

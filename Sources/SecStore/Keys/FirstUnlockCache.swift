import Logging
import Foundation
import Synchronization

/// Where the class keys of `AfterFirstUnlock` items wait between processes after the
/// first unlock since boot.
///
/// ```swift
/// var options = SecretStore.Options()
/// options.firstUnlockCache = .processMemory   // no kernel keyring in this container
/// ```
public enum FirstUnlockCache: Sendable, Hashable, CustomStringConvertible {
    /// The kernel user keyring, and process memory when the kernel refuses (the default).
    /// `SECSTORE_KEYRING=off` in the environment forces ``processMemory``.
    case automatic
    /// The kernel user keyring only: shared by the user's processes, gone at reboot.
    case kernelKeyring
    /// This process's memory only: gone when the process exits.
    case processMemory

    /// Whether `SECSTORE_KEYRING=off` is in this process's environment: ``automatic`` then
    /// means ``processMemory``, and tools that honour it make no keyring call.
    ///
    /// ```swift
    /// if !FirstUnlockCache.isTurnedOffByEnvironment { … }
    /// ```
    public static var isTurnedOffByEnvironment: Bool {
        ProcessInfo.processInfo.environment["SECSTORE_KEYRING"] == "off"
    }

    /// The backend's name for messages: `automatic`, `kernel user keyring` or `process memory`.
    public var description: String {
        switch self {
        case .automatic: "automatic"
        case .kernelKeyring: "kernel user keyring"
        case .processMemory: "process memory"
        }
    }
}

extension FirstUnlockCache {
    /// One SecStore entry in the calling user's kernel keyring: which store, and which kind of
    /// key — never the key. What `secstore keyring list` shows and `secstore keyring prune`
    /// removes.
    ///
    /// Every entry is named `secstore:<store id in hex>:<name>`: `ck`, `cku` (first unlock),
    /// `session:<class>` and `presence` (`secstore unlock --for`), and `path:<hash>`, the
    /// location record holding the store file's and device key's paths, written beside the
    /// first key a handle shares. They are linked in the store's own keyring,
    /// `secstore:<store id in hex>`, which is linked in the user keyring (entries of an older
    /// SecStore straight in the user keyring are listed too).
    ///
    /// ```swift
    /// for entry in try FirstUnlockCache.keyringEntries() where entry.kind == .location {
    ///     print(entry.storeID, entry.storeURL?.path ?? "?")
    /// }
    /// ```
    public struct KeyringEntry: Sendable, Hashable {
        /// What an entry holds.
        public enum Kind: String, Sendable, Hashable {
            /// An `afterFirstUnlock` class key (`ck`, `cku`), until reboot or `secstore lock`.
            case firstUnlock
            /// A class key of a shared unlock (`session:<class>`), until it expires.
            case sharedUnlock
            /// The time of a shared unlock's passphrase proof (`presence`).
            case presence
            /// Where the store file and its device key were (`path:<hash>`): no key at all.
            case location
            /// A name this version of SecStore does not know (a newer one wrote it).
            case other
        }

        /// The store the entry belongs to (``SecretStore/storeID``).
        public let storeID: UUID
        /// The name after the store id: `ck`, `session:ak`, `presence`, `path:…`.
        public let name: String
        /// What the entry holds.
        public let kind: Kind
        /// For a ``Kind/location`` record: the store file a handle of this store had open.
        public let storeURL: URL?
        /// For a ``Kind/location`` record: the device key that handle used.
        public let deviceKeyURL: URL?
    }

    /// Every SecStore entry in the calling user's kernel keyring, in no particular order.
    /// Reads only the location records' payloads (two paths), never a key.
    ///
    /// ```swift
    /// let stores = Set(try FirstUnlockCache.keyringEntries().map(\.storeID))
    /// ```
    ///
    /// - Throws: ``SecStoreError`` `unsupported` where the kernel refuses keyrings (some
    ///   containers: there is nothing SecStore could have put there), `ioFailure` when the
    ///   keyring cannot be read for another reason.
    public static func keyringEntries() throws -> [KeyringEntry] {
        try userKeys().compactMap { key -> KeyringEntry? in
            guard key.type == "user", let (storeID, name) = parse(key.description) else { return nil }
            let kind: KeyringEntry.Kind
            var storeURL: URL?, deviceKeyURL: URL?
            if Accessibility(rawValue: name) != nil {
                kind = .firstUnlock
            } else if name.hasPrefix("session:") {
                kind = .sharedUnlock
            } else if name == "presence" {
                kind = .presence
            } else if name.hasPrefix(locationTag) {
                kind = .location
                // Gone meanwhile, or not readable: a record without paths.
                if let payload = try? KernelKeyring.read(serial: key.serial) {
                    let paths = payload.split(separator: 0, omittingEmptySubsequences: false)
                    if paths.count == 2 {
                        storeURL = URL(filePath: String(decoding: paths[0], as: UTF8.self))
                        deviceKeyURL = URL(filePath: String(decoding: paths[1], as: UTF8.self))
                    }
                }
            } else {
                kind = .other
            }
            return KeyringEntry(storeID: storeID, name: name, kind: kind, storeURL: storeURL, deviceKeyURL: deviceKeyURL)
        }
    }

    /// The stores whose keyring (`secstore:<store id>`) is linked in the calling user's keyring
    /// with nothing in it: ``keyringEntries()`` has no entry of them. An unlock stopped (killed,
    /// or refused by the key quota) after making the keyring leaves one, and each costs a key
    /// of the user's quota until reboot; `secstore keyring prune` removes them
    /// (``removeEmptyStoreKeyrings(_:)``).
    ///
    /// ```swift
    /// let empty = try FirstUnlockCache.emptyStoreKeyrings()
    /// ```
    package static func emptyStoreKeyrings() throws -> Set<UUID> {
        Set(emptyStoreKeyrings(among: try userKeys()).map(\.storeID))
    }

    /// Removes the keyrings of `storeIDs` that still hold nothing, looked at again just before
    /// as ``emptyStoreKeyrings()`` looks: one an unlock has meanwhile put an entry in is kept
    /// (removing it would end that unlock).
    ///
    /// - Returns: how many keyrings were removed.
    @discardableResult
    package static func removeEmptyStoreKeyrings(_ storeIDs: Set<UUID>) throws -> Int {
        var removed = 0
        for (key, storeID) in emptyStoreKeyrings(among: try userKeys()) {
            guard storeIDs.contains(storeID) else { continue }
            if try removeStoreKeyring(key) { removed += 1 }
        }
        return removed
    }

    /// The store keyrings among `keys` (``userKeys()``, which goes down into them) with no key
    /// in them that can be described: the one test of emptiness, for listing and for removing.
    /// A key that has expired cannot be described and counts for nothing, though the kernel
    /// unlinks it only at its next garbage collection (`key_gc_delay`, 5 minutes by default).
    private static func emptyStoreKeyrings(among keys: [KernelKeyring.Described]) -> [(keyring: KernelKeyring.Described, storeID: UUID)] {
        let holding = Set(keys.map(\.parent))
        return keys.compactMap { key in
            guard key.type == "keyring", !holding.contains(key.serial), let storeID = parseStoreKeyring(key.description) else { return nil }
            return (key, storeID)
        }
    }

    /// Invalidates a store's keyring, and with it at once every entry linked in it. Returns
    /// false when it was gone already (removed by someone else meanwhile).
    private static func removeStoreKeyring(_ keyring: KernelKeyring.Described) throws -> Bool {
        do {
            try KernelKeyring.invalidate(serial: keyring.serial)
            return true
        } catch where error.meansMissing {
            return false
        } catch {
            throw SecStoreError(.ioFailure, "The kernel keyring \(keyring.description) could not be removed: \(error.refusal).")
        }
    }

    /// Removes every entry of the stores `storeIDs` from the calling user's kernel keyring —
    /// for each of them what `secstore lock` does, without opening the store. Entries of
    /// other stores, and keys that are not SecStore's, are never touched.
    ///
    /// ```swift
    /// let removed = try FirstUnlockCache.removeKeyringEntries(ofStores: [goneStoreID])
    /// ```
    ///
    /// - Returns: how many entries were removed.
    /// - Throws: ``SecStoreError`` as ``keyringEntries()``, also when an entry cannot be removed.
    @discardableResult
    public static func removeKeyringEntries(ofStores storeIDs: Set<UUID>) throws -> Int {
        let keys = try userKeys()
        // The stores' keyrings first, each at once with every entry in it.
        var gone: Set<Int32> = []
        for key in keys where key.type == "keyring" {
            guard let storeID = parseStoreKeyring(key.description), storeIDs.contains(storeID) else { continue }
            _ = try removeStoreKeyring(key)   // gone either way, with its entries
            gone.insert(key.serial)
        }
        var removed = 0
        for key in keys where key.type == "user" {
            guard let (storeID, _) = parse(key.description), storeIDs.contains(storeID) else { continue }
            if gone.contains(key.parent) {
                removed += 1   // went with its store's keyring
                continue
            }
            do {
                try KernelKeyring.invalidate(serial: key.serial)
                removed += 1
            } catch where error.meansMissing {
                // Expired or removed by someone else meanwhile: gone either way.
            } catch {
                throw SecStoreError(.ioFailure, "The kernel keyring entry \(key.description) could not be removed: \(error.refusal).")
            }
        }
        return removed
    }

    /// The user keyring's keys and those in the stores' keyrings, with the kernel's refusal as
    /// a ``SecStoreError``.
    private static func userKeys() throws -> [KernelKeyring.Described] {
        do {
            return try KernelKeyring.userKeys { parseStoreKeyring($0.description) != nil }
        } catch where error.meansUnavailable {
            throw SecStoreError(.unsupported, "The kernel keyring is unavailable here: \(error.refusal). SecStore keeps keys in process memory, so it has no entries in a keyring.")
        } catch {
            throw SecStoreError(.ioFailure, "The kernel user keyring could not be read: \(error.refusal).")
        }
    }

    /// `secstore:`, the start of every SecStore entry's description.
    static let entryPrefix = "secstore:"

    /// `secstore:<store id in hex>`: the keyring, linked in the user keyring, that holds every
    /// entry of the store, so that `secstore lock` removes them all at once.
    static func storeKeyringName(storeIDHex: String) -> String { entryPrefix + storeIDHex }

    /// The store id of a store's keyring's description, `secstore:<32 hex digits>`, or nil.
    private static func parseStoreKeyring(_ description: String) -> UUID? {
        let parts = description.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] + ":" == entryPrefix, parts[1].count == 32, let bytes = Hex.bytes(parts[1]) else { return nil }
        return bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
    }

    /// The name of a location record starts with it.
    static let locationTag = "path:"

    /// The store id and the name of `secstore:<32 hex digits>:<name>`, or nil for any other
    /// description.
    private static func parse(_ description: String) -> (UUID, String)? {
        let parts = description.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] + ":" == entryPrefix, parts[1].count == 32, !parts[2].isEmpty,
              let bytes = Hex.bytes(parts[1]) else { return nil }
        let storeID = bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
        return (storeID, String(parts[2]))
    }
}

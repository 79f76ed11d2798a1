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

            /// Whether an entry of this kind keeps its store from being empty (`keyring list`'s
            /// `empty`, which `keyring prune` removes): every kind but a location record, which
            /// holds no key (a kind this version does not know counts, to be safe).
            package var countsAsKey: Bool { self != .location }

            /// The kind of the entry named `name` (after the store id).
            static func of(_ name: String) -> Kind {
                if Accessibility(rawValue: name) != nil { return .firstUnlock }
                if name.hasPrefix("session:") { return .sharedUnlock }
                if name == "presence" { return .presence }
                if name.hasPrefix(locationTag) { return .location }
                return .other
            }
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
            let kind = KeyringEntry.Kind.of(name)
            var storeURL: URL?, deviceKeyURL: URL?
            // Gone meanwhile, or not readable: a record without paths.
            if kind == .location, let payload = try? KernelKeyring.read(serial: key.serial) {
                let paths = payload.split(separator: 0, omittingEmptySubsequences: false)
                if paths.count == 2 {
                    storeURL = URL(filePath: String(decoding: paths[0], as: UTF8.self))
                    deviceKeyURL = URL(filePath: String(decoding: paths[1], as: UTF8.self))
                }
            }
            return KeyringEntry(storeID: storeID, name: name, kind: kind, storeURL: storeURL, deviceKeyURL: deviceKeyURL)
        }
    }

    /// The stores whose keyring (`secstore:<store id>`) is linked in the calling user's keyring
    /// with nothing in it: ``keyringEntries()`` has no entry of them. An unlock stopped (killed,
    /// or refused by the key quota) after making the keyring leaves one, and each costs a key
    /// of the user's quota until reboot; `secstore keyring prune` removes them
    /// (``removeEmptyStores(_:beforeRemoving:)``).
    ///
    /// ```swift
    /// let empty = try FirstUnlockCache.emptyStoreKeyrings()
    /// ```
    package static func emptyStoreKeyrings() throws -> Set<UUID> {
        Set(emptyStoreKeyrings(among: try userKeys()).map(\.storeID))
    }

    /// What ``removeEmptyStores(_:beforeRemoving:)`` removed.
    package struct EmptyStoreRemoval: Sendable, Equatable {
        /// The stores whose entries were removed: those that still held no key.
        package var stores: Set<UUID> = []
        /// How many entries went, a keyring that held nothing counting as one (as
        /// `keyring list` counts it).
        package var entries = 0
    }

    /// Removes the entries of those of `storeIDs` that still hold no key — the store's keyring
    /// holds nothing, or location records only — looked at again just before as
    /// ``emptyStores(among:)`` looks; the others are kept: an unlock has put a key there since
    /// they were listed, and removing it would lose that key.
    ///
    /// The look and the removal are two calls (the kernel cannot remove a keyring only if it
    /// is empty), so both are made holding the keyring lock exclusively (``KeyringLock``),
    /// which every unlock holds, shared, from finding the store's keyring to linking an entry
    /// into it: an unlock whose first key is in the keyring by the look keeps the store, and
    /// one that comes later waits, then finds the keyring gone and makes a new one. None loses
    /// a key it reported shared, and none fails for the prune.
    ///
    /// ```swift
    /// let removal = try FirstUnlockCache.removeEmptyStores(Set(empty.map(\.storeID)))
    /// ```
    ///
    /// - Parameter beforeRemoving: called between the look and the removal, with the lock
    ///   held: a test's competing unlock.
    /// - Throws: ``SecStoreError`` `ioFailure` when the keyring lock cannot be taken (its file
    ///   cannot be used: nothing is removed then), or as ``keyringEntries()``.
    package static func removeEmptyStores(_ storeIDs: Set<UUID>, beforeRemoving: () -> Void = {}) throws -> EmptyStoreRemoval {
        guard !storeIDs.isEmpty else { return EmptyStoreRemoval() }
        let held: KeyringLock
        do {
            held = try KeyringLock(.exclusive)
        } catch {
            throw SecStoreError(.ioFailure, "The stores that held no key were kept: \(error).")
        }
        defer { held.release() }
        let keys = try userKeys()
        let empty = storeIDs.intersection(emptyStores(among: keys))
        beforeRemoving()
        var removal = EmptyStoreRemoval()
        for (storeID, removed) in try removeEntries(ofStores: empty, among: keys) where removed.byThisCall {
            removal.stores.insert(storeID)
            removal.entries += max(removed.entries, 1)
        }
        return removal
    }

    /// The stores among `keys` (``userKeys()``, which goes down into the stores' keyrings) that
    /// hold no key: they have a keyring or entries, and no entry that ``KeyringEntry/Kind/countsAsKey``.
    /// The one test of emptiness for removing; `keyring list` judges by the same kinds.
    private static func emptyStores(among keys: [KernelKeyring.Described]) -> Set<UUID> {
        var present = Set(emptyStoreKeyrings(among: keys).map(\.storeID)), holding: Set<UUID> = []
        for key in keys where key.type == "user" {
            guard let (storeID, name) = parse(key.description) else { continue }
            present.insert(storeID)
            if KeyringEntry.Kind.of(name).countsAsKey { holding.insert(storeID) }
        }
        return present.subtracting(holding)
    }

    /// The store keyrings among `keys` (``userKeys()``, which goes down into them) with no key
    /// in them that can be described, for listing and, through ``emptyStores(among:)``, for
    /// removing. A key that has expired cannot be described and counts for nothing, though the
    /// kernel unlinks it only at its next garbage collection (`key_gc_delay`, 5 minutes by default).
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
        try removeEntries(ofStores: storeIDs, among: try userKeys()).values.reduce(0) { $0 + $1.entries }
    }

    /// What ``removeEntries(ofStores:among:)`` did to one store: how many of its entries went
    /// (those linked in a keyring gone already meanwhile counted too: gone either way), and
    /// whether this call removed anything of it (not only found it gone).
    private struct Removed {
        var entries = 0
        var byThisCall = false
    }

    /// Removes every entry of the stores `storeIDs` among `keys` (``userKeys()``): each
    /// store's keyring first, at once with every entry in it, then the entries straight in the
    /// user keyring one by one.
    private static func removeEntries(ofStores storeIDs: Set<UUID>, among keys: [KernelKeyring.Described]) throws -> [UUID: Removed] {
        var removed: [UUID: Removed] = [:]
        var gone: Set<Int32> = []
        for key in keys where key.type == "keyring" {
            guard let storeID = parseStoreKeyring(key.description), storeIDs.contains(storeID) else { continue }
            if try removeStoreKeyring(key) { removed[storeID, default: Removed()].byThisCall = true }
            gone.insert(key.serial)   // gone either way, with its entries
        }
        for key in keys where key.type == "user" {
            guard let (storeID, _) = parse(key.description), storeIDs.contains(storeID) else { continue }
            if gone.contains(key.parent) {
                removed[storeID, default: Removed()].entries += 1   // went with its store's keyring
                continue
            }
            do {
                try KernelKeyring.invalidate(serial: key.serial)
                removed[storeID, default: Removed()].entries += 1
                removed[storeID, default: Removed()].byThisCall = true
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

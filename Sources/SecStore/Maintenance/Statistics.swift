import Foundation
internal import GRDB

/// What a store holds, as `secstore info` shows it. Counts only; no attribute value except
/// access-group names.
///
/// ```swift
/// let statistics = try owner.statistics()
/// print(statistics.itemCount, statistics.countsByClass[.genericPassword] ?? 0, statistics.lockState)
/// ```
public struct StoreStatistics: Sendable, Hashable {
    /// The store's random identity (``SecretStore/storeID``).
    public var storeID: UUID
    /// The version of the store's file format (its schema version).
    public var formatVersion: Int
    /// Every item in the store, of every class, group and accessibility, locked or not.
    public var itemCount: Int
    /// Items per class; a class without items has no entry.
    public var countsByClass: [ItemClass: Int]
    /// Items per accessibility class; a class without items has no entry.
    public var countsByAccessibility: [Accessibility: Int]
    /// Items per access group, for the items whose class is readable now. Keys are Swift
    /// strings, which compare by canonical equivalence: two groups whose names are the same
    /// text in different bytes ("café" precomposed and decomposed), which the store keeps
    /// apart as it compares group names by bytes, are counted under one key here. Search each
    /// group by its own name to tell them apart.
    public var countsByGroup: [String: Int]
    /// Items whose group is unknown because their class is locked.
    public var lockedItemCount: Int
    /// The handle's lock state when the statistics were taken (``SecretStore/lockState``).
    public var lockState: LockState
    /// The Argon2id limits of the store's passphrase, or `nil` when it has none.
    public var passphraseLimits: PasswordHashingLimits?
    /// Where this handle keeps `AfterFirstUnlock` keys (``SecretStore/firstUnlockBackend``).
    public var firstUnlockBackend: FirstUnlockCache
    /// The store's files (database, `-wal`, `-shm`) and their sizes in bytes.
    public var files: [StoreFile]

    /// One of the store's files on disk.
    ///
    /// ```swift
    /// let bytes = try owner.statistics().files.reduce(0) { $0 + $1.size }   // database, -wal and -shm
    /// ```
    public struct StoreFile: Sendable, Hashable {
        /// The file's location.
        public var url: URL
        /// The file's size in bytes.
        public var size: Int
    }
}

extension SecretStore {
    /// Counts the store's items by class, accessibility and access group. Owner access only,
    /// since it names every group.
    ///
    /// ```swift
    /// let stats = try ownerStore.statistics()
    /// print(stats.itemCount, stats.countsByGroup)
    /// ```
    public func statistics() throws -> StoreStatistics {
        return try guarded {
            try RowScanner.requireOwner(options.access, "Counting a store's items by group")
            let lockState = try self.lockState
            let limits = try passphraseLimits
            var stats = try engine.database.read { db in
                try engine.vault.reloadIfChanged(db)
                var stats = StoreStatistics(
                    storeID: storeID, formatVersion: try Schema.version(db, path: engine.database.path), itemCount: 0, countsByClass: [:],
                    countsByAccessibility: [:], countsByGroup: [:], lockedItemCount: 0, lockState: lockState,
                    passphraseLimits: limits, firstUnlockBackend: firstUnlockBackend, files: [])
                // Each class's keys looked up once for the scan (a shared unlock's are derived
                // afresh at each look, and dropped with this table when the scan ends).
                var readable: [Accessibility: ItemKeys] = [:]
                var locked: Set<Accessibility> = []
                try RowScanner(engine: engine).forEachRow(in: db) { row in
                    stats.itemCount += 1
                    stats.countsByClass[row.itemClass, default: 0] += 1
                    stats.countsByAccessibility[row.accessibility, default: 0] += 1
                    if readable[row.accessibility] == nil && !locked.contains(row.accessibility) {
                        if let keys = try engine.vault.keysIfReadable(row.accessibility, in: db) {
                            readable[row.accessibility] = keys
                        } else {
                            locked.insert(row.accessibility)
                        }
                    }
                    guard let keys = readable[row.accessibility] else {
                        stats.lockedItemCount += 1
                        return
                    }
                    var plain = try ItemSealing.open(row.metadata ?? Data(), .metadata, binding: row.binding(storeID: engine.vault.storeID), keys: keys)
                    defer { Wipe.data(&plain) }
                    let group = try MetadataCodec.decode(plain).accessGroup ?? ""
                    stats.countsByGroup[group, default: 0] += 1
                }
                return stats
            }
            for suffix in [""] + CompanionFiles.suffixes {
                let file = URL(filePath: url.path + suffix)
                if let size = try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int {
                    stats.files.append(.init(url: file, size: size))
                }
            }
            return stats
        }
    }
}

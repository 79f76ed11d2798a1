import SecStore

/// How a record that arrives from etcd meets what this device has: decided from versions
/// and revisions only, so every device decides alike (docs/sync.md, "Conflicts").
enum ConflictRules {
    /// What the device knows about the record's primary key.
    struct Local {
        /// What it last pushed or applied at this tag.
        var record: SyncRecordState?
        /// The version of a local change not yet pushed (an edit: the item's modification
        /// date; a deletion: when it was deleted), with this device's id.
        var pendingVersion: SyncVersion?
        /// A local item with the same primary key that never synced at this tag: a
        /// concurrent create. `identical` when it holds the same attributes and secret.
        var unsyncedTwin: (itemID: Int64, identical: Bool)?
    }

    enum Decision: Equatable {
        /// Already applied (an echo of this device's own push, or the same version re-sealed).
        case ignore
        /// Older than what the device applied: a replay. Never applied; reported.
        case refuse(SyncRefusal)
        /// The record wins: write it locally and drop any pending local change.
        case apply
        /// The local pending change wins (later version): remember the record's revision so
        /// the push can replace it, and keep the change queued.
        case keepLocal
        /// A concurrent create with the same contents: the local item becomes this record.
        case adoptTwin(itemID: Int64)
        /// A concurrent create with other contents: the record, first in etcd, wins (as
        /// Apple's first write wins); the local item is kept beside it as a conflict copy.
        case keepTwinAsConflictCopy(itemID: Int64)
    }

    /// How far ahead of this device's clock a version may be: one day (docs/decisions.md,
    /// "Sync: versions at most a day ahead"). A version further ahead is refused on arrival,
    /// since every later change of the item must carry a greater version.
    static let maximumClockSkew: Int64 = 24 * 3600 * 1_000_000

    /// Whether `version` is further ahead of `now` (microseconds) than ``maximumClockSkew``.
    static func isTooFarAhead(_ version: SyncVersion, now: Int64) -> Bool {
        version.modified > now + maximumClockSkew
    }

    static func decide(incoming version: SyncVersion, revision: Int64, local: Local) -> Decision {
        if let record = local.record {
            if revision <= record.revision || version == record.version { return .ignore }
            if version < record.version { return .refuse(.stale) }
            if let pending = local.pendingVersion, pending > version { return .keepLocal }
            return .apply
        }
        if let twin = local.unsyncedTwin {
            return twin.identical ? .adoptTwin(itemID: twin.itemID) : .keepTwinAsConflictCopy(itemID: twin.itemID)
        }
        return .apply
    }
}

/// What one sync pass did: counts only, never a secret or an attribute.
///
/// ```swift
/// let report = try await engine.syncNow()
/// print("pushed \(report.pushed), applied \(report.applied), refused \(report.refused)")
/// ```
package struct SyncReport: Sendable, Equatable, CustomStringConvertible {
    /// Local changes written to etcd (items and tombstones).
    package var pushed = 0
    /// Records from other devices written to this store.
    package var applied = 0
    /// Records refused (altered, moved, replayed, or not from a member); never applied.
    package var refused = 0
    /// Concurrent creates this device lost: its item is kept as a conflict copy.
    package var conflicts = 0
    /// Local changes that could not be pushed (etcd refused them, too large, or the item's
    /// row is damaged); they stay queued.
    package var failed = 0
    /// Tombstones older than the retention window removed from etcd.
    package var purged = 0
    /// Local items deleted because their records are gone from etcd (a device away longer
    /// than the retention window, whose tombstones were purged).
    package var reconciled = 0
    /// The etcd revision the store has applied up to.
    package var revision: Int64 = 0
    /// The reasons of the refusals, with the etcd key (opaque), for the log.
    package var refusals: [String] = []

    package init() {}

    mutating func add(_ other: SyncReport) {
        pushed += other.pushed
        applied += other.applied
        refused += other.refused
        conflicts += other.conflicts
        purged += other.purged
        failed += other.failed
        reconciled += other.reconciled
        revision = max(revision, other.revision)
        refusals += other.refusals
    }

    mutating func refuse(_ key: [UInt8], _ reason: SyncRefusal) {
        refused += 1
        refusals.append("\(String(decoding: key, as: UTF8.self)): \(reason)")
    }

    package var description: String {
        "pushed \(pushed)\(failed > 0 ? " (\(failed) failed)" : ""), applied \(applied), refused \(refused), conflicts \(conflicts), purged \(purged), reconciled \(reconciled), at revision \(revision)"
    }
}

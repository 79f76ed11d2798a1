import Foundation
import SecStore
import Etcd

extension SyncEngine {
    /// Removes from etcd the tombstones this device recorded (pushed or applied) before
    /// `cutoff` (microseconds): the window runs from when the device saw a tombstone, not from
    /// the deletion, so one pushed late by a device back from a long absence still stays a full
    /// window. Each goes only if etcd still holds the revision the device saw. The local record
    /// stays, with revision 0 (an older version replayed at that key is still refused; a new
    /// item with that primary key creates the key afresh).
    func purgeTombstones(olderThan cutoff: Int64) async throws -> Int {
        let expired = try store.syncRead { try $0.tombstones(recordedBefore: cutoff, limit: 1024) }
        var purged = 0
        for record in expired {
            let key = layout.record(record.tag)
            let result = try await etcd {
                try await client.txn(compare: [.unchanged(key, modRevision: record.revision)], success: [.delete(key: key)],
                                     failure: [.range(key: key)])
            }
            if result.succeeded {
                purged += 1
            } else if case .range(let current)? = result.responses.first, !current.keyValues.isEmpty {
                continue   // rewritten since: a newer record there, applied by the next pull
            }
            // Gone from etcd (purged here, or by another device first): no longer a candidate.
            try markGone(record.tag, seenAt: record.revision)
        }
        return purged
    }

    /// For a device away longer than the retention window: every synced item whose record is
    /// no longer in etcd was deleted elsewhere and its tombstone purged since, so it is
    /// deleted here too. Items with a pending local change are kept (they will be pushed).
    func reconcile() async throws -> SyncReport {
        var present = Set<[UInt8]>()
        for kv in try await readAll(layout.records, keysOnly: true).0 {
            if case .record(let tag) = layout.kind(of: kv.key) { present.insert(tag) }
        }
        var report = SyncReport()
        try store.syncWrite { session in
            for var record in try session.records() where !present.contains(record.tag) && record.pendingDeletion == nil {
                guard let itemID = record.itemID else {
                    // A tombstone purged while the device was away: no longer a purge candidate.
                    try session.markGone(tag: record.tag)
                    continue
                }
                guard try session.outboxEntry(itemID: itemID) == nil else { continue }
                record.itemID = nil
                record.deleted = true
                record.revision = 0   // its key is gone from etcd
                try session.delete(id: itemID, recording: record)
                report.reconciled += 1
            }
        }
        return report
    }

    /// ``SyncSession/markGone(tag:seenAt:)`` in a transaction of its own.
    func markGone(_ tag: [UInt8], seenAt revision: Int64) throws {
        try store.syncWrite { try $0.markGone(tag: tag, seenAt: revision) }
    }
}

import Foundation
import SecStore
import Etcd

extension SyncEngine {
    /// Removes from etcd the tombstones this device knows that are older than `cutoff`
    /// (microseconds), each only if etcd still holds the revision the device saw. The local
    /// record stays: an older version replayed at that key is still refused.
    func purgeTombstones(olderThan cutoff: Int64) async throws -> Int {
        let expired = try store.syncRead { try $0.tombstones(olderThan: cutoff, limit: 1024) }
        var purged = 0
        for record in expired {
            let key = layout.record(record.tag)
            let result = try await etcd {
                try await client.txn(compare: [.unchanged(key, modRevision: record.revision)], success: [.delete(key: key)])
            }
            if result.succeeded { purged += 1 }
        }
        return purged
    }

    /// For a device away longer than the retention window: every synced item whose record is
    /// no longer in etcd was deleted elsewhere and its tombstone purged since, so it is
    /// deleted here too. Items with a pending local change are kept (they will be pushed).
    func reconcile() async throws -> SyncReport {
        var present = Set<[UInt8]>()
        var start = layout.records
        let end = EtcdPrefix.rangeEnd(for: layout.records)
        while true {
            let page = try await etcd { try await client.range(key: start, rangeEnd: end, limit: 1000, keysOnly: true) }
            for kv in page.keyValues { if case .record(let tag) = layout.kind(of: kv.key) { present.insert(tag) } }
            guard page.more, let last = page.keyValues.last else { break }
            start = last.key + [0]
        }
        var report = SyncReport()
        try store.syncWrite { session in
            for var record in try session.records() where !present.contains(record.tag) && record.pendingDeletion == nil {
                guard let itemID = record.itemID, try session.outboxEntry(itemID: itemID) == nil else { continue }
                try session.delete(id: itemID)
                record.itemID = nil
                record.deleted = true
                try session.save(record)
                report.reconciled += 1
            }
        }
        return report
    }
}

import Foundation
import SecStore
import Etcd

extension SyncEngine {
    /// Pushes every local change: items from the outbox, then deletions as tombstones. Each
    /// write is a compare-and-swap on the record's revision, so etcd always holds the
    /// latest version: when another device wrote first, its record is applied through the
    /// conflict rules and the local change, if it still wins, goes on the next pass.
    func push() async throws -> SyncReport {
        var report = SyncReport()
        guard currentKeys != nil else { return report }
        for _ in 0..<4 {
            let (entries, deletions) = try store.syncRead { session in
                (try session.outbox(limit: 256), try session.pendingDeletions(limit: 256))
            }
            if entries.isEmpty && deletions.isEmpty { break }
            for entry in entries { report.add(try await pushItem(entry)) }
            for deletion in deletions { report.add(try await pushTombstone(deletion)) }
        }
        return report
    }

    private func pushItem(_ entry: SyncOutboxEntry) async throws -> SyncReport {
        guard let keys = currentKeys else { return SyncReport() }
        let (item, previous) = try store.syncRead { session in
            (try session.item(id: entry.itemID), try session.record(itemID: entry.itemID))
        }
        guard let item, item.isSynchronizable, let group = item.attributes.accessGroup else {
            // Gone, or no longer syncing: what was pushed of it becomes a tombstone.
            try store.syncWrite { session in
                if var previous, try session.outboxEntry(itemID: entry.itemID)?.sequence == entry.sequence {
                    previous.itemID = nil
                    previous.pendingDeletion = entry.changed
                    try session.save(previous)
                }
                try session.removeOutbox(itemID: entry.itemID, sequence: entry.sequence)
            }
            return SyncReport()
        }
        let tag = keys.tag(for: item)
        let known = try store.syncRead { try $0.record(tag: tag) }
        let modified = item.attributes.modificationDate.map(SyncVersion.microseconds) ?? entry.changed
        let version = Self.version(after: known?.version, modified: modified, device: device)
        let record = SyncRecord(version: version, item: item, groupID: keys.groupID(group))
        guard let revision = try await compareAndSwap(tag: tag, known: known, value: try record.seal(tag: tag, keys: keys)) else {
            return try await applyCurrent(tag: tag)
        }
        try store.syncWrite { session in
            try session.save(SyncRecordState(tag: tag, itemID: entry.itemID, groupID: record.groupID, version: version,
                                             revision: revision, deleted: false))
            try session.removeOutbox(itemID: entry.itemID, sequence: entry.sequence)
        }
        var report = SyncReport()
        report.pushed = 1
        return report
    }

    private func pushTombstone(_ deletion: SyncRecordState) async throws -> SyncReport {
        guard let keys = currentKeys, let deleted = deletion.pendingDeletion else { return SyncReport() }
        let version = Self.version(after: deletion.version, modified: deleted, device: device)
        let record = SyncRecord(version: version, item: nil, groupID: deletion.groupID)
        guard let revision = try await compareAndSwap(tag: deletion.tag, known: deletion,
                                                      value: try record.seal(tag: deletion.tag, keys: keys)) else {
            return try await applyCurrent(tag: deletion.tag)
        }
        try store.syncWrite { session in
            // Unless the item came back meanwhile (a record applied, or re-created here).
            guard var current = try session.record(tag: deletion.tag), current.pendingDeletion == deleted else { return }
            current.version = version
            current.revision = revision
            current.deleted = true
            current.pendingDeletion = nil
            try session.save(current)
        }
        var report = SyncReport()
        report.pushed = 1
        return report
    }

    /// A version later than `known` (a clock behind another device's still moves forward).
    static func version(after known: SyncVersion?, modified: Int64, device: [UInt8]) -> SyncVersion {
        SyncVersion(modified: max(modified, (known?.modified ?? .min) + 1), device: device)
    }

    /// Writes `value` at the record's key if etcd still holds the revision this device
    /// knows (or no record, for one it never saw). Returns the new revision, or `nil` when
    /// another device wrote first.
    func compareAndSwap(tag: [UInt8], known: SyncRecordState?, value: [UInt8]) async throws -> Int64? {
        let key = layout.record(tag)
        let condition = known.map { $0.revision > 0 ? EtcdCompare.unchanged(key, modRevision: $0.revision) : .absent(key) }
            ?? .absent(key)
        let result = try await etcd { try await client.txn(compare: [condition], success: [.put(key: key, value: value)]) }
        return result.succeeded ? result.revision : nil
    }

    /// Applies what etcd holds at a record's key now (after a lost compare-and-swap).
    private func applyCurrent(tag: [UInt8]) async throws -> SyncReport {
        let current = try await etcd { try await client.range(key: layout.record(tag)) }
        var report = SyncReport()
        try store.syncWrite { session in
            for kv in current.keyValues { try applyRecord(kv, tag: tag, in: session, report: &report) }
        }
        return report
    }
}

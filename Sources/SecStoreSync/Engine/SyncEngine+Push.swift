import Foundation
import SecStore
import Etcd

extension SyncEngine {
    /// A local change sealed and ready for etcd.
    struct PreparedPush {
        /// What to record locally once etcd took it.
        var state: SyncRecordState
        /// The record state this push replaces (its revision is the compare-and-swap condition).
        var known: SyncRecordState?
        var value: [UInt8]
        /// The outbox entry it clears, or the tombstone's pending deletion time.
        var entry: SyncOutboxEntry?
        var deletedAt: Int64?
    }

    /// How many changes one etcd transaction carries (etcd's default limit is 128 operations).
    static let pushBatch = 64

    /// Pushes every local change: items from the outbox, then deletions as tombstones. Each
    /// write is a compare-and-swap on the record's revision, so etcd always holds the latest
    /// version. Changes go in transactions of ``pushBatch``; when one fails (another device
    /// wrote one of its records first), each change is pushed alone, and a record that lost
    /// is applied through the conflict rules, its local change, if it still wins, going on
    /// the next pass.
    func push() async throws -> SyncReport {
        var report = SyncReport()
        guard let keys = currentKeys else { return report }
        // Until the journal is empty, or a pass pushed nothing (every change lost to another
        // device's write and stays for the next pass).
        while true {
            let prepared = try store.syncWrite { session in try prepare(keys, in: session) }
            let before = report.pushed
            if prepared.isEmpty { break }
            for start in stride(from: 0, to: prepared.count, by: Self.pushBatch) {
                let batch = Array(prepared[start..<min(start + Self.pushBatch, prepared.count)])
                if let revision = try await compareAndSwap(batch) {
                    try store.syncWrite { session in for push in batch { try commit(push, revision: revision, in: session) } }
                    report.pushed += batch.count
                    continue
                }
                for push in batch {
                    if let revision = try await compareAndSwap([push]) {
                        try store.syncWrite { session in try commit(push, revision: revision, in: session) }
                        report.pushed += 1
                    } else {
                        report.add(try await applyCurrent(tag: push.state.tag))
                    }
                }
            }
            if report.pushed == before { break }
        }
        return report
    }

    /// Seals what the outbox and the pending deletions hold (up to 1,024 changes). Entries for
    /// items that are gone or stopped syncing become pending deletions here.
    private func prepare(_ keys: CircleKeys, in session: SyncSession) throws -> [PreparedPush] {
        var prepared: [PreparedPush] = []
        for entry in try session.outbox(limit: 1024) {
            let previous = try session.record(itemID: entry.itemID)
            guard let item = try session.item(id: entry.itemID), item.isSynchronizable, let group = item.attributes.accessGroup else {
                if var previous {
                    previous.itemID = nil
                    previous.pendingDeletion = entry.changed
                    try session.save(previous)
                }
                try session.removeOutbox(itemID: entry.itemID, sequence: entry.sequence)
                continue
            }
            let tag = keys.tag(for: item)
            let known = try session.record(tag: tag)
            let modified = item.attributes.modificationDate.map(SyncVersion.microseconds) ?? entry.changed
            let record = SyncRecord(version: Self.version(after: known?.version, modified: modified, device: device),
                                    item: item, groupID: keys.groupID(group))
            let state = SyncRecordState(tag: tag, itemID: entry.itemID, groupID: record.groupID, version: record.version,
                                        revision: 0, deleted: false)
            prepared.append(PreparedPush(state: state, known: known, value: try record.seal(tag: tag, keys: keys), entry: entry))
        }
        // An item re-created with a deleted item's primary key supersedes its tombstone (and
        // one etcd transaction may not write a key twice).
        let live = Set(prepared.map(\.state.tag))
        for deletion in try session.pendingDeletions(limit: 1024) where !live.contains(deletion.tag) {
            guard let deleted = deletion.pendingDeletion else { continue }
            let record = SyncRecord(version: Self.version(after: deletion.version, modified: deleted, device: device),
                                    item: nil, groupID: deletion.groupID)
            var state = deletion
            state.version = record.version
            state.deleted = true
            state.pendingDeletion = nil
            prepared.append(PreparedPush(state: state, known: deletion, value: try record.seal(tag: deletion.tag, keys: keys),
                                         deletedAt: deleted))
        }
        return prepared
    }

    /// Records a push etcd took at `revision`, unless the local state moved on meanwhile.
    private func commit(_ push: PreparedPush, revision: Int64, in session: SyncSession) throws {
        var state = push.state
        state.revision = revision
        if let entry = push.entry {
            try session.save(state)
            try session.removeOutbox(itemID: entry.itemID, sequence: entry.sequence)
        } else if let deletedAt = push.deletedAt {
            // Unless the item came back meanwhile (a record applied, or re-created here).
            guard let current = try session.record(tag: state.tag), current.pendingDeletion == deletedAt else { return }
            try session.save(state)
        }
    }

    /// A version later than `known` (a clock behind another device's still moves forward).
    static func version(after known: SyncVersion?, modified: Int64, device: [UInt8]) -> SyncVersion {
        SyncVersion(modified: max(modified, (known?.modified ?? .min) + 1), device: device)
    }

    /// Writes every value of `batch` if etcd still holds, for each, the revision this device
    /// knows (or no record, for one it never saw). Returns the new revision, or `nil` when
    /// another device wrote one of them first (then nothing was written).
    private func compareAndSwap(_ batch: [PreparedPush]) async throws -> Int64? {
        var conditions: [EtcdCompare] = []
        var writes: [EtcdOperation] = []
        for push in batch {
            let key = layout.record(push.state.tag)
            let known = push.known.flatMap { $0.revision > 0 ? $0.revision : nil }
            conditions.append(known.map { EtcdCompare.unchanged(key, modRevision: $0) } ?? .absent(key))
            writes.append(.put(key: key, value: push.value))
        }
        let result = try await etcd { try await client.txn(compare: conditions, success: writes) }
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

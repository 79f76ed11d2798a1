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
        /// The item's persistent reference when it was sealed: a row id can be reused.
        var reference: [UInt8]?
    }

    /// At most this many changes, and ``pushBatchBytes`` of sealed values, go in one etcd
    /// transaction (etcd's defaults: 128 operations, 1.5 MiB per request).
    static let pushBatch = 64
    static let pushBatchBytes = 1 << 20

    /// Pushes every local change: items from the outbox, then deletions as tombstones. Each
    /// write is a compare-and-swap on the record's revision (and on the circle's epoch), so
    /// etcd always holds the latest version, sealed under the current keys. When a batch
    /// fails, each change is pushed alone: a record that lost to another device's write is
    /// applied through the conflict rules (a local change that still wins is pushed on the
    /// next round), and a change etcd refuses (too large for it) is counted in `failed` and
    /// stays queued. Rounds go on until the journal is empty or a round pushes nothing.
    func push() async throws -> SyncReport {
        var report = SyncReport()
        guard let keys = currentKeys else { return report }
        var failedTags = Set<[UInt8]>()
        var firstRound = true
        while true {
            let (all, unreadable) = try store.syncWrite { session in try prepare(keys, in: session) }
            // A change that failed once in this pass is not tried again until the next.
            let prepared = all.filter { !failedTags.contains($0.state.tag) }
            if firstRound { report.failed += unreadable }
            firstRound = false
            let before = report.pushed
            for batch in Self.batches(prepared) {
                if batch.count > 1 {
                    // etcd unreachable or refusing us throws: the pass ends, the daemon backs off.
                    // Only a batch etcd refused as a request (too large) or lost a comparison
                    // goes change by change.
                    var revision: Int64?
                    do { revision = try await compareAndSwap(batch, keys: keys) } catch SyncError.etcdRejected {}
                    if let revision {
                        try await interlude?()
                        try store.syncWrite { session in for push in batch { try commit(push, revision: revision, in: session) } }
                        report.pushed += batch.count
                        continue
                    }
                }
                for push in batch {
                    do {
                        if let revision = try await compareAndSwap([push], keys: keys) {
                            try await interlude?()
                            try store.syncWrite { session in try commit(push, revision: revision, in: session) }
                            report.pushed += 1
                        } else if try await circleChanged(keys) {
                            // A new epoch began: the next pull takes its keys, then the push goes on.
                            return report
                        } else {
                            report.add(try await applyCurrent(tag: push.state.tag))
                        }
                    } catch SyncError.etcdRejected(let message) {
                        // etcd refused this one request (too large for it): the others go on.
                        let error = SyncError.etcdRejected(message)
                        report.failed += 1
                        failedTags.insert(push.state.tag)
                        logger?.warning("sync: a change could not be pushed: \(error)")
                    }
                }
            }
            if report.pushed == before { return report }
        }
    }

    /// Groups changes into transactions within ``pushBatch`` and ``pushBatchBytes``.
    static func batches(_ prepared: [PreparedPush]) -> [[PreparedPush]] {
        var batches: [[PreparedPush]] = []
        var current: [PreparedPush] = [], bytes = 0
        for push in prepared {
            if !current.isEmpty && (current.count == pushBatch || bytes + push.value.count > pushBatchBytes) {
                batches.append(current)
                current = []
                bytes = 0
            }
            current.append(push)
            bytes += push.value.count
        }
        if !current.isEmpty { batches.append(current) }
        return batches
    }

    /// Seals what the outbox and the pending deletions hold (up to 1,024 of each). Entries for
    /// items that are gone or stopped syncing become pending deletions here; an item that
    /// fails to open (a damaged row: `verify` names it) is counted and left queued.
    private func prepare(_ keys: CircleKeys, in session: SyncSession) throws -> ([PreparedPush], unreadable: Int) {
        var prepared: [PreparedPush] = []
        var unreadable = 0
        for entry in try session.outbox(limit: 1024) {
            let item: SyncedItem?
            do {
                item = try session.item(id: entry.itemID)
            } catch let error as SecStoreError where error.code == .corruptData {
                unreadable += 1
                continue
            }
            guard let item, item.isSynchronizable, let group = item.attributes.accessGroup else {
                try session.detach(itemID: entry.itemID, changed: entry.changed)
                continue
            }
            let tag = keys.tag(for: item)
            let known = try session.record(tag: tag)
            let record = SyncRecord(version: pendingVersion(modified: item.attributes.modificationDate, known: known?.version,
                                                            changed: entry.changed),
                                    item: item, groupID: keys.groupID(group))
            // Only a journal from before versions were bounded can hold a version so far ahead:
            // the change stays queued rather than go out as one every receiver refuses.
            guard !ConflictRules.isTooFarAhead(record.version, now: SyncVersion.microseconds(Date())) else {
                unreadable += 1
                logger?.warning("sync: a change was not pushed: its version would be more than a day ahead of this clock")
                continue
            }
            let state = SyncRecordState(tag: tag, itemID: entry.itemID, groupID: record.groupID, version: record.version,
                                        revision: 0, deleted: false)
            prepared.append(PreparedPush(state: state, known: known, value: try record.seal(tag: tag, keys: keys), entry: entry,
                                         reference: try session.reference(itemID: entry.itemID)))
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
        return (prepared, unreadable)
    }

    /// Records a push etcd took at `revision`. When the item was deleted while the push was
    /// in flight (its row gone, or its id taken by a new item: the reference tells), the
    /// record is what was pushed and its deletion still waits to go.
    private func commit(_ push: PreparedPush, revision: Int64, in session: SyncSession) throws {
        var state = push.state
        state.revision = revision
        if let entry = push.entry {
            if try session.reference(itemID: entry.itemID) != push.reference {
                state.itemID = nil
                state.pendingDeletion = try session.record(tag: state.tag)?.pendingDeletion ?? SyncVersion.microseconds(Date())
                try session.save(state)
                return
            }
            try session.save(state)
            try session.removeOutbox(itemID: entry.itemID, sequence: entry.sequence)
        } else if let deletedAt = push.deletedAt {
            // Unless the item came back meanwhile (a record applied, or re-created here).
            guard let current = try session.record(tag: state.tag), current.pendingDeletion == deletedAt else { return }
            try session.save(state)
        }
    }

    /// The version of a local change: the item's modification date (else when it was
    /// queued), with this device's id, moved past the last version the device knows.
    /// The modification date counts only up to this device's clock (an item may carry any
    /// date its writer gave): receivers refuse a version far ahead of theirs.
    func pendingVersion(modified: Date?, known: SyncVersion?, changed: Int64) -> SyncVersion {
        let clock = SyncVersion.microseconds(Date())
        return Self.version(after: known, modified: min(modified.map(SyncVersion.microseconds) ?? changed, clock), device: device)
    }

    /// A version later than `known` (a clock behind another device's still moves forward).
    static func version(after known: SyncVersion?, modified: Int64, device: [UInt8]) -> SyncVersion {
        // Saturating: a known version at the very end (refused in records since, possible in
        // an older journal) must not overflow.
        let next = known.map { $0.modified < .max ? $0.modified + 1 : .max } ?? .min
        return SyncVersion(modified: max(modified, next), device: device)
    }

    /// Writes every value of `batch` if the circle is still at this device's epoch and etcd
    /// still holds, for each, the revision this device knows (or no record, for one it never
    /// saw). Returns the new revision, or `nil` when a condition failed (nothing was written).
    private func compareAndSwap(_ batch: [PreparedPush], keys: CircleKeys) async throws -> Int64? {
        var conditions = [EtcdCompare(key: layout.circle, target: .value(CircleEntries.circle(keys)), result: .equal)]
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

    /// Whether `P/circle` no longer holds this device's epoch.
    func circleChanged(_ keys: CircleKeys) async throws -> Bool {
        let circle = try await etcd { try await client.range(key: layout.circle) }
        return circle.keyValues.first?.value != CircleEntries.circle(keys)
    }

    /// Applies what etcd holds at a record's key now (after a lost compare-and-swap). When
    /// the key is gone (a purged tombstone, or deleted by etcd's operator), the next push
    /// creates it afresh.
    private func applyCurrent(tag: [UInt8]) async throws -> SyncReport {
        let current = try await etcd { try await client.range(key: layout.record(tag)) }
        var report = SyncReport()
        try store.syncWrite { session in
            guard !current.keyValues.isEmpty else { return try session.markGone(tag: tag) }
            for kv in current.keyValues { try applyRecordOrRefuse(kv, tag: tag, in: session, report: &report) }
        }
        return report
    }
}

import Foundation
import SecStore
import Etcd

extension SyncEngine {
    /// The free-form attribute that marks a conflict copy (value `1`), and the one that names
    /// the version it lost to.
    static let conflictAttribute = "secstore.sync-conflict"
    static let conflictWinnerAttribute = "secstore.sync-conflict-winner"

    /// Applies one record found in etcd, inside the caller's transaction, as
    /// ``ConflictRules`` decides. A refused record is counted and never written.
    func applyRecord(_ kv: EtcdKeyValue, tag: [UInt8], in session: SyncSession, report: inout SyncReport) throws {
        guard let epoch = SyncRecord.epoch(of: kv.value) else { return report.refuse(kv.key, .malformed) }
        guard let keys = keys[epoch] else { return report.refuse(kv.key, .wrongEpoch) }
        let record: SyncRecord
        do {
            record = try SyncRecord.open(kv.value, tag: tag, keys: keys)
        } catch {
            return report.refuse(kv.key, error)
        }
        if ConflictRules.isTooFarAhead(record.version, now: SyncVersion.microseconds(Date())) {
            // Never applied; its revision is noted so that this device's next change of the
            // item replaces it in etcd (its compare-and-swap names that revision).
            if var known = try session.record(tag: tag), kv.modRevision > known.revision {
                known.revision = kv.modRevision
                try session.save(known)
            }
            return report.refuse(kv.key, .aheadOfClock)
        }
        let local = try localView(tag: tag, incoming: record, in: session)
        let decision = ConflictRules.decide(incoming: record.version, revision: kv.modRevision, local: local)
        guard accepts(epoch: epoch) || decision == .ignore else { return report.refuse(kv.key, .wrongEpoch) }
        switch decision {
        case .ignore:
            if var known = local.record, kv.modRevision > known.revision {
                known.revision = kv.modRevision
                try session.save(known)
            }
        case .refuse(let reason):
            report.refuse(kv.key, reason)
        case .keepLocal:
            guard var known = local.record else { return }
            known.version = record.version
            known.revision = kv.modRevision
            try session.save(known)
        case .adoptTwin(let itemID):
            try session.removeOutbox(itemID: itemID)
            try session.save(SyncRecordState(tag: tag, itemID: itemID, groupID: record.groupID, version: record.version,
                                             revision: kv.modRevision, deleted: false))
        case .keepTwinAsConflictCopy(let itemID):
            try keepAsConflictCopy(itemID, losingTo: record.version, in: session)
            report.conflicts += 1
            try write(record, tag: tag, revision: kv.modRevision, replacing: nil, in: session)
            report.applied += 1
        case .apply:
            try write(record, tag: tag, revision: kv.modRevision, replacing: local.record?.itemID, in: session)
            report.applied += 1
        }
    }

    /// What this device has for a record's tag: its last state, a pending local change, or
    /// an unsynced local item with the same primary key.
    private func localView(tag: [UInt8], incoming: SyncRecord, in session: SyncSession) throws -> ConflictRules.Local {
        var local = ConflictRules.Local()
        local.record = try session.record(tag: tag)
        if let known = local.record {
            if let itemID = known.itemID, let entry = try session.outboxEntry(itemID: itemID),
               let attributes = try session.attributes(id: itemID) {
                local.pendingVersion = pendingVersion(modified: attributes.modificationDate, known: known.version, changed: entry.changed)
            } else if let deleted = known.pendingDeletion {
                local.pendingVersion = SyncVersion(modified: deleted, device: device)
            }
        } else if let item = incoming.item, let twinID = try session.itemID(samePrimaryKeyAs: item),
                  let twin = try session.item(id: twinID) {
            local.unsyncedTwin = (twinID, Self.sameContents(twin, item))
        }
        return local
    }

    /// Writes a winning record: the item (replacing `existing`), or its deletion.
    private func write(_ record: SyncRecord, tag: [UInt8], revision: Int64, replacing existing: Int64?,
                       in session: SyncSession) throws {
        var state = SyncRecordState(tag: tag, itemID: nil, groupID: record.groupID, version: record.version,
                                    revision: revision, deleted: record.item == nil)
        if let item = record.item {
            let itemID: Int64
            if let existing, try session.reference(itemID: existing) != nil {
                try session.replace(id: existing, with: item)
                itemID = existing
            } else if let twin = try session.itemID(samePrimaryKeyAs: item) {
                // An item made here after the record's deletion, with the same primary key.
                try keepAsConflictCopy(twin, losingTo: record.version, in: session)
                itemID = try session.insert(item)
            } else {
                itemID = try session.insert(item)
            }
            try session.removeOutbox(itemID: itemID)
            state.itemID = itemID
        } else if let existing {
            return try session.delete(id: existing, recording: state)
        }
        try session.save(state)
    }

    /// Keeps a local item that lost a concurrent create: it stops syncing and carries the
    /// ``conflictAttribute`` naming the winner, so its owner can compare and choose.
    private func keepAsConflictCopy(_ itemID: Int64, losingTo winner: SyncVersion, in session: SyncSession) throws {
        guard var copy = try session.item(id: itemID) else { return }
        // It no longer is what any record says: a record it had (its primary key changed
        // locally) waits to be pushed as a deletion, and it is never pushed itself.
        try session.detach(itemID: itemID, changed: SyncVersion.microseconds(Date()))
        copy.attributes[.synchronizable] = .bool(false)
        copy.attributes.custom[Self.conflictAttribute] = "1"
        copy.attributes.custom[Self.conflictWinnerAttribute] = "device \(Hex.string(winner.device)) at \(winner.modified)"
        do {
            try session.replace(id: itemID, with: copy)
        } catch let error as SecStoreError where error.code == .duplicateItem {
            // A local item that does not sync already has that primary key: keep both, renamed.
            copy.attributes.account = (copy.attributes.account ?? "") + " (sync conflict \(itemID))"
            try session.replace(id: itemID, with: copy)
        }
    }

    /// Whether two items hold the same secret and attributes (their dates aside).
    static func sameContents(_ lhs: SyncedItem, _ rhs: SyncedItem) -> Bool {
        var left = lhs.attributes, right = rhs.attributes
        for key in [AttributeKey.creationDate, .modificationDate] {
            left[key] = nil
            right[key] = nil
        }
        return lhs.itemClass == rhs.itemClass && left == right
            && ConstantTime.equals(Array(lhs.secret), Array(rhs.secret))
    }
}

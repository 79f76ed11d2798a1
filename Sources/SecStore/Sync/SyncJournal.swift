import Foundation
internal import GRDB

/// The one owner of the sync tables (created in ``Schema``, version 4): every statement on
/// `sync_state`, `sync_outbox` and `sync_records`. The engine's writes call
/// ``noteChanged(itemID:eligible:now:in:)`` and ``noteDeleted(itemID:now:in:)`` in their own
/// transaction, so a committed local change is never missing from what sync pushes.
package enum SyncJournal {
    /// Whether an item with these attributes syncs: Apple syncs exactly the items marked
    /// synchronizable whose class is not `…ThisDeviceOnly`, and none with access-control
    /// constraints (they hold on one device: Apple refuses to make such an item synchronizable,
    /// `AccessControlRules.checkSynchronizable`). The last is checked here too, on the item as it
    /// is after a change, because an update that sets only `synchronizable`, or a backup's
    /// record, never passes the given dictionary's check with the flags beside it. Nothing in
    /// sync's own group (``ImportRules/syncGroup``) syncs: it holds each device's sync settings
    /// and keys, and a device refuses any record of it (`SecStoreSync`'s `SyncRecord`).
    static func isEligible(_ attributes: Attributes) -> Bool {
        attributes[.synchronizable]?.boolValue == true && !(attributes.accessibility?.isThisDeviceOnly ?? false)
            && (attributes.accessControlFlags ?? []).isEmpty && !ImportRules.isReserved(attributes.accessGroup)
    }

    /// For a front end that asks for a synchronizable item: refuses a `…ThisDeviceOnly`
    /// accessibility, which never leaves the device (the store keeps such an item, and sync
    /// passes it over: an app asking for both gets told, not silently ignored).
    ///
    /// ```swift
    /// try SyncJournal.checkCanSync(attributes)   // invalidParameter for afterFirstUnlockThisDeviceOnly
    /// ```
    package static func checkCanSync(_ attributes: Attributes) throws {
        if let accessibility = attributes.accessibility, accessibility.isThisDeviceOnly {
            throw SecStoreError.invalid("A synchronizable item needs an accessibility that may leave the device; \(accessibility) (…ThisDeviceOnly) never does. Choose another accessibility (afterFirstUnlock, say), or do not make it synchronizable.")
        }
    }

    // MARK: The engine's hooks

    /// Queues item `itemID` when the store syncs and the item is `eligible`. A change that
    /// makes a synced item stop syncing (`synchronizable = false`, or a `…ThisDeviceOnly`
    /// accessibility) detaches its record here, in the change's own transaction: the record
    /// waits to be pushed as a tombstone and no longer names the item, so a record arriving
    /// for it before that push becomes a synchronizable item of its own, beside the local one
    /// (`synchronizable` is part of the primary key), and never replaces it.
    static func noteChanged(itemID: Int64, eligible: Bool, now: Date, in db: Database) throws {
        guard eligible else { return try detach(itemID: itemID, changed: SyncVersion.microseconds(now), in: db) }
        let statement = try db.cachedStatement(sql: """
            INSERT INTO sync_outbox (item_id, sequence, changed)
            SELECT ?1, next_sequence, ?2 FROM sync_state WHERE enabled = 1
            ON CONFLICT (item_id) DO UPDATE SET sequence = excluded.sequence, changed = excluded.changed
            """)
        try SQLiteRows.execute(statement, arguments: [.integer(itemID), .integer(SyncVersion.microseconds(now))], in: db)
        // A sequence number is never reused: a push that read an entry clears it only if no
        // later change renumbered it, even after the outbox emptied in between.
        if db.changesCount > 0 {
            try SQLiteRows.execute(try db.cachedStatement(sql: "UPDATE sync_state SET next_sequence = next_sequence + 1"),
                                   arguments: [], in: db)
        }
    }

    /// Item `itemID` stops being what its record is (it stopped syncing, or became a conflict
    /// copy): the record waits to be pushed as a tombstone, with `changed` (microseconds) as
    /// the deletion's time, and the item's outbox entry is dropped.
    static func detach(itemID: Int64, changed: Int64, in db: Database) throws {
        try SQLiteRows.execute(try db.cachedStatement(sql: "UPDATE sync_records SET item_id = NULL, pending_delete = ? WHERE item_id = ?"),
                               arguments: [.integer(changed), .integer(itemID)], in: db)
        try SQLiteRows.execute(try db.cachedStatement(sql: "DELETE FROM sync_outbox WHERE item_id = ?"),
                               arguments: [.integer(itemID)], in: db)
    }

    /// Records the deletion of item `itemID`: when it was synced, its record waits to be
    /// pushed as a tombstone and stops naming the row id (which a later item may reuse); an
    /// outbox entry for a change never pushed is dropped.
    static func noteDeleted(itemID: Int64, now: Date = Date(), in db: Database) throws {
        try detach(itemID: itemID, changed: SyncVersion.microseconds(now), in: db)
    }

    // MARK: State

    static func state(in db: Database) throws -> (enabled: Bool, revision: Int64) {
        guard let row = try Row.fetchOne(db, sql: "SELECT enabled, revision FROM sync_state") else { return (false, 0) }
        return (row["enabled"] as Int64 == 1, row["revision"])
    }

    static func setState(enabled: Bool, revision: Int64, in db: Database) throws {
        try db.execute(sql: """
            INSERT INTO sync_state (singleton, enabled, revision) VALUES (1, ?, ?)
            ON CONFLICT (singleton) DO UPDATE SET enabled = excluded.enabled, revision = excluded.revision
            """, arguments: [enabled ? 1 : 0, revision])
    }

    /// When the last complete sync pass ended, in microseconds (0: never).
    static func syncedAt(in db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT synced_at FROM sync_state") ?? 0
    }

    static func setSyncedAt(_ microseconds: Int64, in db: Database) throws {
        try db.execute(sql: "UPDATE sync_state SET synced_at = ?", arguments: [microseconds])
    }

    // MARK: Outbox

    private static func entry(_ row: Row) -> SyncOutboxEntry {
        SyncOutboxEntry(itemID: row["item_id"], sequence: row["sequence"], changed: row["changed"])
    }

    /// The statements of a sync pass's reads, each served by an index of ``Schema``'s
    /// version 4 (`SyncJournalTests` checks the plans of these very strings).
    static let outboxSQL = "SELECT item_id, sequence, changed FROM sync_outbox ORDER BY sequence LIMIT ?"
    static let pendingDeletionsSQL = "SELECT \(recordColumns) FROM sync_records WHERE pending_delete <> 0 LIMIT ?"
    static let tombstonesSQL = """
        SELECT \(recordColumns) FROM sync_records
        WHERE deleted = 1 AND pending_delete = 0 AND revision > 0 AND recorded_at < ? LIMIT ?
        """

    static func outbox(limit: Int, in db: Database) throws -> [SyncOutboxEntry] {
        try Row.fetchAll(db, sql: outboxSQL, arguments: [limit]).map(entry)
    }

    static func outboxEntry(itemID: Int64, in db: Database) throws -> SyncOutboxEntry? {
        try Row.fetchOne(db, sql: "SELECT item_id, sequence, changed FROM sync_outbox WHERE item_id = ?", arguments: [itemID]).map(entry)
    }

    /// Changes waiting to be pushed: outbox entries and deletions.
    static func pendingCount(in db: Database) throws -> Int {
        try Int.fetchOne(db, sql: """
            SELECT (SELECT count(*) FROM sync_outbox) + (SELECT count(*) FROM sync_records WHERE pending_delete <> 0)
            """) ?? 0
    }

    /// Clears an entry; with `sequence`, only if no newer change renumbered it meanwhile.
    static func removeOutbox(itemID: Int64, sequence: Int64? = nil, in db: Database) throws {
        if let sequence {
            try db.execute(sql: "DELETE FROM sync_outbox WHERE item_id = ? AND sequence = ?", arguments: [itemID, sequence])
        } else {
            try db.execute(sql: "DELETE FROM sync_outbox WHERE item_id = ?", arguments: [itemID])
        }
    }

    // MARK: Records

    private static let recordColumns = "tag, item_id, group_id, modified, device, revision, deleted, pending_delete, recorded_at"

    private static func record(_ row: Row) -> SyncRecordState {
        let pending: Int64 = row["pending_delete"]
        return SyncRecordState(tag: Array(row["tag"] as Data), itemID: row["item_id"], groupID: Array(row["group_id"] as Data),
                               version: SyncVersion(modified: row["modified"], device: Array(row["device"] as Data)),
                               revision: row["revision"], deleted: row["deleted"] as Int64 == 1,
                               pendingDeletion: pending == 0 ? nil : pending)
    }

    static func record(tag: [UInt8], in db: Database) throws -> SyncRecordState? {
        try Row.fetchOne(db, sql: "SELECT \(recordColumns) FROM sync_records WHERE tag = ?", arguments: [Data(tag)]).map(record)
    }

    static func record(itemID: Int64, in db: Database) throws -> SyncRecordState? {
        try Row.fetchOne(db, sql: "SELECT \(recordColumns) FROM sync_records WHERE item_id = ?", arguments: [itemID]).map(record)
    }

    /// Records of items deleted here whose tombstones are not pushed yet.
    static func pendingDeletions(limit: Int, in db: Database) throws -> [SyncRecordState] {
        try Row.fetchAll(db, sql: pendingDeletionsSQL, arguments: [limit]).map(record)
    }

    /// Tombstones this device pushed or applied before `cutoff` (microseconds) and that are
    /// still in etcd (a purged one keeps its row with revision 0): the purge's candidates.
    static func tombstones(recordedBefore cutoff: Int64, limit: Int, in db: Database) throws -> [SyncRecordState] {
        try Row.fetchAll(db, sql: tombstonesSQL, arguments: [cutoff, limit]).map(record)
    }

    static func records(in db: Database) throws -> [SyncRecordState] {
        try Row.fetchAll(db, sql: "SELECT \(recordColumns) FROM sync_records").map(record)
    }

    static func recordCount(in db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_records") ?? 0
    }

    static func save(_ state: SyncRecordState, in db: Database) throws {
        if let itemID = state.itemID {
            // One record per item: an item whose primary key changed leaves its old tag to be
            // pushed as a deletion.
            try db.execute(sql: """
                UPDATE sync_records SET item_id = NULL, pending_delete = ? WHERE item_id = ? AND tag <> ?
                """, arguments: [SyncVersion.microseconds(Date()), itemID, Data(state.tag)])
        }
        try db.execute(sql: """
            INSERT INTO sync_records (\(recordColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (tag) DO UPDATE SET item_id = excluded.item_id, group_id = excluded.group_id,
                modified = excluded.modified, device = excluded.device, revision = excluded.revision,
                deleted = excluded.deleted, pending_delete = excluded.pending_delete, recorded_at = excluded.recorded_at
            """, arguments: [Data(state.tag), state.itemID, Data(state.groupID), state.version.modified, Data(state.version.device),
                             state.revision, state.deleted ? 1 : 0, state.pendingDeletion ?? 0, SyncVersion.microseconds(Date())])
    }

    /// Forgets every record and pending change (leaving a circle).
    static func reset(in db: Database) throws {
        try db.execute(sql: "DELETE FROM sync_records; DELETE FROM sync_outbox; DELETE FROM sync_state")
    }
}

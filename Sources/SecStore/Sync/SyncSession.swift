import Foundation
internal import GRDB

/// What the sync engine (the `SecStoreSync` module) may do with a store, inside one
/// transaction: read and clear the journal (``SyncJournal``), read items whole, and apply
/// items that arrived from other devices without queueing them again.
///
/// Valid only inside the closure of ``SecretStore/syncWrite(_:)`` or
/// ``SecretStore/syncRead(_:)`` it was given to.
///
/// ```swift
/// let pending = try store.syncRead { try $0.outbox(limit: 100) }
/// ```
package struct SyncSession {
    let engine: ItemEngine
    let db: Database

    // MARK: Journal

    /// Whether the store syncs, and the last etcd revision applied.
    package func state() throws -> (enabled: Bool, revision: Int64) { try SyncJournal.state(in: db) }

    package func setState(enabled: Bool, revision: Int64) throws {
        try SyncJournal.setState(enabled: enabled, revision: revision, in: db)
    }

    /// When the last complete pass ended, in microseconds since 1970 (0: never).
    package func syncedAt() throws -> Int64 { try SyncJournal.syncedAt(in: db) }

    package func setSyncedAt(_ microseconds: Int64) throws { try SyncJournal.setSyncedAt(microseconds, in: db) }

    package func outbox(limit: Int) throws -> [SyncOutboxEntry] { try SyncJournal.outbox(limit: limit, in: db) }

    package func outboxEntry(itemID: Int64) throws -> SyncOutboxEntry? { try SyncJournal.outboxEntry(itemID: itemID, in: db) }

    package func removeOutbox(itemID: Int64, sequence: Int64? = nil) throws {
        try SyncJournal.removeOutbox(itemID: itemID, sequence: sequence, in: db)
    }

    package func pendingCount() throws -> Int { try SyncJournal.pendingCount(in: db) }

    package func pendingDeletions(limit: Int) throws -> [SyncRecordState] { try SyncJournal.pendingDeletions(limit: limit, in: db) }

    package func record(tag: [UInt8]) throws -> SyncRecordState? { try SyncJournal.record(tag: tag, in: db) }

    package func record(itemID: Int64) throws -> SyncRecordState? { try SyncJournal.record(itemID: itemID, in: db) }

    package func recordCount() throws -> Int { try SyncJournal.recordCount(in: db) }

    package func records() throws -> [SyncRecordState] { try SyncJournal.records(in: db) }

    /// Tombstones still in etcd that this device recorded before `cutoff` (microseconds), at most `limit`.
    package func tombstones(recordedBefore cutoff: Int64, limit: Int) throws -> [SyncRecordState] {
        try SyncJournal.tombstones(recordedBefore: cutoff, limit: limit, in: db)
    }

    /// Queues a record to be pushed again as it is (sealed under a new epoch's key): its
    /// item, or its tombstone.
    package func requeue(_ record: SyncRecordState) throws {
        if let itemID = record.itemID {
            try SyncJournal.noteChanged(itemID: itemID, eligible: true, now: Date(), in: db)
        } else if record.deleted && record.pendingDeletion == nil && record.revision > 0 {
            // (A tombstone already purged from etcd, revision 0, stays purged.)
            var tombstone = record
            tombstone.pendingDeletion = record.version.modified
            try SyncJournal.save(tombstone, in: db)
        }
    }

    package func save(_ record: SyncRecordState) throws { try SyncJournal.save(record, in: db) }

    /// Joins the store to a circle: sync is on, and every item that syncs is queued.
    package func enable(now: Date = Date()) throws {
        let revision = try state().revision
        try setState(enabled: true, revision: revision)
        for id in try synchronizableItemIDs() {
            try SyncJournal.noteChanged(itemID: id, eligible: true, now: now, in: db)
        }
    }

    /// Leaves the circle: sync is off, and the journal forgets every record and change.
    package func disable() throws { try SyncJournal.reset(in: db) }

    // MARK: Items

    /// Item `id` whole, or `nil` when it is gone. Its blobs are authenticated: a damaged row
    /// is `corruptData`, never handed to other devices.
    package func item(id: Int64) throws -> SyncedItem? {
        guard let row = try ItemsTable.row(id: id, path: engine.database.path, in: db) else { return nil }
        let opened = try RowScanner(engine: engine).open(row, in: db)
        var attributes = opened.attributes
        attributes.accessibility = row.accessibility
        return SyncedItem(itemClass: row.itemClass, attributes: attributes, secret: opened.secret)
    }

    /// Item `itemID`'s persistent reference (its random half tells a reused row id apart), or
    /// `nil` when there is no such row.
    package func reference(itemID: Int64) throws -> [UInt8]? {
        try ItemsTable.reference(id: itemID, in: db)
    }

    /// Item `id`'s attributes (its accessibility included), or `nil` when it is gone; its
    /// secret is not opened.
    package func attributes(id: Int64) throws -> Attributes? {
        guard let row = try ItemsTable.row(id: id, path: engine.database.path, in: db) else { return nil }
        var attributes = try RowScanner(engine: engine).attributes(of: row, in: db)
        attributes.accessibility = row.accessibility
        return attributes
    }

    /// The ids of every item that syncs (only their metadata is opened, to read `sync`).
    package func synchronizableItemIDs() throws -> [Int64] {
        var ids: [Int64] = []
        let scanner = RowScanner(engine: engine)
        try scanner.forEachRow(in: db) { row in
            var attributes = try scanner.attributes(of: row, in: db)
            attributes.accessibility = row.accessibility
            if SyncJournal.isEligible(attributes) { ids.append(row.id) }
        }
        return ids
    }

    /// The local item with the same primary key as `item`, if any.
    package func itemID(samePrimaryKeyAs item: SyncedItem) throws -> Int64? {
        let attributes = try validated(item)
        let tag = engine.planner.groupTags.tags(for: item.itemClass, attributes: attributes).primaryKey
        return try ItemsTable.row(primaryKeyTag: tag, path: engine.database.path, in: db)?.id
    }

    /// Adds an item that arrived from another device, as it was (dates included), without
    /// queueing it. Returns its id. A primary-key collision is `duplicateItem`.
    package func insert(_ item: SyncedItem) throws -> Int64 {
        let attributes = try validated(item)
        let prepared = try engine.sealNewRow(item.itemClass, attributes: attributes, secret: item.secret, in: db)
        try ItemsTable.insert(prepared.row, metadata: prepared.metadata, secret: prepared.secret,
                              digest: engine.vault.itemsDigest, in: db)
        return prepared.row.id
    }

    /// Replaces item `id` with one that arrived from another device, without queueing it.
    package func replace(id: Int64, with item: SyncedItem) throws {
        let attributes = try validated(item)
        guard let existing = try ItemsTable.row(id: id, path: engine.database.path, in: db) else {
            throw SecStoreError.notFound
        }
        let stored = StoredItem(id: id, ref: existing.ref, itemClass: item.itemClass,
                                accessibility: attributes.accessibility ?? .whenUnlocked)
        guard existing.itemClass == item.itemClass else {
            throw SecStoreError(.corruptData, "A synced record changed the class of a local item. Run `secstore sync status`.")
        }
        let row = ItemRow(stored: stored, tags: engine.planner.groupTags.tags(for: item.itemClass, attributes: attributes))
        let keys = try engine.vault.itemKeys(for: row.accessibility, in: db)
        let prepared = try engine.seal(row: row, attributes: attributes, secret: item.secret, keys: keys)
        try ItemsTable.updateSealedRow(prepared.row, metadata: prepared.metadata, secret: prepared.secret,
                                       digest: engine.vault.itemsDigest, in: db)
        try ItemsTable.replaceCustomTags(prepared.row.tags.custom, id: id, in: db)
    }

    /// Deletes item `id` because another device deleted it, and saves its record as `state`
    /// (which must no longer name the item: SQLite reuses row ids): no tombstone is queued, a
    /// pending push of the item is dropped, and the record is written once.
    package func delete(id: Int64, recording state: SyncRecordState) throws {
        guard state.itemID != id else {
            throw SecStoreError.invalid("the record of a deleted synced item still names the item")
        }
        try ItemsTable.delete(id: id, digest: engine.vault.itemsDigest, queuesTombstone: false, in: db)
        try save(state)
    }

    /// A record's key is gone from etcd (a purged tombstone, deleted by whichever device
    /// purged it, or by etcd's operator): its state keeps the version, so a replay is still
    /// refused, with revision 0, so that it is no purge candidate and the next push creates
    /// the key afresh. Only when this device saw nothing newer there than `revision` (`nil`:
    /// whatever it saw).
    package func markGone(tag: [UInt8], seenAt revision: Int64? = nil) throws {
        guard var record = try record(tag: tag), record.revision > 0, record.revision <= revision ?? .max else { return }
        record.revision = 0
        try save(record)
    }

    /// Item `itemID` stops being what its record is (it stopped syncing, or became a conflict
    /// copy): the record waits to be pushed as a tombstone, with `changed` (microseconds) as
    /// the deletion's time, and the item's outbox entry is dropped.
    package func detach(itemID: Int64, changed: Int64) throws {
        try SyncJournal.detach(itemID: itemID, changed: changed, in: db)
    }

    /// Runs `body` in a savepoint: when it throws, what it wrote is undone and the rest of the
    /// transaction goes on (one record that cannot be stored does not stop the others).
    package func savepoint(_ body: () throws -> Void) throws {
        try db.inSavepoint {
            try body()
            return .commit
        }
    }

    /// Apple's rules for a new item, applied to one from another device: class attributes
    /// only, values converted, its group and dates kept, its secret and free-form pairs within limits.
    private func validated(_ item: SyncedItem) throws -> Attributes {
        try RequestRules.checkSecretSize(item.secret.count)
        return try RequestRules.newItem(item.attributes, of: item.itemClass, group: { group in
            guard let group else { throw SecStoreError(.corruptData, "A synced item names no access group.") }
            return group
        }, dates: .keptOrNow(Date()))
    }
}

extension SecretStore {
    /// Runs `body` in one write transaction (`BEGIN IMMEDIATE`) with the sync primitives:
    /// everything it does commits together or not at all. Needs owner access.
    ///
    /// ```swift
    /// try store.syncWrite { session in try session.enable() }
    /// ```
    package func syncWrite<T>(_ body: (SyncSession) throws -> T) throws -> T {
        try RowScanner.requireOwner(engine.access, "Sync")
        return try SecStoreError.catching(path: engine.database.path) {
            try engine.database.write { db in
                try engine.beginWrite(db)
                return try body(SyncSession(engine: engine, db: db))
            }
        }
    }

    /// Runs `body` on a consistent snapshot of the store with the sync primitives (reads only).
    ///
    /// ```swift
    /// let pending = try store.syncRead { try $0.pendingCount() }
    /// ```
    package func syncRead<T>(_ body: (SyncSession) throws -> T) throws -> T {
        try RowScanner.requireOwner(engine.access, "Sync")
        return try SecStoreError.catching(path: engine.database.path) {
            try engine.database.read { db in
                try engine.vault.reloadIfChanged(db)
                return try body(SyncSession(engine: engine, db: db))
            }
        }
    }
}

import Foundation
internal import GRDB

/// Every write on the `items` table.
///
/// Every write moves the store's items digest (``ItemsDigest``) in the same transaction; a
/// deletion also tells the sync journal (``SyncJournal``), which queues a synced item's tombstone.
extension ItemsTable {
    /// Inserts a sealed row (always the current ``ItemSealing/Format``). A primary-key
    /// collision (the `UNIQUE` `pk_tag`) is `duplicateItem` and writes nothing.
    static func insert(_ row: ItemRow, metadata: Data, secret: Data, digest: ItemsDigest, in db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            INSERT INTO items (id, ref, class, accessibility, pk_tag, name_tag, account_tag, group_tag, metadata, secret, format)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        precondition(row.format == .current, "new rows are sealed in the current format")
        try digest.inserting(digest.hash(of: row, metadata: metadata, secret: secret), in: db) {
            try refusingDuplicates(row.itemClass) {
                try SQLiteRows.execute(statement, arguments: [
                    .integer(row.id), .blob(row.ref), .integer(Int64(row.itemClass.code)), .integer(Int64(row.accessibility.code)),
                    .blob(row.tags.primaryKey), .blob(row.tags.name), .blob(row.tags.account), .blob(row.tags.group),
                    .data(metadata), .data(secret), .integer(ItemSealing.Format.current.rawValue),
                ], in: db)
            }
        }
        try insertCustomTags(row.tags.custom, id: row.id, in: db)
    }

    /// Replaces the sealed attributes of `row`, of the current format, its tags and its
    /// sealed secret (`secretBlob`) unchanged. `previous` is the row's contribution to the
    /// digest as stored (``ItemsDigest/hash(_:)``, taken in this transaction).
    static func updateMetadata(_ row: ItemRow, metadata: Data, secretBlob: [UInt8], previous: [UInt8], digest: ItemsDigest,
                               in db: Database) throws {
        let statement = try db.cachedStatement(sql: "UPDATE items SET metadata = ? WHERE id = ?")
        try digest.replacing(previous, with: digest.hash(of: row, metadata: metadata, secret: secretBlob), in: db) {
            try SQLiteRows.execute(statement, arguments: [.data(metadata), .integer(row.id)], in: db)
            try requireOneRowChanged(row.id, in: db)
        }
    }

    /// Replaces both blobs of `row`, of the current format, whose accessibility and tags stay
    /// as they are (a new secret, attributes outside the primary key). Naming only the blob
    /// columns keeps SQLite away from every index: an `UPDATE` that names an indexed column
    /// rewrites that index's entry even when the value is unchanged, which tripled the pages
    /// each such commit wrote. `previous` as for ``updateMetadata(_:metadata:secretBlob:previous:digest:in:)``.
    static func updateBlobs(_ row: ItemRow, metadata: Data, secret: Data, previous: [UInt8], digest: ItemsDigest,
                            in db: Database) throws {
        let statement = try db.cachedStatement(sql: "UPDATE items SET metadata = ?, secret = ? WHERE id = ?")
        try digest.replacing(previous, with: digest.hash(of: row, metadata: metadata, secret: secret), in: db) {
            try SQLiteRows.execute(statement, arguments: [.data(metadata), .data(secret), .integer(row.id)], in: db)
            try requireOneRowChanged(row.id, in: db)
        }
    }

    /// Replaces a row's accessibility, tags and both blobs, sealed in the current format. A
    /// collision with another row's primary key is `duplicateItem`. `previous` is the row's
    /// contribution to the digest as stored, when the caller took it in this transaction;
    /// `nil` reads the row.
    static func updateSealedRow(_ row: ItemRow, metadata: Data, secret: Data, previous: [UInt8]? = nil, digest: ItemsDigest,
                                in db: Database) throws {
        let statement = try db.cachedStatement(sql: """
            UPDATE items SET accessibility = ?, pk_tag = ?, name_tag = ?, account_tag = ?, group_tag = ?,
                             metadata = ?, secret = ?, format = ? WHERE id = ?
            """)
        precondition(row.format == .current, "rewritten rows are sealed in the current format")
        guard let previous = try previous ?? digest.contribution(ofRow: row.id, in: db) else { throw SecStoreError.notFound }
        try digest.replacing(previous, with: digest.hash(of: row, metadata: metadata, secret: secret), in: db) {
            try refusingDuplicates(row.itemClass) {
                try SQLiteRows.execute(statement, arguments: [
                    .integer(Int64(row.accessibility.code)), .blob(row.tags.primaryKey), .blob(row.tags.name),
                    .blob(row.tags.account), .blob(row.tags.group), .data(metadata), .data(secret),
                    .integer(ItemSealing.Format.current.rawValue), .integer(row.id),
                ], in: db)
            }
            try requireOneRowChanged(row.id, in: db)
        }
    }

    /// An `UPDATE` by id whose new contribution to the digest was computed from its values
    /// must have changed that row: anything else would leave the digest out of step.
    private static func requireOneRowChanged(_ id: Int64, in db: Database) throws {
        guard db.changesCount == 1 else {
            throw SecStoreError(.storeUnavailable, "Row \(id) was not there to write; nothing was changed. This is a SecStore defect: please report it.")
        }
    }

    /// Deletes row `id`. With `queuesTombstone` false (a deletion that came from another
    /// device), the sync journal queues no tombstone for it: the caller records what it applied.
    /// `previous` is the row's contribution to the digest as stored, when the caller took it
    /// in this transaction; `nil` reads the row.
    static func delete(id: Int64, previous: [UInt8]? = nil, digest: ItemsDigest, queuesTombstone: Bool = true,
                       in db: Database) throws {
        let statement = try db.cachedStatement(sql: "DELETE FROM items WHERE id = ?")
        // A row that is not there has nothing to delete; what follows a deletion still runs.
        if let previous = try previous ?? digest.contribution(ofRow: id, in: db) {
            try digest.replacing(previous, with: nil, in: db) {
                try SQLiteRows.execute(statement, arguments: [.integer(id)], in: db)
                try requireOneRowChanged(id, in: db)
            }
        } else {
            try digest.checkWritable(in: db)
        }
        try didDelete(id: id, queuesTombstone: queuesTombstone, in: db)
    }

    /// What follows the deletion of row `id`, whichever statement deleted it: its free-form
    /// tags go, and the sync journal learns of it (or only drops its pending push).
    private static func didDelete(id: Int64, queuesTombstone: Bool = true, in db: Database) throws {
        try deleteCustomTags(id: id, in: db)
        if queuesTombstone {
            try SyncJournal.noteDeleted(itemID: id, in: db)
        } else {
            try SyncJournal.removeOutbox(itemID: id, in: db)
        }
    }

    /// Deletes the row with this primary key, if any.
    static func delete(primaryKeyTag: [UInt8], digest: ItemsDigest, in db: Database) throws {
        let ids = try Int64.fetchAll(db, sql: "SELECT id FROM items WHERE pk_tag = ?", arguments: [Data(primaryKeyTag)])
        for id in ids { try delete(id: id, digest: digest, in: db) }
    }

    /// Deletes the row a reference names (its id, and its `ref` and class as the reference
    /// has them), without opening it. Returns whether there was one.
    static func delete(reference: PersistentReference, digest: ItemsDigest, in db: Database) throws -> Bool {
        let id = StoredItem.rowID(of: reference)
        var previous: [UInt8]?
        try withRow(id: id, in: db) { row in
            guard row.classCode == Int64(reference.itemClass.code), row.ref.elementsEqual(reference.id) else { return }
            previous = digest.hash(row)
        }
        guard let previous else {
            try digest.checkWritable(in: db)
            return false
        }
        try delete(id: id, previous: previous, digest: digest, in: db)
        return true
    }

    /// Deletes every row of one accessibility class. Returns how many.
    static func deleteAll(_ accessibility: Accessibility, digest: ItemsDigest, in db: Database) throws -> Int {
        let ids = try ids(of: accessibility, in: db)
        for id in ids { try delete(id: id, digest: digest, in: db) }
        return ids.count
    }

    /// The one place SQLite's constraint error becomes `duplicateItem`: the only constraint
    /// of `items` an item write can break is the unique primary-key tag. Any other constraint
    /// (a unique index, a `CHECK`) is none the format defines: planted in the file while this
    /// handle had it open, since the open refuses a file that holds one
    /// (``Schema/checkObjects(_:version:path:)``). That is damage, never a duplicate for the
    /// caller to resolve.
    private static func refusingDuplicates(_ itemClass: ItemClass, _ write: () throws -> Void) throws {
        do {
            try write()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            guard error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE, error.message == "UNIQUE constraint failed: items.pk_tag" else {
                throw SecStoreError(.corruptData, "A write to the store's items broke a constraint the store's format does not define (SQLite: \(PrintableText.escaped(error.message ?? "constraint failed", atMost: 200))): its schema was changed inside the file while this program had it open. Nothing was written. Reopen the store: the open names what was changed.")
            }
            let key = itemClass.primaryKey.map(\.rawValue).joined(separator: ", ")
            throw SecStoreError(.duplicateItem, "An item with the same primary key (\(itemClass): \(key)) already exists. Update it instead, or change one of those attributes.")
        }
    }
}

import Foundation
internal import GRDB

/// The one owner of the `items` table (created in ``Schema``): every statement on it, and
/// the one decoder of its rows. The engine, backup import and export, verification,
/// statistics and passphrase removal call these functions; none writes SQL of its own.
///
/// Statements go through ``SQLiteRows`` and `cachedStatement`, so each is prepared once per
/// connection and its rows are read without copies.
enum ItemsTable {
    /// Every column, in the order ``RowView`` reads them.
    static let columns = "id, ref, class, accessibility, pk_tag, name_tag, account_tag, group_tag, metadata, secret, format"

    // MARK: Reading

    /// One row as SQLite hands it out, valid only during the callback that received it.
    /// Every column is read from SQLite once, when the view is made: a row is looked at
    /// several times (its identity, then the associated data of both blobs), and each
    /// `sqlite3_column_*` call costs as much as the look.
    struct RowView {
        let id: Int64
        let ref: UnsafeRawBufferPointer
        let classCode: Int64
        let accessibilityCode: Int64
        let primaryKeyTag: UnsafeRawBufferPointer
        let nameTag: UnsafeRawBufferPointer
        let accountTag: UnsafeRawBufferPointer
        let groupTag: UnsafeRawBufferPointer
        let metadata: UnsafeRawBufferPointer
        let secret: UnsafeRawBufferPointer
        /// How the row's blobs are sealed (``ItemSealing/Format``).
        let format: Int64

        /// The columns in the order of ``ItemsTable/columns``.
        init(columns: SQLiteRows.Columns) {
            id = columns.integer(0)
            ref = columns.bytes(1)
            classCode = columns.integer(2)
            accessibilityCode = columns.integer(3)
            primaryKeyTag = columns.bytes(4)
            nameTag = columns.bytes(5)
            accountTag = columns.bytes(6)
            groupTag = columns.bytes(7)
            metadata = columns.bytes(8)
            secret = columns.bytes(9)
            format = columns.integer(10)
        }

        /// The row's item, or `nil` when its class, accessibility, reference or tag lengths
        /// are not ones SecStore writes: a damaged or foreign row.
        var item: StoredItem? {
            guard ItemTags.haveValidLengths(primaryKey: primaryKeyTag.count, name: nameTag.count,
                                            account: accountTag.count, group: groupTag.count)
            else { return nil }
            return StoredItem(id: id, ref: ref, classCode: classCode, accessibilityCode: accessibilityCode, formatCode: format)
        }

        /// What a malformed row still tells: its reference, when its class and ref are readable.
        var readableReference: PersistentReference? {
            guard let itemClass = ItemClass(code: UInt8(truncatingIfNeeded: classCode)),
                  ref.count == PersistentReference.idByteCount
            else { return nil }
            return PersistentReference(itemClass: itemClass, id: Array(ref))
        }

        /// The row's tags, copied (no free-form ones: those are in `item_attributes`).
        var tags: ItemTags {
            ItemTags(primaryKey: Array(primaryKeyTag), name: Array(nameTag), account: Array(accountTag), group: Array(groupTag))
        }

        /// The whole row, copied: the view of whole-store scans.
        func copy(path: String) throws -> ItemRow {
            guard let item else { throw StoredItem.damagedRow(id, path) }
            return ItemRow(stored: item, tags: tags, metadata: Data(metadata), secret: Data(secret))
        }
    }

    /// The rows a query plan's conditions select, in id order, until `body` returns false.
    /// `text` is asked for only when the connection has not prepared this shape yet.
    static func select(_ shape: QueryPlan.Shape, text: () -> String, arguments: [SQLiteRows.Argument],
                       statements: PreparedStatements?, in db: Database, _ body: (RowView) throws -> Bool) throws {
        let prepared = try shape.key.flatMap { key in try statements?.statement(key, in: db, sql: text) }
        let statement = try prepared ?? db.cachedStatement(sql: text())
        try SQLiteRows.forEach(statement, arguments: arguments, in: db) { try body(RowView(columns: $0)) }
    }

    /// The SQL of a query plan's shape: the tag conditions it binds, `LIMIT` when rows
    /// need no filtering after decryption.
    static func selectText(_ shape: QueryPlan.Shape) -> String {
        var conditions = ["class = ?"]
        if shape.byReference { conditions.append("id = ? AND ref = ?") }
        // Every item of an app shares its group tag, so the group index only serves a query
        // with no other tag. With one, `+group_tag` keeps SQLite (which has no statistics)
        // from walking the whole group instead of the service's or account's index.
        let groupIsFilter = shape.byReference || shape.primaryKeyTags + shape.nameTags + shape.accountTags > 0
        for (column, count) in [("pk_tag", shape.primaryKeyTags), ("group_tag", shape.groupTags), ("name_tag", shape.nameTags),
                                ("account_tag", shape.accountTags)] where count > 0 {
            let term = column == "group_tag" && groupIsFilter ? "+group_tag" : column
            conditions.append(count == 1 ? "\(term) = ?" : "\(term) IN (\(Array(repeating: "?", count: count).joined(separator: ", ")))")
        }
        // One condition per free-form pair: its tags (one per `sync` value) through the tag index.
        let customTerm = "id IN (SELECT item_id FROM item_attributes WHERE tag IN (\(Array(repeating: "?", count: shape.customTagsPerPair).joined(separator: ", "))))"
        conditions += Array(repeating: customTerm, count: shape.customPairs)
        var sql = "SELECT \(columns) FROM items WHERE \(conditions.joined(separator: " AND "))" + (shape.unordered ? "" : " ORDER BY id")
        if let limit = shape.limit { sql += " LIMIT \(limit)" }
        return sql
    }

    /// Every row in id order, streamed (memory stays flat with store size).
    static func forEachRow(in db: Database, _ body: (RowView) throws -> Void) throws {
        let statement = try db.cachedStatement(sql: "SELECT \(columns) FROM items ORDER BY id")
        try SQLiteRows.forEach(statement, arguments: [], in: db) { view in
            try body(RowView(columns: view))
            return true
        }
    }

    /// Calls `body` with the row `id`, if there is one.
    static func withRow(id: Int64, in db: Database, _ body: (RowView) throws -> Void) throws {
        let statement = try db.cachedStatement(sql: "SELECT \(columns) FROM items WHERE id = ?")
        try SQLiteRows.forEach(statement, arguments: [.integer(id)], in: db) { view in
            try body(RowView(columns: view))
            return false
        }
    }

    /// The ids of the rows of one accessibility class.
    static func ids(of accessibility: Accessibility, in db: Database) throws -> [Int64] {
        try Int64.fetchAll(db, sql: "SELECT id FROM items WHERE accessibility = ?", arguments: [Int64(accessibility.code)])
    }

    /// Whether rows of format version 1 remain in these classes (an index lookup).
    static func hasVersion1Rows(of classes: [Accessibility], in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM items WHERE format = 1 AND accessibility IN (\(codes(classes))))") ?? false
    }

    /// Up to `limit` rows of format version 1 in these classes with ids above `after`, in id
    /// order, and the last id looked at (`nil` when none was). Malformed rows are passed over.
    static func version1Rows(of classes: [Accessibility], after: Int64, limit: Int, path: String,
                             in db: Database) throws -> (rows: [ItemRow], lastID: Int64?) {
        let statement = try db.cachedStatement(sql: """
            SELECT \(columns) FROM items WHERE format = 1 AND accessibility IN (\(codes(classes))) AND id > ? ORDER BY id LIMIT ?
            """)
        var rows: [ItemRow] = []
        var lastID: Int64?
        try SQLiteRows.forEach(statement, arguments: [.integer(after), .integer(Int64(limit))], in: db) { view in
            let row = RowView(columns: view)
            lastID = row.id
            if let copy = try? row.copy(path: path) { rows.append(copy) }
            return true
        }
        return (rows, lastID)
    }

    private static func codes(_ classes: [Accessibility]) -> String {
        classes.map { String($0.code) }.joined(separator: ", ")
    }

    /// The row with this primary key, blobs included, or nil.
    static func row(primaryKeyTag: [UInt8], path: String, in db: Database) throws -> ItemRow? {
        let statement = try db.cachedStatement(sql: "SELECT \(columns) FROM items WHERE pk_tag = ?")
        var found: ItemRow?
        try SQLiteRows.forEach(statement, arguments: [.blob(primaryKeyTag)], in: db) { view in
            found = try RowView(columns: view).copy(path: path)
            return false
        }
        return found
    }

    /// The `ref` column of row `id`, or nil.
    static func reference(id: Int64, in db: Database) throws -> [UInt8]? {
        var found: [UInt8]?
        try SQLiteRows.forEach(try db.cachedStatement(sql: "SELECT ref FROM items WHERE id = ?"), arguments: [.integer(id)], in: db) {
            found = Array($0.bytes(0))
            return false
        }
        return found
    }

    /// The row `id`, blobs included, or nil.
    static func row(id: Int64, path: String, in db: Database) throws -> ItemRow? {
        var found: ItemRow?
        try withRow(id: id, in: db) { found = try $0.copy(path: path) }
        return found
    }

    /// How many rows there are, of any accessibility or of those given.
    static func count(accessibilities: [Accessibility]? = nil, in db: Database) throws -> Int {
        var sql = "SELECT count(*) FROM items"
        if let accessibilities {
            sql += " WHERE accessibility IN (\(codes(accessibilities)))"
        }
        return try integer(sql, in: db)
    }

    /// The id the next row gets. Safe because every write holds the store's write lock.
    static func nextRowID(in db: Database) throws -> Int64 {
        Int64(try integer("SELECT ifnull(max(id), 0) + 1 FROM items", in: db))
    }

    private static func integer(_ sql: String, in db: Database) throws -> Int {
        var value: Int64 = 0
        try SQLiteRows.forEach(try db.cachedStatement(sql: sql), arguments: [], in: db) { columns in
            value = columns.integer(0)
            return false
        }
        return Int(value)
    }

    // MARK: Writing
    //
    // Every write moves the store's items digest (``ItemsDigest``) in the same transaction; a
    // deletion also tells the sync journal (``SyncJournal``), which queues a synced item's tombstone.

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

    /// Replaces the free-form attribute tags of row `id` (its pairs, or its class or `sync`, changed).
    static func replaceCustomTags(_ tags: [[UInt8]], id: Int64, in db: Database) throws {
        try deleteCustomTags(id: id, in: db)
        try insertCustomTags(tags, id: id, in: db)
    }

    private static func insertCustomTags(_ tags: [[UInt8]], id: Int64, in db: Database) throws {
        guard !tags.isEmpty else { return }
        // OR IGNORE: two pairs of one item with the same tag (a 128-bit collision) need one row.
        let statement = try db.cachedStatement(sql: "INSERT OR IGNORE INTO item_attributes (tag, item_id) VALUES (?, ?)")
        for tag in tags {
            try SQLiteRows.execute(statement, arguments: [.blob(tag), .integer(id)], in: db)
        }
    }

    private static func deleteCustomTags(id: Int64, in db: Database) throws {
        try SQLiteRows.execute(try db.cachedStatement(sql: "DELETE FROM item_attributes WHERE item_id = ?"),
                               arguments: [.integer(id)], in: db)
    }

    /// The free-form attribute tags stored for row `id`, sorted (`verify` compares them with
    /// the tags of the pairs its metadata holds).
    static func customTags(id: Int64, in db: Database) throws -> [[UInt8]] {
        var tags: [[UInt8]] = []
        try SQLiteRows.forEach(try db.cachedStatement(sql: "SELECT tag FROM item_attributes WHERE item_id = ? ORDER BY tag"),
                               arguments: [.integer(id)], in: db) { columns in
            tags.append(Array(columns.bytes(0)))
            return true
        }
        return tags
    }

    /// Tag rows whose item is gone (`verify` reports them; nothing else can leave them).
    static func orphanCustomTagCount(in db: Database) throws -> Int {
        try integer("SELECT count(*) FROM item_attributes WHERE item_id NOT IN (SELECT id FROM items)", in: db)
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
    /// an item write can break is the unique primary-key tag.
    private static func refusingDuplicates(_ itemClass: ItemClass, _ write: () throws -> Void) throws {
        do {
            try write()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            let key = itemClass.primaryKey.map(\.rawValue).joined(separator: ", ")
            throw SecStoreError(.duplicateItem, "An item with the same primary key (\(itemClass): \(key)) already exists. Update it instead, or change one of those attributes.")
        }
    }
}

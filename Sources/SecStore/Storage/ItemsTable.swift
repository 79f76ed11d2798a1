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
    //
    // Rows are handed out as ``RowView``s (ItemsTable+RowView.swift); the writes are in
    // ItemsTable+Writes.swift, the free-form attribute tags' table in ItemsTable+CustomTags.swift.

    /// The rows a query plan's conditions select, in id order, until `body` returns false.
    /// `text` is asked for only when the connection has not prepared this shape yet.
    static func select(_ shape: QueryPlan.Shape, text: () -> String, arguments: [SQLiteRows.Argument],
                       on connection: SearchConnection, _ body: (RowView) throws -> Bool) throws {
        let statement = try connection.statement(shape.key, sql: text)
        try SQLiteRows.forEach(statement, arguments: arguments, in: connection.db) { try body(RowView(columns: $0)) }
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

    static func codes(_ classes: [Accessibility]) -> String {
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

    static func integer(_ sql: String, in db: Database) throws -> Int {
        var value: Int64 = 0
        try SQLiteRows.forEach(try db.cachedStatement(sql: sql), arguments: [], in: db) { columns in
            value = columns.integer(0)
            return false
        }
        return Int(value)
    }
}

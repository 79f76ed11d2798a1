import Foundation
internal import GRDB

/// The `item_attributes` table: one blind-index tag per free-form attribute pair of an item
/// (``ItemTags/custom``), written with the item's row and deleted with it.
extension ItemsTable {
    /// Replaces the free-form attribute tags of row `id` (its pairs, or its class or `sync`, changed).
    static func replaceCustomTags(_ tags: [[UInt8]], id: Int64, in db: Database) throws {
        try deleteCustomTags(id: id, in: db)
        try insertCustomTags(tags, id: id, in: db)
    }

    static func insertCustomTags(_ tags: [[UInt8]], id: Int64, in db: Database) throws {
        guard !tags.isEmpty else { return }
        // OR IGNORE: two pairs of one item with the same tag (a 128-bit collision) need one row.
        let statement = try db.cachedStatement(sql: "INSERT OR IGNORE INTO item_attributes (tag, item_id) VALUES (?, ?)")
        for tag in tags {
            try SQLiteRows.execute(statement, arguments: [.blob(tag), .integer(id)], in: db)
        }
    }

    static func deleteCustomTags(id: Int64, in db: Database) throws {
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
}

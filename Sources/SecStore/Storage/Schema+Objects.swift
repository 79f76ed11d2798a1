import Foundation
internal import GRDB

/// The check at open that a store file's schema is exactly what its format version defines.
///
/// A store is an SQLite file, and whoever can write it (a copied backup, a file on a shared or
/// synced drive, a store restored from elsewhere) can add schema objects that SQLite acts on by
/// itself, without knowing any key: a trigger that puts a deleted row back or an updated row's
/// old blobs, and the items digest with them, so that `delete` and `update` reported success,
/// the secret survived and `verify` found the store intact; a view or table under one of
/// SecStore's names; an index or a CHECK constraint that makes writes fail as duplicates; a
/// generated column; planner statistics (`sqlite_stat1`) that turn every lookup into a scan of
/// the whole table. Every connection already keeps triggers and views from running
/// (``SQLiteRows/hardenForUntrustedFile(_:)``); this refuses the file when it is opened, naming
/// every object its version does not define, every one it defines that is missing and every
/// one whose definition differs. Nothing is dropped or passed over: the store may have been
/// written under those objects, so its owner decides (restore a backup, or remove what they
/// added themselves).
extension Schema {
    /// One row of `sqlite_master`, less `rootpage` (where a b-tree starts defines nothing).
    struct Object: Hashable, Sendable {
        /// `table`, `index`, `trigger` or `view`.
        let type: String
        let name: String
        /// The table it belongs to (a table's own name).
        let table: String
        /// Its `CREATE` statement as SQLite keeps it; nil for an index SQLite makes itself for
        /// a `UNIQUE` or `PRIMARY KEY` constraint (`sqlite_autoindex_…`).
        let sql: String?

        /// Whether `row` (type, name, table, sql) names this object: its type and name.
        func isNamed(by row: SQLiteRows.Columns) -> Bool {
            UTF8Bytes.equal(name, row.bytes(1)) && UTF8Bytes.equal(type, row.bytes(0))
        }

        /// Whether `row` (type, name, table, sql) holds exactly this object, byte for byte.
        func matches(_ row: SQLiteRows.Columns) -> Bool {
            guard isNamed(by: row), UTF8Bytes.equal(table, row.bytes(2)) else { return false }
            guard let sql else { return row.isNull(3) }
            return !row.isNull(3) && UTF8Bytes.equal(sql, row.bytes(3))
        }
    }

    /// `sqlite_master`'s rows as they come: in the order they were written, which `VACUUM`
    /// changes (it writes the tables first, then the indexes), so each is looked up by name.
    /// Sorting them in SQL (`ORDER BY`) cost as much again as reading them.
    private static let objectsQuery = "SELECT type, name, tbl_name, sql FROM sqlite_master"

    /// The objects of format `version` (1 through ``currentVersion``), in ``objects(in:)``'s
    /// order (by type, then name). The current version's are written out (``currentObjects``);
    /// an older version's are what its migrations make on an empty in-memory database, built
    /// only when an older file is opened (once, to migrate it).
    static func objects(atVersion version: Int) throws -> [Object] {
        if version == currentVersion { return currentObjects }
        return try DatabaseQueue().write { db in
            for step in 0..<version { try migrations[step](db) }
            return try objects(in: db)
        }
    }

    /// The objects `sqlite_master` holds, by type then name. Read as text whatever the file
    /// stores there, so a row of another type is a difference to report, never a failed
    /// conversion.
    static func objects(in db: Database) throws -> [Object] {
        try Row.fetchAll(db, sql: """
            SELECT ifnull(CAST(type AS TEXT), ''), ifnull(CAST(name AS TEXT), ''), ifnull(CAST(tbl_name AS TEXT), ''),
                   CAST(sql AS TEXT)
            FROM sqlite_master ORDER BY 1, 2
            """).map { Object(type: $0[0], name: $0[1], table: $0[2], sql: $0[3]) }
    }

    /// Refuses, with `corruptData`, a file whose schema objects are not exactly those of its
    /// format `version` (1 through ``currentVersion``).
    ///
    /// Compared first as SQLite hands the rows out, without making a `String` of them: reading
    /// them into strings and comparing sets of them was most of the check's cost, which every
    /// open pays. A file that differs there is read again as text (a UTF-16 file's bytes differ
    /// from the same text's UTF-8), and refused if it differs as text too.
    static func checkObjects(_ db: Database, version: Int, path: String) throws {
        let expected = try objects(atVersion: version)
        // Each row must be an expected object not met yet (names are unique per type), and
        // every expected object must be met.
        var met = [Bool](repeating: false, count: expected.count)
        var count = 0
        var same = true
        try SQLiteRows.forEach(try db.makeStatement(sql: objectsQuery), arguments: [], in: db) { row in
            guard let index = expected.indices.first(where: { !met[$0] && expected[$0].isNamed(by: row) }),
                  expected[index].matches(row) else {
                same = false
                return false
            }
            met[index] = true
            count += 1
            return true
        }
        if same && count == expected.count { return }
        let found = try objects(in: db)
        guard found != expected else { return }
        throw SchemaDifference(found: Set(found), expected: Set(expected)).error(path: path, version: version)
    }
}

/// How a file's schema differs from its version's, for the message: objects added, changed
/// (same type and name, another definition) and missing.
private struct SchemaDifference {
    var added: [Schema.Object] = []
    var changed: [Schema.Object] = []
    var missing: [Schema.Object] = []

    init(found: Set<Schema.Object>, expected: Set<Schema.Object>) {
        let expectedKeys = Set(expected.map(Key.init))
        let foundKeys = Set(found.map(Key.init))
        for object in found.subtracting(expected) {
            if expectedKeys.contains(Key(object)) { changed.append(object) } else { added.append(object) }
        }
        missing = expected.filter { !foundKeys.contains(Key($0)) }
        for list in [\SchemaDifference.added, \.changed, \.missing] {
            self[keyPath: list].sort { ($0.type, $0.name) < ($1.type, $1.name) }
        }
    }

    func error(path: String, version: Int) -> SecStoreError {
        var parts: [String] = []
        if !added.isEmpty { parts.append("added: \(list(added, tables: true))") }
        if !changed.isEmpty { parts.append("changed: \(list(changed, tables: false))") }
        if !missing.isEmpty { parts.append("missing: \(list(missing, tables: false))") }
        let removal = added.isEmpty ? "" : "; if you added those objects yourself, remove them with the sqlite3 tool (DROP TRIGGER, DROP VIEW, DROP INDEX, DROP TABLE) and open it again"
        return SecStoreError(.corruptData, "The store \(path) is not as its format version \(version) defines it: SQLite schema objects were added, changed or removed inside the file by something other than SecStore (\(parts.joined(separator: "; "))). A trigger, view, index or planner statistics planted in a store can undo deletions and updates or make every lookup slow, so SecStore does not open it. Restore it from a backup (`secstore import`)\(removal).")
    }

    /// At most eight objects, each as `type “name”` (and `on table` for an added one), the
    /// names escaped: they come from the file, and the message may reach a terminal.
    private func list(_ objects: [Schema.Object], tables: Bool) -> String {
        var shown = objects.prefix(8).map { object in
            let name = "\(object.type) “\(Self.printable(object.name))”"
            return tables && object.table != object.name ? "\(name) on \(Self.printable(object.table))" : name
        }
        if objects.count > 8 { shown.append("\(objects.count - 8) more") }
        return shown.joined(separator: ", ")
    }

    /// The first 64 characters of `text`, control and format characters as `\u{…}` escapes.
    private static func printable(_ text: String) -> String {
        PrintableText.escaped(text, atMost: 64)
    }

    /// What names an object: SQLite keeps triggers apart from tables, indexes and views, so a
    /// trigger may share a table's name.
    private struct Key: Hashable {
        let type: String
        let name: String
        init(_ object: Schema.Object) {
            type = object.type
            name = object.name
        }
    }
}

import Foundation
import GRDB
import SecStore

/// Direct SQLite access to a store file, bypassing SecStore: for reading what is on disk
/// and for tampering with it the way an attacker with write access to the file could.
struct RawStoreFile {
    let url: URL

    /// One row of the `items` table, as stored.
    struct ItemRecord: Equatable {
        var id: Int64
        var ref: Data
        var itemClass: Int64
        var accessibility: Int64
        var pkTag: Data
        var nameTag: Data?
        var accountTag: Data
        var groupTag: Data
        var metadata: Data
        var secret: Data
    }

    private func queue() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        return try DatabaseQueue(path: url.path, configuration: configuration)
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try queue().read(body)
    }

    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try queue().write(body)
    }

    func items() throws -> [ItemRecord] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, ref, class, accessibility, pk_tag, name_tag, account_tag, group_tag, metadata, secret
                FROM items ORDER BY id
                """).map { row in
                ItemRecord(id: row["id"], ref: row["ref"], itemClass: row["class"], accessibility: row["accessibility"],
                           pkTag: row["pk_tag"], nameTag: row["name_tag"], accountTag: row["account_tag"],
                           groupTag: row["group_tag"], metadata: row["metadata"], secret: row["secret"])
            }
        }
    }

    /// The row whose `ref` column is `ref` (the last 16 bytes of a persistent reference).
    func item(ref: Data) throws -> ItemRecord {
        guard let record = try items().first(where: { $0.ref == ref }) else {
            throw RawStoreError.noSuchRow
        }
        return record
    }

    /// Sets one column of one row to `value`.
    func set(_ column: String, of id: Int64, to value: (any DatabaseValueConvertible)?) throws {
        try write { db in
            try db.execute(sql: "UPDATE items SET \(column) = ? WHERE id = ?", arguments: [value, id])
            guard db.changesCount == 1 else { throw RawStoreError.noSuchRow }
        }
    }

    /// Everything the file holds, as SQLite reads it: the format version, the schema objects and
    /// every row of every table. Equal snapshots mean nothing in the store changed.
    struct Snapshot: Equatable {
        var version: Int
        var schema: [Row]
        var tables: [String: [Row]]
    }

    func snapshot() throws -> Snapshot {
        try read { db in
            let schema = try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
            var tables: [String: [Row]] = [:]
            for name in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") {
                tables[name] = try Row.fetchAll(db, sql: "SELECT * FROM \(name.quotedDatabaseIdentifier) ORDER BY 1")
            }
            return Snapshot(version: try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0, schema: schema, tables: tables)
        }
    }

    /// Moves every WAL frame into the database file and empties the WAL.
    func checkpoint() throws {
        let queue = try queue()
        try queue.writeWithoutTransaction { db in
            _ = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
    }

    enum RawStoreError: Error {
        case noSuchRow
    }
}

extension Data {
    /// A copy with the byte at `offset` (negative: from the end) XOR-ed with `mask`.
    func flippingByte(at offset: Int, mask: UInt8 = 0x01) -> Data {
        var copy = self
        let index = copy.startIndex + (offset >= 0 ? offset : copy.count + offset)
        copy[index] ^= mask
        return copy
    }

    /// Whether `needle` occurs anywhere in these bytes.
    func containsBytes(_ needle: Data) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return false }
        return range(of: needle) != nil
    }
}

extension PersistentReference {
    /// The item id part of the reference: the row's `ref` column.
    var rowRef: Data { Data(data.dropFirst(4)) }
}

import Foundation
import GRDB
import Testing
@testable import SecStore

/// `StoreDatabase.write` runs its own `BEGIN IMMEDIATE` / `COMMIT` (cached statements, not
/// GRDB's `inTransaction`): all of a body commits, or none of it.
@Suite struct WriteTransactionTests {
    private struct Refusal: Error {}

    /// A scratch table beside the store's own, so the tests write nothing the store reads.
    private func scratch(_ store: SecretStore) throws -> StoreDatabase {
        let database = store.engine.database
        try database.write { db in try db.execute(sql: "CREATE TABLE scratch (x INTEGER)") }
        return database
    }

    private func rows(_ database: StoreDatabase) throws -> Int {
        try database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM scratch") ?? -1 }
    }

    @Test("A body that throws leaves nothing written, and the connection writes again afterwards")
    func throwingBodyRollsBack() throws {
        let directory = TemporaryDirectory()
        let store = try directory.openStore()
        let database = try scratch(store)
        #expect(throws: Refusal.self) {
            try database.write { db in
                try SQLiteRows.execute(try db.cachedStatement(sql: "INSERT INTO scratch VALUES (1)"), arguments: [], in: db)
                throw Refusal()
            }
        }
        #expect(try rows(database) == 0)
        try database.write { db in
            try SQLiteRows.execute(try db.cachedStatement(sql: "INSERT INTO scratch VALUES (2)"), arguments: [], in: db)
        }
        #expect(try rows(database) == 1)
    }

    /// How a body goes on writing after SQLite ended its transaction by itself (as after a
    /// full disk or an I/O error; a `ROLLBACK` here).
    enum WriteAfterAbort: String, CaseIterable, CustomTestStringConvertible {
        case throughSQLiteRows, throughSQLiteRowsErrorSwallowed, throughGRDBErrorSwallowed
        var testDescription: String { rawValue }

        func run(_ db: Database) throws {
            let insert = "INSERT INTO scratch VALUES (1)"
            switch self {
            case .throughSQLiteRows: try SQLiteRows.execute(try db.cachedStatement(sql: insert), arguments: [], in: db)
            case .throughSQLiteRowsErrorSwallowed: _ = try? SQLiteRows.execute(try db.cachedStatement(sql: insert), arguments: [], in: db)
            case .throughGRDBErrorSwallowed: _ = try? db.execute(sql: insert)
            }
        }
    }

    @Test("A write after SQLite ended the transaction commits nothing, and the call fails", arguments: WriteAfterAbort.allCases)
    func writeAfterAbortedTransaction(_ write: WriteAfterAbort) throws {
        let directory = TemporaryDirectory()
        let store = try directory.openStore()
        let database = try scratch(store)
        #expect(throws: SecStoreError.self) {
            try database.write { db in
                try db.execute(sql: "ROLLBACK")
                try write.run(db)
            }
        }
        #expect(try rows(database) == 0, "the insert committed outside the transaction")
        // The connection is usable: the next write commits.
        try store.set("value", forAccount: "account")
        #expect(try store.string(forAccount: "account") == "value")
    }
}

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

    @Test("A write after SQLite ended the transaction is refused instead of committing on its own")
    func writeAfterAbortedTransactionIsRefused() throws {
        let directory = TemporaryDirectory()
        let store = try directory.openStore()
        let database = try scratch(store)
        // What SQLite does by itself after a full disk or an I/O error: the transaction ends.
        #expect(throws: SecStoreError.self) {
            try database.write { db in
                try db.execute(sql: "ROLLBACK")
                try SQLiteRows.execute(try db.cachedStatement(sql: "INSERT INTO scratch VALUES (1)"), arguments: [], in: db)
            }
        }
        #expect(try rows(database) == 0, "the insert committed outside the transaction")
    }

    @Test("A statement run through GRDB after SQLite ended the transaction cannot commit on its own")
    func grdbWriteAfterAbortedTransactionIsRolledBack() throws {
        let directory = TemporaryDirectory()
        let store = try directory.openStore()
        let database = try scratch(store)
        #expect(throws: SecStoreError.self) {
            try database.write { db in
                try db.execute(sql: "ROLLBACK")
                _ = try? db.execute(sql: "INSERT INTO scratch VALUES (1)")
            }
        }
        #expect(try rows(database) == 0, "the insert committed outside the transaction")
    }

    @Test("A body that goes on past an ended transaction does not report success")
    func bodyThatSwallowsTheAbortFails() throws {
        let directory = TemporaryDirectory()
        let store = try directory.openStore()
        let database = try scratch(store)
        #expect(throws: SecStoreError.self) {
            try database.write { db in
                try db.execute(sql: "ROLLBACK")
                _ = try? SQLiteRows.execute(try db.cachedStatement(sql: "INSERT INTO scratch VALUES (1)"), arguments: [], in: db)
            }
        }
        #expect(try rows(database) == 0)
        // The connection is usable: the next write commits.
        try store.set("value", forAccount: "account")
        #expect(try store.string(forAccount: "account") == "value")
    }
}

import Foundation
import GRDB
import Testing
@testable import SecStore

/// Pins the fix of an engine bug the benchmark found (docs/performance.md, "Durability").
///
/// DESIGN.md promises `synchronous=FULL`: a call that returns success has committed. Set in
/// `Configuration.prepareDatabase`, it never reached the writer: `DatabasePool` runs GRDB's
/// WAL setup on its writer connection afterwards, and that executes
/// `PRAGMA synchronous = NORMAL` (GRDB `Database.setUpWALMode()`), so commits skipped the
/// WAL fsync (`strace -e fdatasync` showed no fsync per `store.add`).
@Suite struct WriterDurabilityTests {
    @Test("The store's writer connection runs synchronous=FULL, not GRDB's WAL default NORMAL")
    func writerConnectionIsSynchronousFull() throws {
        let directory = TemporaryDirectory()
        let store = try directory.openStore()
        try store.set("value", forAccount: "account")  // the writer has committed at least once
        let level = try store.engine.database.readOnWriter { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }
        #expect(level == 2, "the writer's PRAGMA synchronous is \(level.map(String.init) ?? "nil"); 1 = NORMAL, 2 = FULL")
    }
}

import Foundation
import GRDB
import Testing
@testable import SecStore

/// Demonstrates an engine bug found by the benchmark (docs/performance.md, "Durability").
///
/// DESIGN.md promises `synchronous=FULL`: a call that returns success has committed. The
/// store sets it in `Configuration.prepareDatabase`, but `DatabasePool` then runs GRDB's
/// WAL setup on its writer connection, which executes `PRAGMA synchronous = NORMAL`
/// (GRDB `Database.setUpWALMode()`). The writer therefore commits without fsyncing the
/// WAL: `strace -e fdatasync` shows no fsync per `store.add`.
@Suite struct DurabilityBugTests {
    @Test("BUG: the store's writer connection runs synchronous=FULL (GRDB's WAL setup resets it to NORMAL)")
    func writerConnectionIsSynchronousFull() throws {
        let directory = TemporaryDirectory()
        let store = try directory.openStore()
        let level = try store.engine.database.pool.writeWithoutTransaction { db in
            try Int.fetchOne(db, sql: "PRAGMA synchronous")
        }
        #expect(level == 2, "the writer's PRAGMA synchronous is \(level.map(String.init) ?? "nil"); 1 = NORMAL, 2 = FULL")
    }
}

import Foundation
import Synchronization
import Testing
@testable import SecStore

/// Where a single-statement read runs (``StoreDatabase/readStatement(_:)``): on the idle writer
/// connection while no reader connection is open, so a process that reads one item and exits
/// opens one connection; on a reader connection as soon as the writer is in use, so a read
/// never waits behind a write, and never re-enters the connection of its own thread's
/// transaction.
@Suite struct StatementReadRoutingTests {

    @Test("reads from one thread run on the writer connection: no reader connection is opened")
    func oneThreadOpensNoReader() throws {
        let directory = TemporaryDirectory()
        let store = try directory.openStore()
        try store.set("first", forAccount: "a")
        for _ in 0..<3 { #expect(try store.string(forAccount: "a") == "first") }
        try store.set("second", forAccount: "a")
        #expect(try store.string(forAccount: "a") == "second", "a read on the writer sees the last commit")
        #expect(!store.engine.database.hasReaderConnection)
    }

    @Test("a read inside the handle's own write transaction runs on a reader and sees the last commit, not the open transaction")
    func readInsideOwnTransaction() throws {
        let directory = TemporaryDirectory()
        let store = try directory.openStore()
        try store.set("committed", forAccount: "a")
        let seen = try store.write { transaction in
            try transaction.update(matching: Query(service: store.options.resolvedDefaultService, account: "a"),
                                   with: ItemChanges(data: Data("uncommitted".utf8)))
            return try store.string(forAccount: "a")
        }
        #expect(seen == "committed")
        #expect(store.engine.database.hasReaderConnection)
        #expect(try store.string(forAccount: "a") == "uncommitted")
    }

    @Test("a read while another thread's write transaction is open does not wait for it", .timeLimit(.minutes(1)))
    func readDoesNotWaitForAnotherThreadsWrite() throws {
        let directory = TemporaryDirectory()
        let store = try directory.openStore()
        try store.set("value", forAccount: "a")
        let writing = DispatchSemaphore(value: 0), readDone = DispatchSemaphore(value: 0), writeDone = DispatchSemaphore(value: 0)
        let writerWaitedInVain = Atomic<Bool>(false)
        let writeError = Mutex<String?>(nil)
        Thread {
            defer { writeDone.signal() }
            do {
                try store.write { transaction in
                    _ = try transaction.add(.genericPassword(service: store.options.resolvedDefaultService, account: "b", data: Data("b".utf8)))
                    writing.signal()
                    // Holds the writer connection until the other thread's read is back.
                    if readDone.wait(timeout: .now() + 20) == .timedOut { writerWaitedInVain.store(true, ordering: .relaxed) }
                }
            } catch {
                writeError.withLock { $0 = "\(error)" }
            }
        }.start()
        writing.wait()
        #expect(try store.string(forAccount: "a") == "value")
        #expect(try store.string(forAccount: "b") == nil, "the open transaction's add is not visible yet")
        readDone.signal()
        writeDone.wait()
        let waitedInVain = writerWaitedInVain.load(ordering: .relaxed)
        #expect(!waitedInVain, "the reads returned while the write transaction was open")
        #expect(writeError.withLock { $0 } == nil)
        #expect(store.engine.database.hasReaderConnection)
        #expect(try store.string(forAccount: "b") == "b")
    }
}

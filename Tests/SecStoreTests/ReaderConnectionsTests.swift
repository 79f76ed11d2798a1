import Foundation
import Synchronization
import Testing
import GRDB
@testable import SecStore

/// The reader slots: each read takes a free slot without waiting; with more reading threads
/// than slots, reads wait for a slot and all succeed; no path leaves a slot taken.
@Suite struct ReaderConnectionsTests {

    private static func count(_ readers: ReaderConnections, hold: (() -> Void)? = nil) throws -> Int? {
        try readers.read { connection in
            hold?()
            return try connection.withDatabase { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM items") }
        }
    }

    @Test("more concurrent readers than connections: reads wait for one, every read is right, no slot stays taken")
    func moreReadersThanSlots() throws {
        let directory = try TemporaryDirectory.withStore(items: 10)
        let readers = ReaderConnections(file: DatabaseFile(path: directory.storeURL.path), busyTimeout: 5, maximumCount: 2)
        defer { readers.close() }
        let inside = Atomic<Int>(0)
        let failures = Mutex<[String]>([])
        let done = DispatchGroup()
        for thread in 0..<5 {
            done.enter()
            Thread {
                defer { done.leave() }
                for round in 0..<20 {
                    do {
                        // The first reads hold their slot until both slots are taken, then a
                        // moment more: the other threads find every slot busy.
                        let count = try Self.count(readers) {
                            inside.add(1, ordering: .relaxed)
                            guard round == 0 else { return }
                            let deadline = Date().addingTimeInterval(10)
                            while inside.load(ordering: .relaxed) < 2 && Date() < deadline { usleep(1_000) }
                            usleep(20_000)
                        }
                        if count != 10 { failures.withLock { $0.append("thread \(thread) counted \(String(describing: count))") } }
                    } catch {
                        failures.withLock { $0.append("thread \(thread): \(error)") }
                    }
                }
            }.start()
        }
        #expect(done.wait(timeout: .now() + 60) == .success, "the readers finished")
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { Array($0.prefix(3)) })")
        #expect(inside.load(ordering: .relaxed) == 100)
        #expect(readers.waitedReads.load(ordering: .relaxed) > 0, "some reads found every slot busy and waited")
        #expect(readers.busySlotCount == 0)
    }

    @Test("a read that throws, or whose connection cannot open, gives its slot back")
    func failuresGiveTheSlotBack() throws {
        let directory = try TemporaryDirectory.withStore(items: 3)
        let readers = ReaderConnections(file: DatabaseFile(path: directory.storeURL.path), busyTimeout: 5, maximumCount: 1)
        defer { readers.close() }
        struct Refused: Error {}
        #expect(throws: Refused.self) { try readers.read { _ in throw Refused() } }
        #expect(readers.busySlotCount == 0)
        #expect(try Self.count(readers) == 3)

        let missing = ReaderConnections(file: DatabaseFile(path: directory.url.appending(path: "missing/none.secstore").path), busyTimeout: 1, maximumCount: 1)
        #expect(throws: (any Error).self) { _ = try Self.count(missing) }
        #expect(missing.busySlotCount == 0)
    }

    @Test("after close, reads fail: no closed connection is used and none is opened again", .timeLimit(.minutes(1)))
    func readsAfterCloseFail() throws {
        let directory = try TemporaryDirectory.withStore(items: 1)
        let readers = ReaderConnections(file: DatabaseFile(path: directory.storeURL.path), busyTimeout: 5, maximumCount: 2)
        #expect(try Self.count(readers) == 1)   // a connection with a prepared statement
        readers.close()
        let error = #expect(throws: SecStoreError.self) { _ = try Self.count(readers) }
        #expect(error?.code == .storeUnavailable)
        // Closing again returns at once.
        readers.close()
    }

    @Test("a process that only reads leaves the store file as it was: no checkpoint, no WAL to make again")
    func readingHandleWritesNothingToTheStoreFile() throws {
        let directory = TemporaryDirectory()
        do {
            let store = try directory.openStore()
            try store.set("value", forAccount: "account")
        }
        let before = try Data(contentsOf: directory.storeURL)
        do {
            let store = try directory.openStore()
            #expect(try store.string(forAccount: "account") == "value")   // on the writer, the only connection
        }
        // Had the writer closed last, SQLite would have checkpointed the WAL into the file.
        #expect(try Data(contentsOf: directory.storeURL) == before)
        #expect(FileManager.default.fileExists(atPath: directory.storeURL.path + "-wal"))
    }

    /// A read started from inside a read on the same thread (a logger handler the engine calls
    /// mid-search, for instance) takes another slot when one is free. When every slot is taken
    /// and one is its own, waiting for that one would never end, and locking it again stopped
    /// the process ("Recursive call to lock Mutex"): it waits for a slot another thread holds,
    /// and when none is, the read throws `invalidParameter`.
    @Test("a read nested in a read on the same thread: another slot, else a typed error", .timeLimit(.minutes(1)))
    func readNestedInARead() throws {
        let directory = try TemporaryDirectory.withStore(items: 3)
        let two = ReaderConnections(file: DatabaseFile(path: directory.storeURL.path), busyTimeout: 5, maximumCount: 2)
        let count = { (connection: SearchConnection) throws -> Int? in
            try connection.withDatabase { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM items") }
        }
        #expect(try two.read { _ in try two.read(count) } == 3)

        let one = ReaderConnections(file: DatabaseFile(path: directory.storeURL.path), busyTimeout: 5, maximumCount: 1)
        let error = expectError(.invalidParameter) { try one.read { _ in try one.read(count) } }
        #expect(error?.message.contains("inside another read") == true)
        #expect(one.busySlotCount == 0)
        #expect(try one.read(count) == 3)
    }
}

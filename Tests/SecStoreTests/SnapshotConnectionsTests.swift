import Foundation
import Synchronization
import Testing
import GRDB
@testable import SecStore

/// The snapshot connection of multi-statement reads: opened by the first read (by one of
/// several racing first reads), each read one snapshot, reads after close refused.
@Suite struct SnapshotConnectionsTests {

    private static func count(_ snapshots: SnapshotConnections) throws -> Int? {
        try snapshots.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM items") }
    }

    @Test("racing first reads each answer (the connection one of them opened is kept)")
    func racingFirstReads() throws {
        let directory = try TemporaryDirectory.withStore(items: 3)
        let snapshots = SnapshotConnections(file: DatabaseFile(path: directory.storeURL.path), busyTimeout: 5)
        let answers = Mutex([Int?](repeating: nil, count: 8))
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            do {
                let answer = try Self.count(snapshots)
                answers.withLock { $0[index] = answer }
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(answers.withLock { $0 } == [Int?](repeating: 3, count: 8))
    }

    @Test("a short read does not wait behind a long one: each takes its own connection", .timeLimit(.minutes(1)))
    func shortReadBesideLongRead() throws {
        let directory = try TemporaryDirectory.withStore(items: 2)
        let snapshots = SnapshotConnections(file: DatabaseFile(path: directory.storeURL.path), busyTimeout: 5)
        let longReadStarted = DispatchSemaphore(value: 0)
        let shortReadDone = DispatchSemaphore(value: 0)
        let longReadEnded = Atomic<Bool>(false)
        let longReadFinished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? snapshots.read { db in
                longReadStarted.signal()
                // Holds its connection until the other read is done, or 5 s: behind one
                // shared connection, the other read could only run after this one ended.
                _ = shortReadDone.wait(timeout: .now() + 5)
                longReadEnded.store(true, ordering: .releasing)
                return try Int.fetchOne(db, sql: "SELECT count(*) FROM items")
            }
            longReadFinished.signal()
        }
        longReadStarted.wait()
        #expect(try Self.count(snapshots) == 2)
        let longReadHadEnded = longReadEnded.load(ordering: .acquiring)
        #expect(!longReadHadEnded, "the short read waited for the long one")
        shortReadDone.signal()
        longReadFinished.wait()
    }

    @Test("a read sees one snapshot: a commit made meanwhile shows in the next read, not in this one")
    func oneSnapshotPerRead() throws {
        let directory = try TemporaryDirectory.withStore(items: 1)
        let snapshots = SnapshotConnections(file: DatabaseFile(path: directory.storeURL.path), busyTimeout: 5)
        let other = try directory.openStore()
        let (before, after) = try snapshots.read { db in
            let before = try Int.fetchOne(db, sql: "SELECT count(*) FROM items")
            try other.add(.genericPassword(service: "s", account: "meanwhile"))
            let after = try Int.fetchOne(db, sql: "SELECT count(*) FROM items")
            return (before, after)
        }
        #expect(before == 1 && after == 1)
        #expect(try Self.count(snapshots) == 2)
    }

    @Test("after close, reads fail instead of opening the connection again")
    func readsAfterCloseFail() throws {
        let directory = try TemporaryDirectory.withStore(items: 1)
        let snapshots = SnapshotConnections(file: DatabaseFile(path: directory.storeURL.path), busyTimeout: 5)
        #expect(try Self.count(snapshots) == 1)
        snapshots.close()
        let error = #expect(throws: SecStoreError.self) { _ = try Self.count(snapshots) }
        #expect(error?.code == .storeUnavailable)
    }

    /// A read that finds every slot taken opens a connection of its own instead of waiting:
    /// the reads holding the slots may be waiting for it. Before, it waited with no end, and
    /// `verify` progress callbacks that asked for `lockState` hung forever
    /// (`NestedReadTests` has them through the public API).
    @Test("reads nested deeper than the slots, on one thread, each answer", .timeLimit(.minutes(1)))
    func nestedReadsBeyondTheSlots() throws {
        let directory = try TemporaryDirectory.withStore(items: 3)
        let snapshots = SnapshotConnections(file: DatabaseFile(path: directory.storeURL.path), busyTimeout: 5, maximumCount: 2)
        func nested(_ depth: Int) throws -> [Int?] {
            try snapshots.read { db in
                let here = try Int.fetchOne(db, sql: "SELECT count(*) FROM items")
                return depth == 0 ? [here] : [here] + (try nested(depth - 1))
            }
        }
        #expect(try nested(4) == [Int?](repeating: 3, count: 5))
        #expect(snapshots.overflowReads.load(ordering: .relaxed) == 3)
        // The slots are free again, and the connections of the overflow reads are gone.
        #expect(try Self.count(snapshots) == 3)
        #expect(snapshots.overflowReads.load(ordering: .relaxed) == 3)
    }

    @Test("every slot held by a read that waits for another read: the other read answers", .timeLimit(.minutes(1)))
    func slotHoldersWaitingForMoreReads() throws {
        let directory = try TemporaryDirectory.withStore(items: 3)
        let snapshots = SnapshotConnections(file: DatabaseFile(path: directory.storeURL.path), busyTimeout: 5, maximumCount: 2)
        let inside = DispatchGroup()
        for _ in 0..<2 { inside.enter() }
        let answers = Mutex([Int?]())
        let finished = DispatchGroup()
        for _ in 0..<2 {
            finished.enter()
            Thread {
                let answer = try? snapshots.read { _ in
                    // Both slots are held once both threads are here; each then reads again.
                    inside.leave()
                    inside.wait()
                    return try Self.count(snapshots)
                }
                answers.withLock { $0.append(answer ?? nil) }
                finished.leave()
            }.start()
        }
        finished.wait()
        #expect(answers.withLock { $0 } == [3, 3])
        // The first inner read found both slots held; the second may find the first's freed.
        #expect(snapshots.overflowReads.load(ordering: .relaxed) >= 1)
    }
}

import Foundation
import Synchronization
import Testing
import GRDB
@testable import SecStore

/// The reader slots: each read takes a free slot without waiting; with more reading threads
/// than slots, reads share an opened connection (its queue serializes them) and all succeed.
@Suite struct ReaderConnectionsTests {
    @Test("more concurrent readers than connections: every read succeeds with the right answer", arguments: [1, 2, 4])
    func moreReadersThanSlots(slots: Int) throws {
        let directory = TemporaryDirectory()
        let store = try directory.openStore()
        for index in 0..<10 { try store.add(.genericPassword(service: "s", account: "a\(index)")) }
        let readers = ReaderConnections(path: directory.storeURL.path, busyTimeout: 5, maximumCount: slots)
        defer { readers.close() }
        let failures = Mutex<[String]>([])
        let reads = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 6) { thread in
            for _ in 0..<200 {
                do {
                    let count = try readers.read { db, _ in try Int.fetchOne(db, sql: "SELECT count(*) FROM items") }
                    if count != 10 { failures.withLock { $0.append("thread \(thread) counted \(String(describing: count))") } }
                    reads.add(1, ordering: .relaxed)
                } catch {
                    failures.withLock { $0.append("thread \(thread): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0.prefix(3) })")
        #expect(reads.load(ordering: .relaxed) == 6 * 200)
    }
}

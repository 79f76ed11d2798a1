import Foundation
internal import GRDB
import Synchronization

/// The connections for reads of several statements that must see one snapshot (`verify`,
/// export, statistics, the lock state, a key reload before unlocking): read-only, each
/// opened by the first read that takes its slot, each read in a deferred transaction.
///
/// Up to four such reads run at once on the slots' connections, so a short one (the
/// auto-lock's reload, `lockState`) never waits behind a long export. A read that finds every
/// slot taken opens a connection of its own and closes it after: it never waits, because the
/// reads holding the slots may be waiting for it (a `verify` progress callback that asks for
/// `lockState`, on the same thread or on four at once, hung forever when it waited).
/// Single-statement reads never wait for these (``ReaderConnections``).
///
/// ```swift
/// let snapshots = SnapshotConnections(file: DatabaseFile(path: path), busyTimeout: 10)
/// let count = try snapshots.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM items") }
/// ```
final class SnapshotConnections: Sendable {
    private let file: DatabaseFile
    private let configuration: Configuration
    private let slots: [ConnectionSlot<DatabaseQueue>]
    /// Set by ``close()``: reads then fail instead of opening a connection again.
    private let closed = Atomic<Bool>(false)
    /// Reads that found every slot taken and opened a connection of their own (for tests).
    let overflowReads = Atomic<Int>(0)

    init(file: DatabaseFile, busyTimeout: TimeInterval, maximumCount: Int = 4) {
        self.file = file
        configuration = .storeReader(busyTimeout: busyTimeout, label: "SecStore snapshot reader")
        slots = (0..<max(1, maximumCount)).map { _ in ConnectionSlot(storePath: file.path) }
    }

    /// Runs `body` in a read transaction on a connection no other read is using.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        guard !closed.load(ordering: .acquiring) else { throw SecStoreError.closedWhileReading(file.path) }
        for slot in slots {
            if let result = try slot.withConnectionIfFree(opening: openConnection, { try $0.read(body) }) {
                return result
            }
        }
        // Every slot is in a read: one more connection, for this read alone.
        overflowReads.add(1, ordering: .relaxed)
        let connection = try openConnection()
        defer { try? connection.close() }
        return try connection.read(body)
    }

    /// Closes the connections, each once the read under way on it is done; later reads fail.
    /// A read under way on a connection of its own closes that one when it ends. Closing
    /// again returns at once.
    func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for slot in slots {
            slot.close { try? $0.close() }
        }
    }

    private func openConnection() throws -> DatabaseQueue { try file.connect(configuration) }
}

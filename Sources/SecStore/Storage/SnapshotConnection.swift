import Foundation
internal import GRDB
import Synchronization

/// The connection for reads of several statements that must see one snapshot (`verify`,
/// export, statistics, a key reload before unlocking): read-only, opened by the first such
/// read, each read in a deferred transaction. Reads through it take turns; they are whole-store
/// scans or a few key rows, and single-statement reads never wait for them
/// (``ReaderConnections``).
///
/// ```swift
/// let snapshots = SnapshotConnection(path: path, busyTimeout: 10)
/// let count = try snapshots.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM items") }
/// ```
final class SnapshotConnection: Sendable {
    private let path: String
    private let configuration: Configuration
    private let queue = AtomicLazyReference<DatabaseQueue>()
    /// Set by ``close()``: reads then fail instead of opening the connection again.
    private let closed = Atomic<Bool>(false)

    init(path: String, busyTimeout: TimeInterval) {
        self.path = path
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "SecStore snapshot reader"
        self.configuration = configuration
    }

    /// Runs `body` in a read transaction. Not to be nested (GRDB refuses a connection's
    /// methods inside its own).
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        guard !closed.load(ordering: .acquiring) else {
            throw SecStoreError(.storeUnavailable, "The store \(path) was closed while it was being read. Open it again.")
        }
        // Two first reads at once may both open one; the one stored first is kept.
        let connection = try queue.load() ?? queue.storeIfNil(DatabaseQueue(path: path, configuration: configuration))
        return try connection.read(body)
    }

    /// Closes the connection, if one was opened; later reads fail.
    func close() {
        closed.store(true, ordering: .releasing)
        try? queue.load()?.close()
    }
}

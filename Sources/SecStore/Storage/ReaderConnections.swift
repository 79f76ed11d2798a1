import Foundation
internal import GRDB
import Synchronization

/// Read-only connections for single-statement reads, opened on first use and checked out
/// one per reading thread. A point read needs no snapshot spanning statements, so it can
/// skip the `DatabasePool` reader machinery (a schema-version check and a reader checkout
/// per read) and run straight on a serial connection with its own prepared statements, as a
/// hand-written SQLite client would.
///
/// Each read takes a connection no other thread is using, so concurrent readers never queue
/// behind one another's serial queue (docs/performance.md, "Concurrency"). Up to
/// ``maximumCount`` connections are opened; past that, a read waits for the one it is given.
final class ReaderConnections: Sendable {
    private let path: String
    private let configuration: Configuration
    /// Connections beyond this are not opened: each holds a page cache and descriptors.
    let maximumCount: Int
    private let state: Mutex<State>

    private struct State: ~Copyable {
        /// Opened connections no read is using, most recently used last (its cache is warm).
        var idle: [Reader] = []
        /// Every opened connection, for ``close()`` and for a read that has to wait.
        var all: [Reader] = []
        /// Which connection in use the next waiting read is given, in turn.
        var turn = 0
    }

    init(path: String, busyTimeout: TimeInterval, maximumCount: Int = ReaderConnections.defaultMaximumCount) {
        self.path = path
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "SecStore reader"
        self.configuration = configuration
        self.maximumCount = max(1, maximumCount)
        state = Mutex(State())
    }

    /// Twice the processors: enough for every core to read while others wait on I/O.
    static var defaultMaximumCount: Int { min(16, max(2, 2 * ProcessInfo.processInfo.activeProcessorCount)) }

    /// Closes the connections opened so far. A read in progress finishes on its connection.
    func close() {
        let open = state.withLock { state in
            defer { state = State() }
            return state.all
        }
        for reader in open { try? reader.queue.close() }
    }

    func read<T>(_ body: (Database, PreparedStatements) throws -> T) throws -> T {
        let (reader, exclusive) = try checkOut()
        defer { if exclusive { checkIn(reader) } }
        return try reader.queue.unsafeRead { db in try body(db, reader.statements) }
    }

    /// An idle connection, or a new one while fewer than ``maximumCount`` are open
    /// (`exclusive`: given back after the read); otherwise one in use, whose serial queue
    /// the read then waits on (not given back: the read that took it does that).
    private func checkOut() throws -> (Reader, exclusive: Bool) {
        try state.withLock { state in
            if let reader = state.idle.popLast() { return (reader, true) }
            if state.all.count < maximumCount {
                // Opened under the lock: it happens at most `maximumCount` times per handle.
                let reader = Reader(queue: try DatabaseQueue(path: path, configuration: configuration))
                state.all.append(reader)
                return (reader, true)
            }
            state.turn &+= 1
            return (state.all[state.turn % state.all.count], false)
        }
    }

    private func checkIn(_ reader: Reader) {
        state.withLock { state in
            // A connection opened before a close() is not handed out again.
            guard state.all.contains(where: { $0 === reader }) else { return }
            state.idle.append(reader)
        }
    }

    /// A connection and its statements. The statements are used only inside the
    /// connection's serial queue.
    private final class Reader: @unchecked Sendable {
        let queue: DatabaseQueue
        let statements = PreparedStatements()

        init(queue: DatabaseQueue) { self.queue = queue }
    }
}

/// Prepared statements of one connection, found by a small integer key instead of by
/// hashing their SQL text on every call.
final class PreparedStatements {
    private var statements: [Int: Statement] = [:]

    func statement(_ key: Int, in db: Database, sql: () -> String) throws -> Statement {
        if let statement = statements[key] { return statement }
        let statement = try db.makeStatement(sql: sql())
        statements[key] = statement
        return statement
    }
}

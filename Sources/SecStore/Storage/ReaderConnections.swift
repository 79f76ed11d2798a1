import Foundation
internal import GRDB
import Synchronization

/// A few read-only connections for single-statement reads, opened on first use and taken in
/// turn. A point read needs no snapshot spanning statements, so it can skip the
/// `DatabasePool` reader machinery (a schema-version check and a reader checkout per read)
/// and run straight on a serial connection with its own prepared statements, as a
/// hand-written SQLite client would.
final class ReaderConnections: Sendable {
    private let path: String
    private let configuration: Configuration
    private let count: Int
    private let slots: Mutex<[Reader?]>
    private let next = Atomic<Int>(0)

    init(path: String, busyTimeout: TimeInterval, count: Int = 2) {
        self.path = path
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "SecStore reader"
        self.configuration = configuration
        self.count = count
        slots = Mutex(Array(repeating: nil, count: count))
    }

    /// Closes the connections opened so far.
    func close() {
        let open = slots.withLock { slots in
            defer { slots = Array(repeating: nil, count: count) }
            return slots.compactMap { $0 }
        }
        for reader in open { try? reader.queue.close() }
    }

    func read<T>(_ body: (Database, PreparedStatements) throws -> T) throws -> T {
        let index = next.add(1, ordering: .relaxed).oldValue % count
        let reader = try slots.withLock { slots -> Reader in
            if let open = slots[index] { return open }
            let opened = Reader(queue: try DatabaseQueue(path: path, configuration: configuration))
            slots[index] = opened
            return opened
        }
        return try reader.queue.unsafeRead { db in try body(db, reader.statements) }
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

import Foundation
internal import GRDB
import Synchronization

/// One read-only connection of a set (``ReaderConnections``, ``SnapshotConnections``), held by
/// one read at a time: the read runs inside the slot's lock, which also keeps the connection.
/// Taking a free slot is one compare-and-swap (the lock's fast path), so threads reading at
/// once on different slots never wait in the kernel; the connection is opened by the first
/// read that holds the slot.
///
/// Holding the slot is what makes a read the only user of its connection, so the read may
/// step the connection's statements on its own thread without GRDB's serial queue
/// (``SearchConnection``).
///
/// ```swift
/// let slot = ConnectionSlot<DatabaseQueue>(storePath: path)
/// let count = try slot.withConnectionIfFree(opening: { try DatabaseQueue(path: path) }) { queue in
///     try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM items") }
/// }   // nil when another read holds the slot
/// ```
final class ConnectionSlot<Connection: AnyObject & Sendable>: Sendable {
    private enum State: Sendable {
        case unopened
        case open(Connection)
        /// Closed by ``close(_:)``: reads on the slot fail from then on.
        case closed
    }

    private let state = HeldMutex<State>(.unopened)
    /// The store's path, for the error a read on a closed slot gets.
    private let storePath: String

    init(storePath: String) {
        self.storePath = storePath
    }

    /// Runs `body` with the slot's connection if no read holds the slot (nil when one does,
    /// this thread's included), opening the connection with `open` the first time. A closed
    /// slot throws `SecStoreError.closedWhileReading`.
    func withConnectionIfFree<T>(opening open: () throws -> Connection, _ body: (Connection) throws -> T) throws -> T? {
        try state.holdingIfAvailable { state in try run(&state, open, body) }
    }

    /// Runs `body` with the slot's connection once the read holding the slot (if any) is done.
    /// Throws `SecStoreError.readInsideARead` when that read is this thread's own: it would
    /// never be done.
    func withConnection<T>(opening open: () throws -> Connection, _ body: (Connection) throws -> T) throws -> T {
        try state.holding(reentered: SecStoreError.readInsideARead(storePath)) { state in try run(&state, open, body) }
    }

    /// Whether the calling thread's read holds the slot.
    var isHeldByCurrentThread: Bool { state.isHeldByCurrentThread }

    private func run<T>(_ state: inout State, _ open: () throws -> Connection, _ body: (Connection) throws -> T) throws -> T {
        switch state {
        case .open(let connection):
            return try body(connection)
        case .unopened:
            let connection = try open()
            state = .open(connection)
            return try body(connection)
        case .closed:
            throw SecStoreError.closedWhileReading(storePath)
        }
    }

    /// Waits for the read under way (if any), closes the connection with `close` and leaves
    /// the slot closed. From inside that read's own thread it does nothing: the read would
    /// never end (the set's own closed flag still refuses new reads).
    func close(_ close: (Connection) -> Void) {
        try? state.holding(reentered: SecStoreError.closedWhileReading(storePath)) { state in
            if case .open(let connection) = state { close(connection) }
            state = .closed
        }
    }

    /// Whether a read holds the slot (for tests).
    var isTaken: Bool { (try? state.holdingIfAvailable { _ in false }) ?? true }

    /// Whether a read has opened the slot's connection (for tests). Waits for a read under way.
    var isOpen: Bool {
        (try? state.holding(reentered: SecStoreError.readInsideARead(storePath)) { state in
            if case .open = state { return true }
            return false
        }) ?? true
    }
}

extension Configuration {
    /// How every read-only connection of a store is opened: read-only, with the store's busy
    /// timeout.
    static func storeReader(busyTimeout: TimeInterval, label: String) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = label
        return configuration
    }
}

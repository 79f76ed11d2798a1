import Foundation
internal import GRDB
import Synchronization

/// One read-only connection of a set (``ReaderConnections``, ``SnapshotConnections``): a read
/// takes the slot with a compare-and-swap and gives it back with a store, so taking one never
/// waits in the kernel; the connection is opened by the first read that holds the slot.
///
/// ```swift
/// let slot = ConnectionSlot<DatabaseQueue>()
/// if slot.tryTake() {
///     defer { slot.release() }
///     let queue = try slot.connection { try DatabaseQueue(path: path, configuration: .storeReader(busyTimeout: 10, label: "x")) }
/// }
/// ```
final class ConnectionSlot<Connection: AnyObject & Sendable>: Sendable {
    private let inUse = Atomic<Bool>(false)
    /// Set once, by the read holding the slot; read by anyone afterwards. A `Mutex` that no
    /// one holds for longer than a load or a store, rather than an `AtomicLazyReference`:
    /// releasing one of those makes the runtime look up a conformance of `Unmanaged` by
    /// scanning every protocol conformance record in the binary, once per process (about 0.3M
    /// instructions of every `secstore get`; docs/performance.md).
    private let opened = Mutex<Connection?>(nil)

    /// Whether a read holds the slot.
    var isTaken: Bool { inUse.load(ordering: .acquiring) }

    /// Takes the slot if no read holds it.
    func tryTake() -> Bool {
        inUse.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
    }

    func release() {
        inUse.store(false, ordering: .releasing)
    }

    /// Takes the slot once the read holding it (if any) is done: for closing, after which the
    /// slot stays taken.
    func takeWhenFree() {
        while !tryTake() { sched_yield() }
    }

    /// The connection, if one was opened.
    var connection: Connection? { opened.withLock { $0 } }

    /// The connection, opened by `open` the first time. Only the read holding the slot calls
    /// this, so no one else can set the connection while `open` runs (outside the lock, so a
    /// read looking for a connection to share is not kept waiting).
    func connection(opening open: () throws -> Connection) rethrows -> Connection {
        if let connection { return connection }
        let connection = try open()
        opened.withLock { $0 = connection }
        return connection
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

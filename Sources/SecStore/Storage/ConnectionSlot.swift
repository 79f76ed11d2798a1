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
    /// Set once, by the read holding the slot; read by anyone afterwards.
    private let opened = AtomicLazyReference<Connection>()

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
    var connection: Connection? { opened.load() }

    /// The connection, opened by `open` the first time (by the read holding the slot).
    func connection(opening open: () throws -> Connection) rethrows -> Connection {
        try opened.load() ?? opened.storeIfNil(open())
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

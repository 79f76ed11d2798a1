import Foundation
internal import GRDB
import Synchronization

/// Read-only connections for single-statement reads, opened on first use, one per slot. A
/// point read needs no snapshot spanning statements, so it needs no transaction (SQLite reads
/// one snapshot per statement) and runs straight on a connection with its own prepared
/// statements, as a hand-written SQLite client would.
///
/// Each read holds a slot no other thread is using (``ConnectionSlot``), and so steps its
/// connection's statements on its own thread, outside GRDB's queue (``SearchConnection``). It
/// starts at a slot picked from the calling thread's identity and tries each slot's lock
/// without waiting, so threads reading at once settle on different slots and never wait for
/// each other (docs/performance.md, "Concurrency"). Only when every slot is busy does a read
/// wait, for its own thread's slot. One shared lock for all the slots was contended on every
/// read, and Swift's `Mutex` on Linux waits in the kernel (a priority-inheritance futex): two
/// reading threads spent their time taking turns.
final class ReaderConnections: Sendable {
    private let file: DatabaseFile
    private let configuration: Configuration
    private let slots: [ConnectionSlot<Reader>]
    /// Set by ``close()``: reads then fail instead of using a closed connection.
    private let closed = Atomic<Bool>(false)
    /// Reads that found every slot busy and waited for one (for tests and profiles).
    let waitedReads = Atomic<Int>(0)

    /// Slots a read holds right now (for tests: 0 once every read has returned or thrown).
    var busySlotCount: Int { slots.filter(\.isTaken).count }

    /// Whether a read has opened a connection (for tests: ``StoreDatabase/readStatement(_:)``
    /// reads on the idle writer until two of its uses meet).
    var hasOpenedConnection: Bool { slots.contains { $0.isOpen } }

    init(file: DatabaseFile, busyTimeout: TimeInterval, maximumCount: Int = ReaderConnections.defaultMaximumCount) {
        self.file = file
        configuration = .storeReader(busyTimeout: busyTimeout, label: "SecStore reader")
        slots = (0..<max(1, maximumCount)).map { _ in ConnectionSlot(storePath: file.path) }
    }

    /// Twice the processors: enough for every core to read while others wait on I/O. Each
    /// connection holds a page cache and descriptors, so there are no more.
    static var defaultMaximumCount: Int { min(16, max(2, 2 * ProcessInfo.processInfo.activeProcessorCount)) }

    /// Closes the connections now, each once the read under way on it (if any) is done; reads
    /// afterwards fail, and no read opens a connection again. Closing again returns at once
    /// (only ``StoreDatabase/close()`` closes, once).
    func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for slot in slots {
            slot.close { reader in
                // SQLite refuses to close a connection whose statements are not finalized.
                reader.queue.inDatabase { _ in reader.statements.removeAll() }
                try? reader.queue.close()
            }
        }
    }

    /// Runs `body` on a connection no other read is using. Not to be nested: `body` must not
    /// read through these connections again.
    func read<T>(_ body: (SearchConnection) throws -> T) throws -> T {
        guard !closed.load(ordering: .acquiring) else { throw SecStoreError.closedWhileReading(file.path) }
        let first = Self.slotHint(count: slots.count)
        for offset in 0..<slots.count {
            let slot = slots[(first + offset) % slots.count]
            if let result = try slot.withConnectionIfFree(opening: openReader, { try body($0.connection) }) {
                return result
            }
        }
        // Every slot is busy: wait for this thread's own, as a lone connection would; for
        // another if this thread's read holds that one (a read nested in a callback), which
        // would never end. When all are this thread's, `withConnection` throws.
        waitedReads.add(1, ordering: .relaxed)
        var slot = slots[first]
        if slot.isHeldByCurrentThread, let other = slots.first(where: { !$0.isHeldByCurrentThread }) { slot = other }
        return try slot.withConnection(opening: openReader) { try body($0.connection) }
    }

    private func openReader() throws -> Reader { try Reader(queue: file.connect(configuration)) }

    /// A slot index from the calling thread's identity (a hash of ``ThreadIdentity``), so each
    /// thread tends to come back to the connection whose statements and page cache it warmed.
    private static func slotHint(count: Int) -> Int {
        let mixed = UInt64(ThreadIdentity.current) &* 0x9E37_79B9_7F4A_7C15
        return Int((mixed >> 32) % UInt64(count))
    }

    /// A connection, its GRDB `Database` (kept for ``SearchConnection``: only its SQLite handle
    /// is read outside the queue) and its statements, which are used only by the read holding
    /// the slot.
    private final class Reader: @unchecked Sendable {
        let queue: DatabaseQueue
        let db: Database
        let statements = PreparedStatements()

        /// The connection as a search holds it.
        var connection: SearchConnection { SearchConnection(held: queue, db: db, statements: statements) }

        init(queue: DatabaseQueue) {
            self.queue = queue
            db = queue.inDatabase { $0 }
        }
    }
}

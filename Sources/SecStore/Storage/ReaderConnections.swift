import Foundation
internal import GRDB
import Synchronization

/// Read-only connections for single-statement reads, opened on first use, one per slot. A
/// point read needs no snapshot spanning statements, so it needs no transaction (SQLite reads
/// one snapshot per statement) and runs straight on a serial connection with its own prepared
/// statements, as a hand-written SQLite client would.
///
/// Each read takes a slot no other thread is using: it starts at a slot picked from the
/// calling thread's identity and tries each slot's lock without waiting, so threads reading
/// at once settle on different slots and never wait for each other (docs/performance.md,
/// "Concurrency"). Only when every slot is busy does a read wait, on its own thread's slot.
/// One shared lock for all the slots was contended on every read, and Swift's `Mutex` on
/// Linux waits in the kernel (a priority-inheritance futex): two reading threads spent their
/// time taking turns.
final class ReaderConnections: Sendable {
    private let path: String
    private let configuration: Configuration
    private let slots: [ConnectionSlot<Reader>]
    /// Set by ``close()``: reads then fail instead of using a closed connection.
    private let closed = Atomic<Bool>(false)
    /// Reads that found every slot busy and shared an opened connection (for tests and profiles).
    let sharedReads = Atomic<Int>(0)

    /// Slots a read holds right now (for tests: 0 once every read has returned or thrown).
    var busySlotCount: Int { slots.filter(\.isTaken).count }

    /// Whether a read has opened a connection (for tests: ``StoreDatabase/readStatement(_:)``
    /// reads on the idle writer until two of its uses meet).
    var hasOpenedConnection: Bool { slots.contains { $0.connection != nil } }

    init(path: String, busyTimeout: TimeInterval, maximumCount: Int = ReaderConnections.defaultMaximumCount) {
        self.path = path
        configuration = .storeReader(busyTimeout: busyTimeout, label: "SecStore reader")
        slots = (0..<max(1, maximumCount)).map { _ in ConnectionSlot() }
    }

    /// Twice the processors: enough for every core to read while others wait on I/O. Each
    /// connection holds a page cache and descriptors, so there are no more.
    static var defaultMaximumCount: Int { min(16, max(2, 2 * ProcessInfo.processInfo.activeProcessorCount)) }

    /// Closes the connections now, each once the read under way on it (if any) is done; reads
    /// afterwards fail. The slots stay taken, so no read can open a connection again. Closing
    /// again returns at once, possibly before the first close is done (only
    /// ``StoreDatabase/close()`` closes, once).
    func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for slot in slots {
            slot.takeWhenFree()
            guard let reader = slot.connection else { continue }
            // SQLite refuses to close a connection whose statements are not finalized.
            reader.queue.inDatabase { _ in reader.statements.removeAll() }
            try? reader.queue.close()
        }
    }

    /// Runs `body` on a connection no other read is using. Not to be nested: `body` must not
    /// read through these connections again (the one it runs on is not re-entrant).
    func read<T>(_ body: (Database, PreparedStatements) throws -> T) throws -> T {
        let first = Self.slotHint(count: slots.count)
        while true {
            guard !closed.load(ordering: .acquiring) else { throw SecStoreError.closedWhileReading(path) }
            for offset in 0..<slots.count {
                let slot = slots[(first + offset) % slots.count]
                guard slot.tryTake() else { continue }
                defer { slot.release() }
                let reader = try slot.connection { Reader(queue: try DatabaseQueue(path: path, configuration: configuration)) }
                return try reader.queue.unsafeRead { db in try body(db, reader.statements) }
            }
            // Every slot is busy: share an opened one. Its connection's serial queue makes this
            // read wait for the one under way, as a lone connection would.
            for offset in 0..<slots.count {
                guard let reader = slots[(first + offset) % slots.count].connection else { continue }
                sharedReads.add(1, ordering: .relaxed)
                return try reader.queue.unsafeRead { db in try body(db, reader.statements) }
            }
            sched_yield()   // every slot is busy opening its connection: a moment, then again
        }
    }

    /// A slot index from the calling thread's identity (a hash of `pthread_self()`), so each
    /// thread tends to come back to the connection whose statements and page cache it warmed.
    private static func slotHint(count: Int) -> Int {
        let mixed = UInt64(UInt(bitPattern: Int(bitPattern: pthread_self()))) &* 0x9E37_79B9_7F4A_7C15
        return Int((mixed >> 32) % UInt64(count))
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

    /// Finalizes every statement (a connection closes only without any).
    func removeAll() { statements = [:] }

    func statement(_ key: Int, in db: Database, sql: () -> String) throws -> Statement {
        if let statement = statements[key] { return statement }
        let statement = try db.makeStatement(sql: sql())
        statements[key] = statement
        return statement
    }
}

import Synchronization

/// A `Mutex` that knows which thread holds it: the writer connection's lock
/// (``StoreDatabase``), each reader or snapshot connection's slot (``ConnectionSlot``), and
/// the default store's state in KeychainServices (`SecItemDefaultStore`).
///
/// Swift's `Mutex` is not recursive: a thread that locks it again stops the program
/// ("Recursive call to lock Mutex"), or hangs on some toolchains, and trying it may stop the
/// program too. Here a thread that asks again while it holds the lock is told instead:
/// ``holding(reentered:_:)`` throws the caller's error, ``holdingIfAvailable(_:)`` answers nil.
/// It happens when a store method is called from inside the store's own work on the same
/// thread: a write inside a `write` closure, a read from a `verify` progress callback or a
/// logger handler, a SecItem call from a logger handler while the default store opens.
///
/// The lock also passes out whatever its body returns (`withLock` takes only results it can
/// tell no other code reaches, which a generic caller's cannot show; a connection's reads
/// return values made inside the body and handed to no one else).
///
/// ```swift
/// let inUse = HeldMutex<Void>(())
/// let rows = try inUse.holding(reentered: SecStoreError.writeInsideItsTransaction) { _ in try fetchRows() }
/// let found = try inUse.holdingIfAvailable { _ in try search() }   // nil: a thread holds it
/// ```
package struct HeldMutex<Value: Sendable>: ~Copyable, Sendable {
    private let mutex: Mutex<Value>
    /// The holder's ``ThreadIdentity``, 0 while free. Only the holder writes it, so a thread
    /// finds its own identity here exactly while it holds the lock.
    private let holder = Atomic<UInt>(0)

    package init(_ value: sending Value) {
        mutex = Mutex(value)
    }

    /// Whether the calling thread holds the lock.
    package var isHeldByCurrentThread: Bool { holder.load(ordering: .relaxed) == ThreadIdentity.current }

    /// Runs `body` holding the lock, after any other thread's use; throws `reentered` when
    /// the calling thread holds it already.
    package borrowing func holding<T>(reentered: @autoclosure () -> any Error, _ body: (inout Value) throws -> T) throws -> T {
        let thread = ThreadIdentity.current
        guard holder.load(ordering: .relaxed) != thread else { throw reentered() }
        nonisolated(unsafe) var result: T?
        try mutex.withLock { value in result = try run(body, on: &value, as: thread) }
        return result!
    }

    /// ``holding(reentered:_:)`` if no thread holds the lock, else nil at once (also for the
    /// thread that holds it).
    package borrowing func holdingIfAvailable<T>(_ body: (inout Value) throws -> T) throws -> T? {
        let thread = ThreadIdentity.current
        guard holder.load(ordering: .relaxed) != thread else { return nil }
        nonisolated(unsafe) var result: T?
        let ran: Void? = try mutex.withLockIfAvailable { value in result = try run(body, on: &value, as: thread) }
        return ran == nil ? nil : result
    }

    private borrowing func run<T>(_ body: (inout Value) throws -> T, on value: inout Value, as thread: UInt) rethrows -> T {
        holder.store(thread, ordering: .relaxed)
        defer { holder.store(0, ordering: .relaxed) }
        return try body(&value)
    }
}

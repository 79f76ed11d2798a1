import Synchronization

/// The writer connection's exclusive use (``StoreDatabase``): each write, store-opening read,
/// search on the writer and `close()` holds it.
///
/// It knows which thread holds it. A thread that asks again while it holds it is a store
/// method that writes, called inside the closure of the same store's `write` on that
/// closure's thread; it gets ``SecStoreError/writeInsideItsTransaction`` rather than stopping
/// the program, as Swift's `Mutex` (not recursive) does: "Recursive call to lock Mutex", or a
/// hang on some toolchains.
///
/// ```swift
/// let inUse = WriterLock()
/// try inUse.holding { try commitSomething() }
/// let found = try inUse.holdingIfAvailable { try search() }   // nil: someone else has it
/// ```
struct WriterLock: ~Copyable, Sendable {
    private let mutex = Mutex<Void>(())
    /// The holder's ``ThreadIdentity``, 0 while free. Only the holder writes it, so a thread
    /// finds its own identity here exactly while it holds the lock.
    private let holder = Atomic<UInt>(0)

    /// Runs `body` holding the lock, after any other thread's use. Throws
    /// ``SecStoreError/writeInsideItsTransaction`` when the calling thread holds it already.
    borrowing func holding<T>(_ body: () throws -> T) throws -> T {
        let thread = ThreadIdentity.current
        guard holder.load(ordering: .relaxed) != thread else { throw SecStoreError.writeInsideItsTransaction }
        return try mutex.holding { _ in try run(body, as: thread) }
    }

    /// ``holding(_:)`` if no thread holds the lock (the calling one included), else nil at once.
    borrowing func holdingIfAvailable<T>(_ body: () throws -> T) throws -> T? {
        let thread = ThreadIdentity.current
        guard holder.load(ordering: .relaxed) != thread else { return nil }
        return try mutex.holdingIfAvailable { _ in try run(body, as: thread) }
    }

    private borrowing func run<T>(_ body: () throws -> T, as thread: UInt) rethrows -> T {
        holder.store(thread, ordering: .relaxed)
        defer { holder.store(0, ordering: .relaxed) }
        return try body()
    }
}

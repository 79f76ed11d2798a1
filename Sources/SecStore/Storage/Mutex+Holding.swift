import Synchronization

extension Mutex where Value: Sendable {
    /// Runs `body` holding the lock and returns what it returns, of any type.
    ///
    /// `withLock` may return only a value no other code can reach (`sending`), which the
    /// compiler cannot tell of a generic caller's result; a connection's reads return values
    /// made inside `body` and handed to no one else, so the result leaves through a local.
    ///
    /// ```swift
    /// let inUse = Mutex<Void>(())
    /// let rows = try inUse.holding { _ in try fetchRows() }
    /// ```
    borrowing func holding<T>(_ body: (inout Value) throws -> T) throws -> T {
        nonisolated(unsafe) var result: T?
        try withLock { value in result = try body(&value) }
        return result!
    }

    /// ``holding(_:)`` if no one holds the lock, else nil at once.
    borrowing func holdingIfAvailable<T>(_ body: (inout Value) throws -> T) throws -> T? {
        nonisolated(unsafe) var result: T?
        let ran: Void? = try withLockIfAvailable { value in result = try body(&value) }
        return ran == nil ? nil : result
    }
}

internal import GRDB

/// Refuses every commit on the writer connection while a transaction's body runs; only the
/// `COMMIT` that ends the transaction gets through.
///
/// SQLite ends a transaction by itself after some failures (a full disk, an I/O error): a
/// body that caught such an error and went on would otherwise commit each later statement on
/// its own, half a change. GRDB's `inTransaction` guards its own statements that way;
/// ``StoreDatabase`` runs its own cached `BEGIN` and `COMMIT`, and ``SQLiteRows`` bypasses
/// GRDB, so the guard sits in SQLite's commit hook, under every statement of either.
///
/// ```swift
/// let gate = CommitGate()
/// gate.install(on: db)                       // once, on the writer connection
/// try gate.closed { try body(db) }           // any commit in here fails and rolls back
/// ```
final class CommitGate: @unchecked Sendable {
    /// Read and written only on the writer connection's serial queue.
    private var refusing = false

    /// Installs the gate on the connection (its commit hook). The gate must outlive it.
    func install(on db: Database) {
        SQLiteRows.setCommitHook(on: db, context: Unmanaged.passUnretained(self).toOpaque()) { context in
            guard let context else { return 0 }
            return Unmanaged<CommitGate>.fromOpaque(context).takeUnretainedValue().refusing ? 1 : 0
        }
    }

    /// Runs `body` with commits refused.
    func closed<T>(_ body: () throws -> T) rethrows -> T {
        refusing = true
        defer { refusing = false }
        return try body()
    }
}

import Foundation
internal import GRDB

/// The connection a search runs on, and how the search reaches it.
///
/// A statement read (``StoreDatabase/readStatement(_:)``) holds its connection for itself: a
/// reader slot (``ConnectionSlot``) or the idle writer. It steps its prepared statements
/// through SQLite's C API (``SQLiteRows``) on the calling thread, without the hop onto GRDB's
/// serial queue for the connection (`DispatchQueue.sync` and GRDB's scheduling checks: about
/// 3k instructions, 7 % of a typed read; docs/performance.md). What needs GRDB — preparing a
/// statement the first time, reading the key rows again after another process changed them —
/// goes through ``withDatabase(_:)``, which enters the queue. A search inside a transaction is
/// on the queue already, and ``withDatabase(_:)`` runs its body at once.
///
/// Outside the queue, only the connection's `sqliteConnection` and the statements'
/// `sqliteStatement` are read: most of GRDB's methods check that they run on the
/// connection's queue and stop the program otherwise (a few do not check, which is why the
/// rule is this narrow). GRDB's statement authorizer may run on the search's thread when
/// SQLite re-prepares a statement after a schema change; the search holds the connection.
///
/// ```swift
/// let count = try database.readStatement { connection in
///     try connection.withDatabase { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM items") }
/// }
/// ```
struct SearchConnection {
    /// The GRDB connection: outside its queue, only for ``SQLiteRows``.
    let db: Database
    /// The connection's prepared statements by key, for a held connection.
    private let statements: PreparedStatements?
    /// The connection's queue, for a held connection; nil when already on it.
    private let queue: DatabaseQueue?

    /// A connection the caller holds for itself outside its queue (a reader slot, or the
    /// writer while no other use of it is under way).
    init(held queue: DatabaseQueue, db: Database, statements: PreparedStatements) {
        self.queue = queue
        self.db = db
        self.statements = statements
    }

    /// The connection of a transaction, whose body runs on the connection's queue.
    init(onQueue db: Database) {
        self.db = db
        statements = nil
        queue = nil
    }

    /// Runs `body` on the connection's queue, where GRDB's methods may be called.
    func withDatabase<T>(_ body: (Database) throws -> T) throws -> T {
        guard let queue else { return try body(db) }
        return try queue.inDatabase(body)
    }

    /// The prepared statement of a search's shape: kept by `key` on a held connection (prepared
    /// the first time, on the queue), from GRDB's statement cache otherwise (`key` nil, or in
    /// a transaction). `sql` is asked for only when the statement is prepared.
    func statement(_ key: Int?, sql: () -> String) throws -> Statement {
        if let key, let statements, let prepared = statements[key] { return prepared }
        return try withDatabase { db in
            guard let key, let statements else { return try db.cachedStatement(sql: sql()) }
            return try statements.prepare(key, in: db, sql: sql())
        }
    }
}

/// Prepared statements of one connection, found by a small integer key instead of by
/// hashing their SQL text on every call. Prepared and removed on the connection's queue;
/// looked up by whoever holds the connection.
final class PreparedStatements {
    private var statements: [Int: Statement] = [:]

    /// The statement prepared for `key`, if any.
    subscript(key: Int) -> Statement? { statements[key] }

    /// Prepares `sql` for `key`. On the connection's queue.
    func prepare(_ key: Int, in db: Database, sql: String) throws -> Statement {
        let statement = try db.makeStatement(sql: sql)
        statements[key] = statement
        return statement
    }

    /// Finalizes every statement (a connection closes only without any). On the connection's queue.
    func removeAll() { statements = [:] }
}

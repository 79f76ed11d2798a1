import Foundation
internal import CSQLiteConfig
internal import GRDB
internal import GRDBSQLite

/// Runs a prepared GRDB statement through SQLite's C API and hands each row's columns out
/// as borrowed memory: the read hot path, where GRDB's `Row` (a column-name dictionary per
/// cursor, a copy per value) costs more than the SQLite step itself. The only file of the
/// engine that calls SQLite directly; everything else goes through GRDB.
///
/// Reads here only `Database.sqliteConnection` and `Statement.sqliteStatement` of GRDB's
/// objects, so a search that holds its connection may call it outside GRDB's queue
/// (``SearchConnection``).
enum SQLiteRows {
    /// A statement argument.
    enum Argument: Sendable {
        case blob([UInt8])
        case data(Data)
        case integer(Int64)
    }

    /// One result row. Its memory is valid only during the callback that received it.
    struct Columns {
        fileprivate let statement: OpaquePointer

        func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

        /// The column's value when SQLite stores it as an integer; `nil` for a real, a text, a
        /// blob or NULL, which ``integer(_:)`` would convert.
        func storedInteger(_ column: Int32) -> Int64? {
            sqlite3_column_type(statement, column) == SQLITE_INTEGER ? sqlite3_column_int64(statement, column) : nil
        }

        /// Whether the column is NULL, which ``bytes(_:)`` reads as empty.
        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

        /// The bytes of a BLOB column (empty for NULL or an empty blob).
        func bytes(_ column: Int32) -> UnsafeRawBufferPointer {
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let base = sqlite3_column_blob(statement, column) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
            return UnsafeRawBufferPointer(start: base, count: count)
        }
    }

    /// Binds `arguments`, steps through the rows until `body` returns false or the rows end,
    /// then resets the statement for its next use.
    static func forEach(_ statement: Statement, arguments: [Argument], in db: Database,
                        _ body: (Columns) throws -> Bool) throws {
        let handle = statement.sqliteStatement
        // A write outside a transaction would commit on its own: SQLite ended the transaction
        // it belonged to after a failure (a full disk, I/O) that a caller went on past. The
        // writer's commit hook (``CommitGate``) refuses that commit for every statement; this
        // answers first, with the right error, before a refused commit's SQLITE_CONSTRAINT
        // could read as a duplicate item (``ItemsTable``'s constraint mapping).
        if sqlite3_stmt_readonly(handle) == 0 && sqlite3_get_autocommit(db.sqliteConnection) != 0 {
            throw abortedTransaction(db)
        }
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        defer { sqlite3_reset(handle) }
        for (index, argument) in arguments.enumerated() {
            let position = Int32(index + 1)
            let status: Int32 = switch argument {
            case .integer(let value):
                sqlite3_bind_int64(handle, position, value)
            case .blob(let bytes):
                bind(bytes, at: position, of: handle)
            case .data(let data):
                bind(data, at: position, of: handle)
            }
            guard status == SQLITE_OK else { throw error(status, db, statement) }
        }
        while true {
            let status = sqlite3_step(handle)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else { throw error(status, db, statement) }
            if try !body(Columns(statement: handle)) { return }
        }
    }

    /// Runs a statement that returns no rows (an INSERT, an UPDATE).
    static func execute(_ statement: Statement, arguments: [Argument], in db: Database) throws {
        try forEach(statement, arguments: arguments, in: db) { _ in false }
    }

    private static func bind(_ bytes: some ContiguousBytes, at position: Int32, of handle: OpaquePointer) -> Int32 {
        bytes.withUnsafeBytes { bytes in
            guard bytes.count <= Int(Int32.max) else { return SQLITE_TOOBIG }
            // A zero-length blob still needs a non-NULL pointer, or SQLite binds NULL.
            return sqlite3_bind_blob(handle, position, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), transient)
        }
    }

    /// The operating system's error behind the connection's last SQLite I/O failure
    /// (`sqlite3_system_errno`): what tells a full disk from a quota or a failing one.
    static func systemErrno(_ db: Database) -> Int32 {
        sqlite3_system_errno(db.sqliteConnection)
    }

    /// Sets the connection's commit hook (``CommitGate``): SQLite calls `hook(context)` before
    /// each commit, and rolls back a commit it answers non-zero to, the statement failing with
    /// SQLITE_CONSTRAINT_COMMITHOOK.
    static func setCommitHook(on db: Database, context: UnsafeMutableRawPointer,
                              _ hook: @convention(c) (UnsafeMutableRawPointer?) -> Int32) {
        _ = sqlite3_commit_hook(db.sqliteConnection, hook, context)
    }

    /// Makes `db`, should it be the last connection to the store to close, leave the
    /// write-ahead log in place rather than checkpoint it into the store file and delete it.
    static func skipCheckpointOnClose(_ db: Database) {
        _ = csqlite_skip_checkpoint_on_close(db.sqliteConnection)
    }

    /// Readies a new connection for a store file someone else may have written, before it
    /// reads the file's schema (``DatabaseFile/connect(_:)`` runs this first on every
    /// connection): defensive mode, an untrusted schema, triggers and views off, no extension
    /// loading, `cell_size_check` on, no memory-mapped reads (`csqlite_harden_connection`).
    /// A SQLite that refuses one of these (older than 3.31, which added the last of them,
    /// `TRUSTED_SCHEMA`) cannot open a store: SecStore does
    /// not open a file it cannot keep a planted trigger from running on.
    static func hardenForUntrustedFile(_ db: Database) throws {
        var setting: UnsafePointer<CChar>?
        let status = csqlite_harden_connection(db.sqliteConnection, &setting)
        guard status == SQLITE_OK else {
            let name = setting.map { String(cString: $0) } ?? "a setting"
            throw SecStoreError(.storeUnavailable, "This SQLite (\(String(cString: sqlite3_libversion()))) refused \(name) (result code \(status)), which SecStore sets on every connection to a store so that a trigger or view planted in the file never runs. SecStore needs SQLite 3.31 or later.")
        }
    }

    /// The error for a write whose transaction SQLite has already rolled back.
    static func abortedTransaction(_ db: Database) -> DatabaseError {
        DatabaseError(resultCode: .SQLITE_ABORT, message: "the transaction was rolled back after an earlier failure; nothing was written")
    }

    /// Turns SQLite's memory statistics off for the process
    /// (``SecretStore/disableSQLiteMemoryStatistics()`` says when and why). Returns whether
    /// SQLite took the setting: it refuses process-wide settings once it has initialized.
    static func disableMemoryStatistics() -> Bool {
        csqlite_disable_memory_statistics() == SQLITE_OK
    }

    /// Makes SQLite's non-recursive mutexes adaptive for the process
    /// (``SecretStore/useAdaptiveSQLiteMutexes()`` says when and why). Returns whether SQLite
    /// took the setting.
    static func useAdaptiveMutexes() -> Bool {
        csqlite_use_adaptive_mutexes() == SQLITE_OK
    }

    /// Whether SQLite's mutexes are the adaptive ones (for tests). Initializes SQLite.
    static var adaptiveMutexesInUse: Bool {
        csqlite_adaptive_mutexes_in_use() == 1
    }

    /// Whether this process's SQLite reads URI filenames (`file:…?mode=rw`) in the names
    /// GRDB passes it (GRDB does not pass `SQLITE_OPEN_URI`): Debian's and Ubuntu's SQLite are
    /// built to (`SQLITE_USE_URI`), SQLite's own default is not. Found once by opening an
    /// in-memory database by a URI, read-only (so a SQLite that takes the name literally finds
    /// no such file, and creates none). Initializes SQLite, as the first store's open does.
    static let readsURIFilenames: Bool = {
        var connection: OpaquePointer?
        defer { sqlite3_close(connection) }
        guard sqlite3_open_v2("file:secstore-uri-check?mode=memory", &connection, SQLITE_OPEN_READONLY, nil) == SQLITE_OK,
              let name = sqlite3_db_filename(connection, "main") else { return false }
        // An in-memory database has an empty file name; a file taken literally would not.
        return name.pointee == 0
    }()

    /// SQLITE_TRANSIENT: SQLite copies bound values, so the arguments need not outlive binding.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Built from SQLite's own handles: a search may run outside the connection's queue
    /// (``SearchConnection``), where GRDB's `Statement.sql` would stop the program.
    private static func error(_ status: Int32, _ db: Database, _ statement: Statement) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                      sql: sqlite3_sql(statement.sqliteStatement).map { String(cString: $0) })
    }
}

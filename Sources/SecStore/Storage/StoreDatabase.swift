import Foundation
internal import GRDB
import Synchronization

/// The SQLite side of a store, in WAL mode with `synchronous=FULL` and a busy timeout so
/// processes can share the file: one writer connection (writes in `BEGIN IMMEDIATE`, the
/// reads that open a store, and single-statement reads until two of its uses first meet),
/// reader connections for single-statement reads (``ReaderConnections``), and
/// connections for multi-statement snapshot reads (``SnapshotConnections``), each opened on
/// first use.
///
/// Plain GRDB `DatabaseQueue`s rather than a `DatabasePool`: the pool's set-up cost a
/// `URL.resourceValues` call (owner names looked up through NSS) and a second statement in
/// every process, and its readers went unused by a process that reads an item and exits
/// (docs/performance.md, "Open").
///
/// Opening the file is in StoreDatabase+Opening.swift, SQLite's errors as the store's in
/// StoreDatabase+Errors.swift; this file routes each use to its connection.
final class StoreDatabase: Sendable {
    /// Used only with `writerInUse` held (or in `init` and `deinit`, where nothing else can).
    private let writer: DatabaseQueue
    /// The writer's GRDB connection, for searches that hold the writer (``readStatement(_:)``):
    /// only its SQLite handle is read outside the writer's queue (``SearchConnection``).
    nonisolated(unsafe) private let writerDatabase: Database
    let path: String
    /// True when the file or its directory cannot be written: every read works, every write
    /// fails with `readOnly` (docs/reliability.md).
    let isReadOnly: Bool
    /// The file the open checked; every write transaction checks that the path still reaches it.
    private let file: DatabaseFile
    /// The `-wal` and `-shm` the writer uses; every write transaction checks them too.
    private let companions: CompanionFiles
    /// Set when the open refused the store (``leaveLogOnClose()``).
    private let openRefused = Atomic<Bool>(false)
    private let readers: ReaderConnections
    private let snapshots: SnapshotConnections
    /// Uses of the writer connection under way or waiting: writes, and the statement reads it
    /// serves (``readStatement(_:)``).
    private let writerUses = Atomic<Int>(0)
    /// True until two uses of the writer first meet (a search or a write finds it in use) or
    /// the handle closes: until then single-statement searches may run on the writer.
    private let searchesUseWriter = Atomic<Bool>(true)
    /// Held by each use of the writer connection: a write or a store-opening read (on GRDB's
    /// queue), a search (outside it, ``SearchConnection``), the close. GRDB's queue alone kept
    /// them apart while searches ran on it; a search now holds the connection on its own
    /// thread, so a write that meets one waits here for it. A write from inside a transaction's
    /// own body, on its thread, is refused here with `writeInsideItsTransaction`
    /// (``HeldMutex``).
    private let writerInUse = HeldMutex<Void>(())
    /// The writer connection's prepared statements for those reads.
    private let writerStatements = WriterStatements()
    /// Refuses commits inside a transaction's body (``CommitGate``). Declared after `writer`:
    /// it must outlive the writer connection whose commit hook names it.
    private let commitGate = CommitGate()
    /// For tests: runs on a search's thread between its count on the writer and its try of
    /// `writerInUse`, the window in which a write or `close()` may get there first.
    private let afterCountingWriterSearch: (@Sendable () -> Void)?

    /// - Parameters:
    ///   - afterCountingWriterSearch: for tests only (see the property).
    ///   - beforeOpeningWriter: for tests only: runs after the file's checks, just before SQLite
    ///     opens the writer connection (the window in which the file may go).
    init(url: URL, busyTimeout: TimeInterval, creating: Bool,
         afterCountingWriterSearch: (@Sendable () -> Void)? = nil,
         beforeOpeningWriter: (() -> Void)? = nil) throws {
        self.afterCountingWriterSearch = afterCountingWriterSearch
        path = url.path
        let directory = url.deletingLastPathComponent()
        try FileSecurity.ensurePrivateDirectory(directory)
        let checked = try FileSecurity.ensurePrivateFile(url, creating: creating)
        let directoryWritable = FileSecurity.isWritableDirectory(directory)
        isReadOnly = !creating && !(checked.writable && directoryWritable)
        let immutable = try isReadOnly && Self.opensImmutable(url, directoryWritable: directoryWritable)
        let file = DatabaseFile(path: url.path, immutable: immutable, identity: checked.identity)
        self.file = file
        companions = CompanionFiles(path: url.path)
        readers = ReaderConnections(file: file, busyTimeout: busyTimeout)
        snapshots = SnapshotConnections(file: file, busyTimeout: busyTimeout)
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "SecStore"
        configuration.readonly = isReadOnly
        let walPath = url.path + CompanionFiles.log
        let walExisted = FileManager.default.fileExists(atPath: walPath)
        beforeOpeningWriter?()
        do {
            writer = try Self.openWriter(file: file, configuration: configuration, busyTimeout: busyTimeout)
            writerDatabase = writer.inDatabase { $0 }
            guard !isReadOnly else { return }
            // SQLite syncs the directory of a new WAL only when it first syncs the WAL, at a
            // commit. A WAL made by an open that then only reads holds nothing, so this is
            // best effort, as SQLite's own directory syncs are: a file system that cannot sync
            // a directory must not keep the store from opening.
            if !walExisted && FileManager.default.fileExists(atPath: walPath) {
                try? FileSecurity.syncDirectory(directory)
            }
            try writer.writeWithoutTransaction { [commitGate] db in
                commitGate.install(on: db)
                // A call that returns success must have committed durably.
                try db.execute(sql: "PRAGMA synchronous = FULL")
                // Inserts touch five B-trees keyed by random tags; a bounded 8 MiB page cache
                // keeps large bulk imports from re-reading index pages (memory stays capped).
                try db.execute(sql: "PRAGMA cache_size = -8192")
            }
        } catch let error as DatabaseError {
            throw Self.translate(error, path: url.path)
        }
    }

    /// The writer closes before the reader connections, on purpose: the last connection to
    /// close checkpoints and deletes the WAL unless it is a reader. A one-shot process that
    /// read an item (`secstore get`, a credential helper) then leaves the WAL in place, and
    /// the next process finds it; deleting it would make every such process pay a checkpoint
    /// with its fsyncs. What the WAL holds was fsynced at each commit (`synchronous=FULL`).
    ///
    /// A handle whose statement reads ran on the writer (no reader connection was open) must
    /// leave the WAL as well, so its writer skips the checkpoint on close.
    deinit {
        writer.inDatabase { db in
            // Nor a handle whose file or shared memory is no longer the store's: its checkpoint
            // would write its stale view into a file and delete, by name, the log the programs
            // now using the store share (``CompanionFiles``).
            if writerStatements.servedReads || openRefused.load(ordering: .acquiring) || companions.replaced().contains(CompanionFiles.sharedMemory)
                || (try? file.checkStillReached()) == nil {
                SQLiteRows.skipCheckpointOnClose(db)
            }
            // SQLite closes a connection only once its statements are finalized.
            writerStatements.statements.removeAll()
        }
        try? writer.close()
    }

    /// Closes every connection now, rather than when the last reference goes: a store
    /// built under a temporary name is closed (its WAL checkpointed and removed) before it
    /// is linked into place.
    func close() throws {
        // Never given back: no statement read takes the writer once it is closing.
        searchesUseWriter.store(false, ordering: .releasing)
        writerUses.add(1, ordering: .acquiringAndReleasing)
        readers.close()
        snapshots.close()
        do {
            // Everything into the main file first: SQLite defers closing a connection that
            // still has statements alive elsewhere, and would leave the pages in the WAL.
            try writerInUse.holding(reentered: SecStoreError.writeInsideItsTransaction) { _ in
                let busy = try writer.writeWithoutTransaction { [writerStatements] db in
                    writerStatements.statements.removeAll()
                    // Checkpointed here; `deinit` then finds a closed connection to leave alone.
                    writerStatements.servedReads = false
                    return try Int.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") ?? 1
                }
                // 1: another connection kept the checkpoint from finishing, so the file alone is
                // not the whole store yet: refuse rather than publish it.
                guard busy == 0 else {
                    throw SecStoreError(.storeBusy, "The new store \(path) could not be written out in full (a checkpoint was blocked). Retry.")
                }
                try writer.close()
            }
        } catch let error as DatabaseError {
            throw Self.translate(error, path: path)
        }
    }

    /// For an open that refused the store (another device key, damage, a version it may not
    /// migrate): its close leaves the log as it is rather than checkpoint it into the file. An
    /// open that refuses a store changes nothing in it; and the log may not be the file's own
    /// (another store renamed over one whose writer was killed: SQLite finds the log by name),
    /// which the checkpoint would write into the file for good and then delete.
    func leaveLogOnClose() {
        openRefused.store(true, ordering: .releasing)
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction: all of it commits, or none of it.
    /// Refused with `storeUnavailable`, once the write lock is held, when the store's path no
    /// longer reaches the file this handle opened (``DatabaseFile/checkStillReached()``): a
    /// write that succeeded there would be lost with a deleted file, or damage a file renamed
    /// into the path, and a handle whose later connections are refused must not write on; and
    /// when its `-wal` or `-shm` was deleted or replaced (``CompanionFiles``), whose write
    /// would overwrite the commits of processes that opened the store since.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try onWriter(beginning: "BEGIN IMMEDIATE TRANSACTION") { [file, companions] db in
            try file.checkStillReached()
            try companions.check()
            return try body(db)
        }
    }

    /// Runs `body` in a read transaction (one snapshot) on the writer connection: for the
    /// reads that open a store, which come before this handle writes anything. A reader
    /// would be one more connection to open (its file, WAL index and schema) that a one-shot
    /// process such as `secstore get` never uses again.
    func readOnWriter<T>(_ body: (Database) throws -> T) throws -> T {
        try onWriter(beginning: "BEGIN DEFERRED TRANSACTION", body)
    }

    /// Runs `body` in a transaction on the writer connection: all of it commits, or none of it.
    ///
    /// `BEGIN` and `COMMIT` are cached statements: GRDB's `inTransaction` parses and
    /// prepares both again for every transaction, a tenth of a durable write's CPU time
    /// (`perf`, docs/performance.md). A failure anywhere rolls back, as `inTransaction` does,
    /// and no statement of the body can commit on its own (``CommitGate``).
    private func onWriter<T>(beginning begin: String, _ body: (Database) throws -> T) throws -> T {
        if writerUses.add(1, ordering: .acquiringAndReleasing).oldValue > 0 {
            // Met a search or another thread's write on the writer: searches move to readers, so
            // a write waits behind at most the one search under way.
            searchesUseWriter.store(false, ordering: .releasing)
        }
        defer { writerUses.subtract(1, ordering: .acquiringAndReleasing) }
        return try translatingErrors {
            try writerInUse.holding(reentered: SecStoreError.writeInsideItsTransaction) { _ in try writer.writeWithoutTransaction { db in
                do {
                    try db.cachedStatement(sql: begin).execute()
                    let result = try commitGate.closed { try body(db) }
                    // SQLite rolls a transaction back by itself on some failures (a full disk,
                    // I/O); a body that caught one must not report success.
                    guard db.isInsideTransaction else { throw SQLiteRows.abortedTransaction(db) }
                    companions.recordIfNeeded()
                    try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
                    return result
                } catch {
                    // Read the cause of an I/O failure while the connection still knows it.
                    let systemErrno = SQLiteRows.systemErrno(db)
                    // GRDB's rollback also copes with a transaction SQLite already rolled back.
                    try? db.rollback()
                    if let error = error as? DatabaseError, [.SQLITE_IOERR, .SQLITE_FULL].contains(error.resultCode) {
                        throw Self.translate(error, path: path, systemErrno: systemErrno)
                    }
                    throw error
                }
            } }
        }
    }

    /// Runs `body` without a transaction: for work that is one SELECT statement, which SQLite
    /// already reads from one snapshot.
    ///
    /// On the writer connection while it is idle and no two of its uses have met yet; else on
    /// a reader connection. A process that reads an item and exits (`secstore get`, a
    /// credential helper) so opens one connection, not two (docs/performance.md). The first
    /// time a search finds the writer in use (another thread's write or search, or this
    /// thread's own transaction, whose connection is not re-entrant), or a write finds a
    /// search on it, searches move to the readers for good, as reading threads need: a search
    /// never waits behind a write, and a write waits behind at most one search.
    ///
    /// Either way the search holds its connection for itself, and steps its statements outside
    /// GRDB's queue (``SearchConnection``): on the writer, `writerInUse` keeps every other use
    /// out until the search is done.
    func readStatement<T>(_ body: (SearchConnection) throws -> T) throws -> T {
        try translatingErrors {
            if case .some(.some(let found)) = try searchOnWriter(body) { return found }
            return try readers.read(body)
        }
    }

    /// Runs `body` on the writer if searches still run there and the writer is idle; nil when
    /// the search belongs on a reader. Never waits: a write that counted itself in between
    /// this search's count and its lock has the writer, and searches move to the readers.
    private func searchOnWriter<T>(_ body: (SearchConnection) throws -> T) throws -> T?? {
        guard searchesUseWriter.load(ordering: .acquiring) else { return nil }
        guard writerUses.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged else {
            searchesUseWriter.store(false, ordering: .releasing)
            return nil
        }
        defer { writerUses.subtract(1, ordering: .acquiringAndReleasing) }
        afterCountingWriterSearch?()
        let outcome = try writerInUse.holdingIfAvailable { _ -> T? in
            // A write that met this search, and `close()`, turn the flag off before they lock.
            guard searchesUseWriter.load(ordering: .acquiring) else { return nil }
            writerStatements.servedReads = true
            return try body(SearchConnection(held: writer, db: writerDatabase, statements: writerStatements.statements))
        }
        if outcome == nil { searchesUseWriter.store(false, ordering: .releasing) }
        return outcome
    }

    /// Whether a statement read has opened a reader connection (for tests).
    var hasReaderConnection: Bool { readers.hasOpenedConnection }

    /// Uses of the writer under way or waiting (for tests).
    var writerUseCount: Int { writerUses.load(ordering: .acquiring) }

    /// Runs `body` in a read transaction: one snapshot for several statements.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try translatingErrors { try snapshots.read(body) }
    }
}

/// The prepared statements of the writer connection's reads: used by the search holding the
/// writer (``StoreDatabase/readStatement(_:)``), and removed on the writer's queue.
private final class WriterStatements: @unchecked Sendable {
    let statements = PreparedStatements()
    /// Whether a statement read ran on the writer.
    var servedReads = false
}

extension SecretStore {
    /// Turns off SQLite's memory statistics for the whole process, so that threads reading a
    /// store at once do not queue for the process-wide mutex SQLite's allocator takes while
    /// they are on: for a server or an app that reads from several threads.
    ///
    /// ```swift
    /// @main struct Server {
    ///     static func main() throws {
    ///         SecretStore.disableSQLiteMemoryStatistics()   // before anything uses SQLite
    ///         let store = try SecretStore()
    ///         // …
    ///     }
    /// }
    /// ```
    ///
    /// With the statistics on (SQLite's default, and the build Debian and Ubuntu ship, which
    /// also leaves out SQLite's lookaside allocator), every `sqlite3_malloc` and `sqlite3_free`
    /// takes one mutex shared by every connection in the process, about a dozen times a point
    /// read (docs/concurrency.md). SecStore never turns them off by itself: the setting is
    /// SQLite's, for every user of SQLite in the process, and with it off
    /// `sqlite3_memory_used`, `sqlite3_memory_highwater`, `sqlite3_status64` and the soft and
    /// hard heap limits stop working for all of them. Call it only when nothing in your
    /// process relies on those, first thing in `main`, before any thread uses SQLite:
    /// SQLite accepts process-wide settings only before it initializes, and not while another
    /// thread is using it.
    ///
    /// - Returns: whether SQLite took the setting; `false` when SQLite had already been
    ///   initialized in this process (nothing changes then; SQLite may log the misuse through
    ///   a log callback installed with `SQLITE_CONFIG_LOG`).
    @discardableResult
    public static func disableSQLiteMemoryStatistics() -> Bool {
        SQLiteRows.disableMemoryStatistics()
    }

    /// Makes SQLite's mutexes spin briefly before they sleep, for the whole process, so that
    /// threads reading one store at once do not take turns through the kernel: for a server
    /// or an app that reads from several threads.
    ///
    /// ```swift
    /// @main struct Server {
    ///     static func main() throws {
    ///         SecretStore.useAdaptiveSQLiteMutexes()        // before anything uses SQLite
    ///         SecretStore.disableSQLiteMemoryStatistics()
    ///         let store = try SecretStore()
    ///         // …
    ///     }
    /// }
    /// ```
    ///
    /// Every read of a store begins and ends a read of SQLite's write-ahead log, and each
    /// time SQLite takes a mutex that every connection of the process to that file shares
    /// (that of the log's shared-memory index). It holds it for well under a microsecond, but
    /// SQLite's own mutexes sleep in the kernel as soon as they find it taken, and a sleep and
    /// a wake cost several microseconds: two threads reading at once spent about 14 % of
    /// their time there, which separate processes (one such mutex each) never do
    /// (docs/performance.md, "Issue 13: eighth session"). This installs, through
    /// `SQLITE_CONFIG_MUTEX`, pthread mutexes of the kinds SQLite's Unix build uses except
    /// that the non-recursive ones are glibc's adaptive kind (`PTHREAD_MUTEX_ADAPTIVE_NP`):
    /// they try again a bounded number of times (the `glibc.pthread.mutex_spin_count`
    /// tunable, 100 by default) before sleeping. Otherwise SQLite behaves as before, except
    /// that its mutex objects (a few dozen bytes each) are allocated outside its memory
    /// accounting.
    ///
    /// SecStore never does this by itself: the setting is SQLite's, for every user of SQLite
    /// in the process. Call it first thing in `main`, before any thread uses SQLite: SQLite
    /// accepts process-wide settings only before it initializes, and not while another thread
    /// is using it.
    ///
    /// - Returns: whether SQLite took the setting; `false` when SQLite had already been
    ///   initialized in this process, when the C library is not glibc (adaptive mutexes are
    ///   glibc's), or when SQLite was built without threads. Nothing changes then.
    @discardableResult
    public static func useAdaptiveSQLiteMutexes() -> Bool {
        SQLiteRows.useAdaptiveMutexes()
    }

    /// Whether SQLite hands out the mutexes of ``useAdaptiveSQLiteMutexes()`` (for the tests'
    /// helper process). Initializes SQLite, which closes its process-wide settings.
    package static var sqliteMutexesAreAdaptive: Bool {
        SQLiteRows.adaptiveMutexesInUse
    }
}

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
}

import SecStore

/// The process-wide SQLite settings docs/concurrency.md advises a program that reads from
/// several threads to make: adaptive mutexes and no memory statistics. Every benchmark
/// process (the run's own and each worker) makes them first thing, before anything opens
/// SQLite, so that both sides, the raw baseline's and SecStore's, run with them.
///
/// ```swift
/// _ = SQLiteProcessSettings.made   // first thing in main
/// ```
enum SQLiteProcessSettings {
    /// Whether SQLite took its adaptive mutexes; made on first use.
    static let made: Bool = {
        let adaptive = SecretStore.useAdaptiveSQLiteMutexes()
        SecretStore.disableSQLiteMemoryStatistics()
        return adaptive
    }()
}

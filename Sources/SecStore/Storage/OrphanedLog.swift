import Foundation

/// A write-ahead log at a path where no store is: what a store moved or deleted without its
/// `-wal` leaves behind. The log outlives the processes that wrote it (a writer killed with
/// -9; a process that read closes without checkpointing, docs/reliability.md) and may hold
/// that store's latest commits. SQLite cannot tell whose log it is: it would replay it into a
/// new store made at that path, damaging the new store and consuming the old one's commits.
/// So a store is never made beside one; the person decides what the log belongs to. An empty
/// log is no exception: a process that still has the moved or deleted store open writes its
/// next commit into that same file (a checkpoint may leave it at zero bytes), and a new store
/// beside it would share it.
enum OrphanedLog {
    /// Whether anything is at `url`'s log path (`<url>-wal`). A store that is there has its
    /// log beside it, so this means an orphan only while nothing is at `url`: check it first
    /// and `url` after, and a store another process makes meanwhile reads as that store.
    static func exists(beside url: URL) -> Bool {
        var info = stat()
        return lstat(url.path + "-wal", &info) == 0
    }

    /// The error for a store that may not be made at `url`.
    static func refusal(_ url: URL) -> SecStoreError {
        let name = url.lastPathComponent
        return SecStoreError(.storeUnavailable, "There is no store at \(url.path), but \(url.path)-wal, the log of a store that was there, is: it may hold that store's latest changes, and a new store at this path would take them in and be damaged. If the store was moved, move \(name)-wal and \(name)-shm with it; if it was deleted and no process has it open, delete them too. Then try again.")
    }
}

import Foundation
internal import GRDB

/// How ``StoreDatabase`` opens a store's file: the writer connection in WAL mode, and what to
/// open when the file cannot be written.
extension StoreDatabase {
    /// What SQLite opens for a store that cannot be written. In a writable directory, the
    /// file itself (SQLite makes its `-shm` there). In a read-only directory without a
    /// `-shm` file SQLite cannot share a WAL index, so the file is opened as immutable: right
    /// only because no WAL is left to apply (nobody can write there either). A WAL left
    /// behind in a read-only directory cannot be read safely: that is an error.
    static func readOnlyPath(_ url: URL, directoryWritable: Bool) throws -> String {
        let manager = FileManager.default
        guard !directoryWritable, !manager.fileExists(atPath: url.path + "-shm") else { return url.path }
        let walSize = (try? manager.attributesOfItem(atPath: url.path + "-wal")[.size] as? Int) ?? 0
        guard walSize == 0 else {
            throw SecStoreError(.readOnly, "The store \(url.path) has changes in its write-ahead log that were never folded into it, and its directory is read-only. Open it once with write access to its directory.")
        }
        // SQLite URI filenames (Debian's and Ubuntu's SQLite read them by default).
        let escaped = url.path.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "?", with: "%3f")
            .replacingOccurrences(of: "#", with: "%23")
        return "file:\(escaped)?immutable=1"
    }

    /// Opens the writer connection and puts a new file in WAL mode (an existing store is in
    /// WAL mode already: SQLite keeps the mode in the file). Several processes creating one
    /// store at the same moment: `PRAGMA journal_mode = WAL` then fails with SQLITE_BUSY at
    /// once — SQLite skips the busy handler because the connection already holds a shared
    /// lock and waiting could deadlock — so the open is retried, with the connection released
    /// between tries, for as long as the busy timeout allows any other wait.
    static func openWriter(path: String, configuration: Configuration, busyTimeout: TimeInterval) throws -> DatabaseQueue {
        let deadline = Date(timeIntervalSinceNow: busyTimeout)
        var pause: useconds_t = 1_000
        while true {
            do {
                let writer = try DatabaseQueue(path: path, configuration: configuration)
                if !configuration.readonly {
                    try writer.writeWithoutTransaction { db in
                        if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
                            guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                                throw SecStoreError(.storeUnavailable, "The store \(path) cannot be put in WAL mode, which SecStore needs to share it between processes: its file system may not support shared memory (a network file system), or another program holds it in exclusive locking mode. Keep the store on a local file system.")
                            }
                        }
                    }
                }
                return writer
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && Date() < deadline {
                // Randomized so the waiting processes do not retry in lockstep.
                usleep(pause + useconds_t.random(in: 0...pause))
                pause = min(pause * 2, 50_000)
            }
        }
    }
}

import Foundation
import Synchronization

/// The temporary files SecStore is writing right now (a backup being exported, a store
/// being built, a device key being published), so that a program interrupted by a signal can
/// remove them before it exits. The library installs no signal handler (it is the program's
/// to choose); the `secstore` tool calls ``removeAll()`` on SIGINT, SIGTERM and SIGHUP.
///
/// ```swift
/// // In a program's own SIGTERM handler:
/// TemporaryFiles.removeAll()
/// ```
package enum TemporaryFiles {
    private static let paths = Mutex<Set<String>>([])

    /// Records a temporary this process created.
    static func register(_ url: URL) {
        _ = paths.withLock { $0.insert(url.path) }
    }

    /// Forgets a temporary that was renamed into place or removed.
    static func unregister(_ url: URL) {
        _ = paths.withLock { $0.remove(url.path) }
    }

    /// Removes every registered temporary (and, for a store, its SQLite companions).
    package static func removeAll() {
        let current = paths.withLock { paths in
            defer { paths.removeAll() }
            return paths
        }
        for path in current { removeWithCompanions(path) }
    }

    /// Removes a file and the SQLite companions it may have (`-wal`, `-shm`, `-journal`).
    static func removeWithCompanions(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }
}

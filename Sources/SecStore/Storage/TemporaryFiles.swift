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

    /// What the program does each time a temporary is registered, before it is: the
    /// `secstore` tool installs its signal cleanup the first time, so that a process that
    /// writes no temporary never pays for it. Set at start-up, before any store is used.
    ///
    /// ```swift
    /// TemporaryFiles.whenRegistering.withLock { $0 = { InterruptCleanup.ensureInstalled() } }
    /// ```
    package static let whenRegistering = Mutex<(@Sendable () -> Void)?>(nil)

    /// Records a temporary this process created.
    static func register(_ url: URL) {
        whenRegistering.withLock { $0 }?()
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
        for suffix in ["", "-wal", "-shm", "-journal"] { FileSystem.unlink(path + suffix) }
    }

    // MARK: Temporaries a killed process left behind

    /// Creates `url` empty (`0600`, `O_EXCL`) and holds an exclusive `flock(2)` on it until
    /// the returned descriptor is closed: the mark of a temporary still being written, which
    /// ``removeAbandoned(in:matching:)`` leaves alone. (`flock` locks are apart from the
    /// `fcntl` locks SQLite takes on the same file.)
    static func createHeld(_ url: URL) throws -> Int32 {
        let descriptor = FileSystem.open(url.path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw SecStoreError(.ioFailure, "Cannot create \(url.path): \(String(cString: strerror(errno))). Check the directory's permissions.")
        }
        _ = flock(descriptor, LOCK_EX)
        return descriptor
    }

    /// How old an unheld temporary must be before it counts as abandoned: a writer takes its
    /// lock right after creating the file, so this only covers that instant.
    static let abandonedAge: TimeInterval = 60

    /// Removes, with their SQLite companions, the temporaries in `directory` whose name starts
    /// with `prefix` (and ends with `suffix`) that no process holds (``createHeld(_:)``, or an
    /// ``AtomicFileWriter``'s lock) and that are older than ``abandonedAge``: what a process
    /// killed while building a store or writing a file left behind. Returns how many.
    @discardableResult
    static func removeAbandoned(in directory: URL, matching isTemporary: (String) -> Bool) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return 0 }
        var removed = 0
        for name in names where isTemporary(name) && !["-wal", "-shm", "-journal"].contains(where: name.hasSuffix) {
            let path = directory.appending(path: name).path
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            var info = stat()
            guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == geteuid(),
                  Date().timeIntervalSince1970 - TimeInterval(info.st_mtim.tv_sec) > abandonedAge,
                  flock(descriptor, LOCK_EX | LOCK_NB) == 0
            else { continue }
            removeWithCompanions(path)
            removed += 1
        }
        return removed
    }
}

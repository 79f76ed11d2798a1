import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The user's lock on putting entries in store keyrings: `flock(2)` on one private file per
/// user, so that `secstore keyring prune` removes a store's keyring only while it holds no key.
///
/// The kernel has no "remove this keyring if it is empty": prune looks at a store's keyring,
/// then invalidates it, two calls, and an unlock that linked its first key in between lost it
/// with the keyring after reporting it shared. So every sharing attempt holds this lock
/// **shared** from finding the store's keyring to linking one entry into it
/// (`FirstUnlockStore.put`), and prune holds it **exclusively** from its second look to the
/// removal (``FirstUnlockCache/removeEmptyStores(_:beforeRemoving:)``). Attempts never wait
/// for one another; one waits for a prune only while that prune makes those few keyring calls.
/// `secstore lock` never takes it: a lock ends whatever of an unlock it finds, and never
/// waits (docs/decisions.md, "Lock").
///
/// ```swift
/// let held = try KeyringLock(.exclusive)
/// defer { held.release() }
/// ```
final class KeyringLock {
    enum Mode {
        /// Putting entries in a store's keyring: any number of holders at once.
        case shared
        /// Removing store keyrings that hold no key: no one else.
        case exclusive
    }

    /// The lock file cannot be used: it cannot be opened or created, or it is not this user's
    /// private file (another user made it first, say). Never waited on, then.
    struct Unavailable: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "the keyring lock file \(path) cannot be used: \(reason)" }
    }

    private var descriptor: Int32

    /// Takes the lock, waiting as long as a holder of the other mode (or, for
    /// ``Mode/exclusive``, any holder) keeps it.
    init(_ mode: Mode) throws(Unavailable) {
        let path = Self.path()
        // Not through FileSystem: the lock's contents are nothing, and no crash can lose it.
        // Read-only: flock needs no more, and a umask that took the owner's write bit away
        // leaves it usable. O_NOFOLLOW: a link planted at the path is refused; O_NONBLOCK: a
        // FIFO never blocks the open (and is refused below).
        let descriptor = open(path, O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0o600)
        guard descriptor >= 0 else { throw Unavailable(path: path, reason: String(cString: strerror(errno))) }
        // Anyone who can open the file can lock it: only a file no other user can open is
        // waited on, or another user could hold every unlock of this one.
        if let problem = FileSecurity.privacyProblem(descriptor: descriptor) {
            close(descriptor)
            throw Unavailable(path: path, reason: problem.description)
        }
        while flock(descriptor, mode == .shared ? LOCK_SH : LOCK_EX) != 0 {
            let error = errno
            guard error == EINTR else {
                close(descriptor)
                throw Unavailable(path: path, reason: String(cString: strerror(error)))
            }
        }
        self.descriptor = descriptor
    }

    deinit { release() }

    /// Lets the lock go (closing the file). Once is enough; later calls do nothing.
    func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    /// Where the lock is: `/run/user/<uid>/secstore-keyring.lock` when that directory is the
    /// user's own (systemd-logind's runtime directory, what `$XDG_RUNTIME_DIR` names in a login
    /// session), else `/tmp/secstore-keyring-<uid>.lock`. Chosen by the user id alone, never by
    /// the environment: a login shell, a service and `sudo -u` have different
    /// `$XDG_RUNTIME_DIR` and `$TMPDIR`, and a lock that two processes look for in two places
    /// excludes nothing. `uid`: the real user id, whose user keyring the lock guards.
    static func path(uid: uid_t = getuid()) -> String {
        let runtime = "/run/user/\(uid)"
        if FileSecurity.isPrivateDirectory(runtime, owner: uid) { return runtime + "/secstore-keyring.lock" }
        return "/tmp/secstore-keyring-\(uid).lock"
    }
}

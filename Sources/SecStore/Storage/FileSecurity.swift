import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File-system rules for everything SecStore writes: directories `0700`, files `0600`,
/// key files refused when anyone but their owner could read them.
package enum FileSecurity {
    /// Creates `directory` and any missing parents with mode `0700`, and makes sure no one
    /// else can remove or replace what is in it (``checkDirectoryIsNotShared(_:)``).
    package static func ensurePrivateDirectory(_ directory: URL) throws {
        var missing: [URL] = []
        var current = directory.standardizedFileURL
        while !FileManager.default.fileExists(atPath: current.path) {
            missing.append(current)
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { break }
            current = parent
        }
        for url in missing.reversed() {
            if FileSystem.mkdir(url.path, 0o700) != 0 && errno != EEXIST {
                throw SecStoreError(.ioFailure, "Cannot create the directory \(url.path): \(String(cString: strerror(errno))). Check that its parent exists and is writable.")
            }
            // The new entry is durable only once its parent is synced: a power cut must not
            // lose the directory that holds the device key or the store.
            try syncDirectory(url.deletingLastPathComponent())
        }
        try checkDirectoryIsNotShared(directory)
    }

    /// Whether `path` is a directory only `owner` may use: owned by `owner`, no group or
    /// other permission bits (a runtime directory for the keyring lock or a scratch file).
    package static func isPrivateDirectory(_ path: String, owner: uid_t = geteuid()) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR && info.st_uid == owner && info.st_mode & 0o077 == 0
    }

    /// A directory others may write to (group or world write, without the sticky bit that
    /// keeps them to their own entries) lets them delete or replace the store and its device
    /// key: every item lost, or a store of theirs read in its place. One of this user's own
    /// (an old `0777` data directory) is repaired by taking those write bits away, as a
    /// loosened store file is repaired; one of another user's is refused.
    static func checkDirectoryIsNotShared(_ directory: URL) throws {
        var info = stat()
        guard stat(directory.path, &info) == 0 else { return }   // the open that follows says why
        let othersWrite = mode_t(S_IWGRP | S_IWOTH)
        guard info.st_mode & othersWrite != 0, info.st_mode & mode_t(S_ISVTX) == 0 else { return }
        if info.st_uid == geteuid() && chmod(directory.path, info.st_mode & 0o7777 & ~othersWrite) == 0 { return }
        throw SecStoreError(.storeUnavailable, "The directory \(directory.path) can be written by other users (mode \(String(info.st_mode & 0o7777, radix: 8))), so they could delete or replace the store and its device key. Keep them in a directory only you can write to (`chmod go-w \(directory.path)`, as its owner).")
    }

    /// Creates `file` empty with mode `0600` unless it exists, so that SQLite, which gives
    /// its `-wal` and `-shm` files the database's mode, never makes them readable by others.
    /// An existing store must be a regular file of this user: a symbolic link, a FIFO (which
    /// would block the open forever) or a directory is refused with a message that says so,
    /// and one that others can read (an old `0644` copy) is repaired to `0600`, its SQLite
    /// companions too, since its mode is not the protection (the contents are sealed) but a
    /// leak of sizes and counts.
    ///
    /// Only a store being built (`creating`) may be created here: a store that vanished
    /// between a check and the open must not come back as an empty file.
    ///
    /// Returns whether the file can be written (false when it exists but its mode or a
    /// read-only mount forbid it: the store then opens read-only), and which file it is: every
    /// SQLite connection to the store checks that its name still reaches that file
    /// (``DatabaseFile``).
    static func ensurePrivateFile(_ file: URL, creating: Bool) throws -> (writable: Bool, identity: FileIdentity) {
        var writable = true
        var descriptor = FileSystem.open(file.path, (creating ? O_CREAT : 0) | O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        if descriptor < 0 && !creating && [EACCES, EROFS, EPERM].contains(errno) {
            descriptor = FileSystem.open(file.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            writable = false
        }
        guard descriptor >= 0 else {
            let code = errno
            var info = stat()
            if lstat(file.path, &info) == 0 {
                switch info.st_mode & S_IFMT {
                case S_IFLNK:
                    throw SecStoreError(.storeUnavailable, "\(file.path) is a symbolic link. SecStore does not follow links for its store; give the real path (`realpath \(file.path)`).")
                case S_IFIFO, S_IFSOCK, S_IFCHR, S_IFBLK:
                    throw SecStoreError(.storeUnavailable, "\(file.path) is not a regular file (a FIFO, socket or device). Move it aside and give the path of a store file.")
                case S_IFDIR:
                    throw SecStoreError(.storeUnavailable, "\(file.path) is a directory. Give the path of a store file inside it.")
                default:
                    break
                }
            }
            if code == ENOENT && !creating {
                throw SecStoreError(.storeUnavailable, "There is no store at \(file.path) (it was removed). Create it again (`secstore create --store \(file.path)`), or check the path.")
            }
            throw SecStoreError(.ioFailure, "Cannot \(creating ? "create" : "open") \(file.path): \(String(cString: strerror(code))). Check the directory's permissions.")
        }
        defer { FileSystem.close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw SecStoreError(.storeUnavailable, "\(file.path) is not a regular file. Move it aside and give the path of a store file.")
        }
        guard info.st_uid == geteuid() else {
            throw SecStoreError(.storeUnavailable, "The store \(file.path) belongs to user \(info.st_uid), not to you (\(geteuid())). Each user keeps their own store.")
        }
        // SQLite's companions, which it opens by name and uses as they are: one that is a FIFO
        // or a device would fail the open as "disk full or failing", which sends the user to the
        // wrong fix; one of another user's — left at the name in a shared sticky directory,
        // which a store may be in — would let that user read the store's log and write pages
        // SQLite replays into the store. This user's own, loosened, is repaired like the store.
        for suffix in CompanionFiles.suffixes {
            let what = "\(file.path)\(suffix), the store's SQLite \(CompanionFiles.role(suffix)) file,"
            var companion = stat()
            guard lstat(file.path + suffix, &companion) == 0 else { continue }
            guard (companion.st_mode & S_IFMT) == S_IFREG else {
                throw SecStoreError(.storeUnavailable, "\(what) is not a regular file (a FIFO, a socket, a device, a link or a directory). Move it aside; SecStore makes a new one.")
            }
            guard companion.st_uid == geteuid() else {
                throw SecStoreError(.storeUnavailable, "\(what) belongs to user \(companion.st_uid), not to you (\(geteuid())), so that user could read the store's log or change what SQLite reads into the store. If no program has the store open, delete it (SecStore makes a new one), and keep the store in a directory only you can write to.")
            }
            if companion.st_mode & 0o077 != 0 || info.st_mode & 0o077 != 0 {
                let opened = open(file.path + suffix, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
                if opened >= 0 {
                    _ = fchmod(opened, 0o600)
                    close(opened)
                }
            }
        }
        if info.st_mode & 0o077 != 0 {
            _ = fchmod(descriptor, 0o600)
        }
        return (writable, FileIdentity(info))
    }

    /// Whether this process may create and remove files in `directory` (SQLite's `-wal` and
    /// `-shm` companions need it).
    static func isWritableDirectory(_ directory: URL) -> Bool {
        access(directory.path, W_OK) == 0
    }

    /// Refuses a file that is not a regular file owned by this user with no group or other
    /// permission bits (``privacyProblem(descriptor:)``).
    package static func checkPrivate(descriptor: Int32, path: String, what: String) throws {
        switch privacyProblem(descriptor: descriptor) {
        case nil:
            return
        case .cannotInspect(let error):
            throw SecStoreError(.ioFailure, "Cannot inspect the \(what) \(path): \(String(cString: strerror(error))).")
        case .notRegularFile:
            throw SecStoreError(.insecureKeyFile, "The \(what) \(path) is not a regular file. Move it aside; SecStore will not read keys from it.")
        case .ownedBy(let owner):
            throw SecStoreError(.insecureKeyFile, "The \(what) \(path) belongs to user \(owner), not to you (\(geteuid())). Use your own key file, or `chown` it.")
        case .exposed(let mode):
            throw SecStoreError(.insecureKeyFile, "The \(what) \(path) is readable or writable by group or others (mode \(String(mode, radix: 8))). Run `chmod 600 \(path)` and try again.")
        }
    }

    /// Why a file is not private to this user, in ``privacyProblem(descriptor:)``.
    package enum PrivacyProblem: Equatable, CustomStringConvertible {
        /// `fstat(2)` failed with this `errno`.
        case cannotInspect(Int32)
        /// A directory, a FIFO, a device, a socket.
        case notRegularFile
        /// Another user's file (this uid).
        case ownedBy(uid_t)
        /// Group or others have permission bits (this mode, permission bits only).
        case exposed(mode_t)

        /// The problem in a few words: "it belongs to user 1001".
        package var description: String {
            switch self {
            case .cannotInspect(let error): "it cannot be inspected (\(String(cString: strerror(error))))"
            case .notRegularFile: "it is not a regular file"
            case .ownedBy(let owner): "it belongs to user \(owner)"
            case .exposed(let mode): "group or others have access to it (mode \(String(mode, radix: 8)))"
            }
        }
    }

    /// The rule for every private file SecStore opens — key files, passphrase files, the
    /// keyring lock: a regular file, owned by this user, with no group or other permission
    /// bits. Returns what breaks it for the file open at `descriptor`, or nil.
    package static func privacyProblem(descriptor: Int32) -> PrivacyProblem? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .cannotInspect(errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .notRegularFile }
        guard info.st_uid == geteuid() else { return .ownedBy(info.st_uid) }
        let exposed = info.st_mode & 0o077
        return exposed == 0 ? nil : .exposed(info.st_mode & 0o777)
    }

    /// Whose writing a file that is believed for what it says may come from
    /// (``othersCouldHaveWritten(descriptor:besides:)``).
    package enum Writers: Sendable {
        /// This user only: a file this user's programs write (DeviceIdentity's mirror copy).
        case thisUser
        /// This user or root: a system file a caller names, such as `/etc/machine-id` (root's,
        /// `0444`), for DeviceIdentity's derivation.
        case thisUserOrRoot
    }

    /// Whether someone other than `writers` could have written the file open at `descriptor`:
    /// it belongs to another user (root counts as allowed with ``Writers/thisUserOrRoot``), or
    /// group or others may write it. The rule for a file that is not secret but is believed for
    /// what it says (DeviceIdentity's mirror copy, a derivation's machine id): anyone who could
    /// write it chose what it says — the owner of a file left in a shared sticky directory such
    /// as `/tmp`, or anyone at all when its mode lets them. A file others may only read is not
    /// refused: what it says is still its owner's.
    package static func othersCouldHaveWritten(descriptor: Int32, besides writers: Writers = .thisUser) -> Bool {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return true }
        let allowedOwner = info.st_uid == geteuid() || (writers == .thisUserOrRoot && info.st_uid == 0)
        return !allowedOwner || info.st_mode & mode_t(S_IWGRP | S_IWOTH) != 0
    }

    /// Makes a new entry, rename or link in `directory` durable. A directory that cannot be
    /// opened or synced is an `ioFailure`: the change may not survive a power cut, so it was
    /// not made the way the caller promises.
    package static func syncDirectory(_ directory: URL) throws {
        let descriptor = FileSystem.open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw SecStoreError(.ioFailure, "Cannot open the directory \(directory.path) to make a change in it durable: \(String(cString: strerror(errno))).")
        }
        defer { FileSystem.close(descriptor) }
        // EINVAL: the file system cannot sync directories (some network and virtual ones); there
        // is nothing more to do there.
        if FileSystem.fsync(descriptor) != 0 && errno != EINVAL {
            throw SecStoreError(.ioFailure, "Cannot flush the directory \(directory.path) to disk: \(String(cString: strerror(errno))). The change may not survive a power cut; check the disk and try again.")
        }
    }
}

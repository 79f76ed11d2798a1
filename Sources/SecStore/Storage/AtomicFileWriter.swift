import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way SecStore writes a whole file outside the database (backups, the device key,
/// DeviceIdentity's mirror copy): a readers-never-see-half-a-file write.
///
/// 1. The temporary `.<name>.<pid>.<random>.tmp` is created next to the destination with
///    `O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_WRONLY` and mode `0600`, so it is private
///    from its first byte and a file or symbolic link already at that path is refused, never
///    followed or reused.
/// 2. ``write(_:)`` appends (call it once, or once per record to stream).
/// 3. ``commit(_:)`` fsyncs the file, moves it into place and fsyncs the directory:
///    ``Placement/replace`` renames over any existing file atomically;
///    ``Placement/createOnly`` hard-links, so a file another process created first is kept
///    and the caller learns it lost the race.
/// 4. A writer released or failing before the commit removes its temporary. One killed
///    (kill -9, a power cut) cannot: the next writer of the same destination removes the
///    temporaries no live writer holds (each holds an exclusive `flock(2)` on its own until its
///    name is gone: renamed or linked into place and removed) that are older than
///    ``TemporaryFiles/abandonedAge``, the way `create` cleans up after itself
///    (``removeAbandonedTemporaries(of:)``, which DeviceIdentity also calls when it reads).
///
/// Every change to the file system goes through ``FileSystem``.
///
/// ```swift
/// let writer = try AtomicFileWriter(destination: url, describing: "the backup")
/// try writer.write(header)
/// try writer.commit(.replace)
/// ```
///
/// Every failure is a ``SecStoreError`` `ioFailure` that names the file and the fix. The
/// destination's directory must exist; this type does not create it.
package final class AtomicFileWriter {
    /// How ``commit(_:)`` puts the finished file at its destination.
    package enum Placement: Sendable {
        /// `rename(2)`: replaces an existing destination atomically, when it is a regular file
        /// or a symbolic link (the link itself is replaced, never its target). A device, a
        /// FIFO, a socket or a directory there is refused and left as it is: as root, a
        /// rename over `/dev/null` would put a private file in its place for every process.
        case replace
        /// `link(2)`: installs only when nothing is at the destination yet.
        case createOnly
        /// As ``createOnly``; where the file system has no hard links (`link(2)` fails with
        /// EPERM, ENOTSUP or EOPNOTSUPP, as FAT does), checks that nothing is at the
        /// destination and renames. A file another process creates between that check and the
        /// rename is replaced, so this is for a file the user names (`secstore export
        /// --plaintext`), never for one several processes race to publish (the device key).
        case createOnlyOrCheckedRename
    }

    /// Where the file ends up.
    package let destination: URL
    /// The temporary being written, in the destination's directory.
    package let temporary: URL
    private let what: String
    private var descriptor: Int32
    /// A duplicate of ``descriptor`` made at the commit, which keeps the temporary locked
    /// until its name is gone (step 4), or -1.
    private var lockHolder: Int32 = -1
    private var finished = false

    /// Creates the temporary next to `destination`. `what` names the file in messages
    /// ("the backup", "the device key").
    package convenience init(destination: URL, describing what: String) throws {
        let name = ".\(destination.lastPathComponent).\(getpid()).\(String(UInt32.random(in: 0...UInt32.max), radix: 16)).tmp"
        try self.init(destination: destination, temporary: destination.deletingLastPathComponent().appending(path: name),
                      describing: what)
    }

    /// Whether `name` has exactly the shape of a writer's temporary for `destination`,
    /// `.<name>.<pid>.<hex>.tmp` (made above): only those are ever removed as abandoned, never
    /// an application's own `.<name>.something.tmp` beside a file the user chose.
    static func isTemporaryName(_ name: String, of destination: URL) -> Bool {
        let prefix = ".\(destination.lastPathComponent)."
        guard name.hasPrefix(prefix), name.hasSuffix(".tmp") else { return false }
        let middle = name.dropFirst(prefix.count).dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
        return middle.count == 2 && !middle[0].isEmpty && middle[0].allSatisfy(\.isASCII) && middle[0].allSatisfy(\.isNumber)
            && !middle[1].isEmpty && middle[1].allSatisfy(\.isHexDigit)
    }

    /// Removes the temporaries of `destination` that killed writers left: those no live writer
    /// holds and older than ``TemporaryFiles/abandonedAge`` (step 4 above). Every writer does it
    /// before it creates its own; a reader of the file may too, since a writer's temporary is
    /// held from its creation until its name is gone, and a temporary younger than the age may
    /// be one that is not locked yet.
    ///
    /// ```swift
    /// AtomicFileWriter.removeAbandonedTemporaries(of: mirrorURL)
    /// ```
    package static func removeAbandonedTemporaries(of destination: URL) {
        TemporaryFiles.removeAbandoned(in: destination.deletingLastPathComponent()) { isTemporaryName($0, of: destination) }
    }

    /// As above, with a chosen temporary path (for tests), which must be in the destination's
    /// directory and must not exist.
    package init(destination: URL, temporary: URL, describing what: String) throws {
        self.destination = destination
        self.temporary = temporary
        self.what = what
        // A temporary a killed writer left holds a whole or partial copy of the contents (a
        // device key, a backup) and would stay forever: the next write of the file removes it.
        Self.removeAbandonedTemporaries(of: destination)
        descriptor = FileSystem.open(temporary.path, O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_WRONLY, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            // Nothing was created: the path, if it exists, is not ours to remove.
            finished = true
            let directory = temporary.deletingLastPathComponent().path
            if code == EEXIST {
                throw SecStoreError(.ioFailure, "Cannot write \(what): its temporary file \(temporary.path) already exists (a leftover or a link placed there). Remove it if no other SecStore process is writing to \(directory), and try again.")
            }
            throw SecStoreError(.ioFailure, "Cannot write \(what): creating a temporary file in \(directory) failed: \(Self.reason(code)). Check that the directory exists and is writable.")
        }
        TemporaryFiles.register(temporary)
        // The umask can only clear bits; make the mode exactly 0600 whatever it is.
        _ = fchmod(descriptor, 0o600)
        // Held until closed: the mark of a live writer, which removeAbandoned leaves alone.
        _ = flock(descriptor, LOCK_EX)
    }

    deinit { discard() }

    /// Appends `bytes` to the temporary.
    package func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Appends `bytes` to the temporary (for callers that keep the bytes in guarded memory).
    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        try requireOpen()
        if let code = DescriptorWriter.writeAll(bytes, to: descriptor) {
            discard()
            throw SecStoreError(.ioFailure, "Writing \(what) to \(temporary.path) failed: \(Self.reason(code)). Check free disk space and quotas, then try again; \(destination.path) was left as it was.")
        }
    }

    /// Makes the written bytes durable and puts them at ``destination``. Returns `false` only
    /// for ``Placement/createOnly`` (or ``Placement/createOnlyOrCheckedRename``) when a file
    /// already was there (it is left untouched).
    @discardableResult
    package func commit(_ placement: Placement) throws -> Bool {
        try requireOpen()
        if FileSystem.fsync(descriptor) != 0 {
            let code = errno
            discard()
            throw SecStoreError(.ioFailure, "Cannot flush \(what) to disk (\(temporary.path)): \(Self.reason(code)). \(destination.path) was left as it was; check the disk and try again.")
        }
        // The lock that marks a live writer is the open file's: a duplicate keeps it after the
        // descriptor written through is closed (and its close checked), until the temporary's
        // name is gone. Released at the close, a writer stopped or suspended for longer than
        // the abandoned age lost its temporary to a concurrent sweep between the close and the
        // rename, and failed after its caller had acted on the write (a reset's store commit).
        lockHolder = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        let closed = FileSystem.close(descriptor)
        let closeCode = errno
        descriptor = -1
        guard closed == 0 || closeCode == EINTR else {
            discard()
            throw SecStoreError(.ioFailure, "Cannot finish writing \(what) (\(temporary.path)): \(Self.reason(closeCode)). \(destination.path) was left as it was; check the disk and try again.")
        }
        let directory = destination.deletingLastPathComponent()
        var installed = true
        switch placement {
        case .replace:
            var existing = stat()
            if lstat(destination.path, &existing) == 0 && ![S_IFREG, S_IFLNK].contains(existing.st_mode & S_IFMT) {
                discard()
                throw SecStoreError(.ioFailure, "\(destination.path) is not a regular file (a device, a FIFO, a socket or a directory), so \(what) does not replace it; nothing was written. Choose a file name.")
            }
            if FileSystem.rename(temporary.path, destination.path) != 0 {
                let code = errno
                discard()
                throw SecStoreError(.ioFailure, "Cannot move \(what) into place at \(destination.path): \(Self.reason(code)). Check that \(directory.path) is writable and \(destination.path) is not a directory.")
            }
        case .createOnly, .createOnlyOrCheckedRename:
            if FileSystem.link(temporary.path, destination.path) != 0 {
                let code = errno
                if placement == .createOnlyOrCheckedRename && [EPERM, ENOTSUP, EOPNOTSUPP].contains(code) {
                    installed = try renameIfAbsent(into: directory)
                    break
                }
                guard code == EEXIST else {
                    discard()
                    throw SecStoreError(.ioFailure, "Cannot install \(what) at \(destination.path): \(Self.reason(code)). Check that \(directory.path) is writable and on a file system with hard links.")
                }
                installed = false
            }
            FileSystem.unlink(temporary.path)
        }
        finished = true
        releaseLock()
        TemporaryFiles.unregister(temporary)
        do {
            try FileSecurity.syncDirectory(directory)
        } catch let error as SecStoreError where installed {
            // Said so: the file is in place (a failure here is not "nothing happened").
            throw SecStoreError(.ioFailure, "\(what.prefix(1).uppercased() + what.dropFirst()) was written to \(destination.path), but its name is not yet durable. \(error.message)")
        }
        return installed
    }

    /// ``Placement/createOnlyOrCheckedRename`` on a file system without hard links: `false`
    /// (the temporary removed) when something is at the destination, else the rename.
    private func renameIfAbsent(into directory: URL) throws -> Bool {
        var info = stat()
        if lstat(destination.path, &info) == 0 {
            FileSystem.unlink(temporary.path)
            return false
        }
        if FileSystem.rename(temporary.path, destination.path) != 0 {
            let code = errno
            discard()
            throw SecStoreError(.ioFailure, "Cannot move \(what) into place at \(destination.path): \(Self.reason(code)). Check that \(directory.path) is writable.")
        }
        return true
    }

    private func requireOpen() throws {
        guard !finished else {
            throw SecStoreError(.ioFailure, "Cannot write \(what) to \(destination.path): this writer was already committed, or abandoned after an earlier failure. Start a new write.")
        }
    }

    /// Closes and removes the temporary unless it was committed or never created.
    private func discard() {
        if descriptor >= 0 {
            FileSystem.close(descriptor)
            descriptor = -1
        }
        if !finished {
            finished = true
            FileSystem.unlink(temporary.path)
            TemporaryFiles.unregister(temporary)
        }
        releaseLock()
    }

    /// Closes the duplicate that held the temporary's lock through the commit, if any.
    private func releaseLock() {
        if lockHolder >= 0 {
            close(lockHolder)
            lockHolder = -1
        }
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}

extension AtomicFileWriter {
    /// Writes `bytes` to `destination` in one go; see the type's steps.
    @discardableResult
    package static func write(_ bytes: [UInt8], to destination: URL, describing what: String,
                              placement: Placement = .replace) throws -> Bool {
        let writer = try AtomicFileWriter(destination: destination, describing: what)
        try writer.write(bytes)
        return try writer.commit(placement)
    }
}

import Foundation
import SecStore
import Synchronization

/// A private directory (mode `0700`) holding one private file (mode `0600`) with a secret,
/// for a program that can only read a path (`secstore edit` hands it to `$EDITOR`). It lives
/// in memory where the system offers it — `$XDG_RUNTIME_DIR` (the user's own tmpfs), else
/// `/dev/shm` — and in the temporary directory otherwise.
///
/// ```swift
/// let scratch = try PrivateScratch(contents: secret)
/// defer { scratch.wipeAndRemove() }
/// try runEditor(scratch.filePath)
/// let edited = try scratch.read()
/// ```
///
/// ``wipeAndRemove()`` overwrites with zeros, flushes and removes every regular file in the
/// directory and below (an editor's swap and backup files too), removes anything else there
/// without opening it for long (a FIFO is never waited on), then the directory. The original file
/// stays open until then, so its bytes are wiped even when an editor saved by writing a new
/// file and renaming it over the old one. Every scratch is registered, and
/// ``InterruptCleanup`` wipes them on SIGINT, SIGTERM, SIGHUP and SIGQUIT.
final class PrivateScratch: @unchecked Sendable {
    let directoryPath: String
    let filePath: String
    private var originalDescriptor: Int32
    private let lock = Mutex(false)

    private static let live = Mutex<[ObjectIdentifier: PrivateScratch]>([:])

    init(contents: Data, fileName: String = "secret", environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        InterruptCleanup.ensureInstalled()
        let base = Self.baseDirectory(environment: environment)
        var template = Array((base + "/secstore-edit-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard created != nil else {
            throw CLIError(.failure, "Cannot create a private directory in \(base): \(String(cString: strerror(errno))).", name: "ioFailure")
        }
        directoryPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        chmod(directoryPath, 0o700)
        filePath = directoryPath + "/" + fileName
        originalDescriptor = open(filePath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard originalDescriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            rmdir(directoryPath)
            throw CLIError(.failure, "Cannot create a private file in \(directoryPath): \(reason).", name: "ioFailure")
        }
        fchmod(originalDescriptor, 0o600)
        Self.live.withLock { $0[ObjectIdentifier(self)] = self }
        let written = contents.withUnsafeBytes { DescriptorWriter.writeAll($0, to: originalDescriptor) }
        if let written {
            wipeAndRemove()
            throw CLIError(.failure, "Cannot write the private file: \(String(cString: strerror(written))).", name: "ioFailure")
        }
        fsync(originalDescriptor)
    }

    deinit { wipeAndRemove() }

    /// `$XDG_RUNTIME_DIR` when it is an absolute path to a directory only its owner (this
    /// user) may enter, else `/dev/shm` when it is a writable directory, else `$TMPDIR` or `/tmp`.
    static func baseDirectory(environment: [String: String]) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"),
           FileSecurity.isPrivateDirectory(runtime), access(runtime, W_OK | X_OK) == 0 {
            return runtime
        }
        var info = stat()
        if stat("/dev/shm", &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, access("/dev/shm", W_OK | X_OK) == 0 {
            return "/dev/shm"
        }
        if let temporary = environment["TMPDIR"], temporary.hasPrefix("/") { return temporary }
        return "/tmp"
    }

    /// The file's bytes now (what the editor saved), at most `limit`. The file must still be a
    /// regular file: the editor (or anything with the user's rights) may have put something
    /// else at its path, and opening a FIFO for reading would wait for a writer forever.
    /// So it is opened without blocking and without following a link, and its type checked
    /// on the descriptor before anything is read.
    func read(limit: Int) throws -> Data {
        let descriptor = open(filePath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else {
            let failure = errno
            if failure == ELOOP { throw notRegularFile("a symbolic link") }
            throw CLIError(.failure, "The edited file \(filePath) is gone (\(String(cString: strerror(failure)))). Nothing was changed.", name: "ioFailure")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw CLIError(.failure, "Cannot inspect the edited file \(filePath): \(String(cString: strerror(errno))). Nothing was changed.", name: "ioFailure")
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFIFO: throw notRegularFile("a FIFO")
        case S_IFDIR: throw notRegularFile("a directory")
        case S_IFSOCK: throw notRegularFile("a socket")
        default: throw notRegularFile("a device")
        }
        // A regular file never blocks; reads are plain again.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return try InputFile.readAll(descriptor, name: filePath, what: "edited", limit: limit)
    }

    private func notRegularFile(_ what: String) -> CLIError {
        CLIError(.failure, "The edited file \(filePath) is no longer a regular file (the editor left \(what) in its place). Nothing was changed.",
                 name: "editedFileNotRegular")
    }

    /// Overwrites every file of the directory with zeros, flushes, removes them and the
    /// directory. Safe to call more than once and from the interrupt queue.
    func wipeAndRemove() {
        let alreadyDone = lock.withLock { done in
            defer { done = true }
            return done
        }
        guard !alreadyDone else { return }
        if originalDescriptor >= 0 {
            Self.zero(descriptor: originalDescriptor)
            close(originalDescriptor)
            originalDescriptor = -1
        }
        Self.wipeAndRemove(directory: directoryPath)
        Self.live.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(self)) }
    }

    /// Zeroes every regular file in `directory` and below (a directory an editor made there
    /// too), removes everything, then the directory. Nothing but a regular file is opened for
    /// writing, and nothing blocks: a FIFO is only removed.
    private static func wipeAndRemove(directory: String) {
        if let names = try? FileManager.default.contentsOfDirectory(atPath: directory) {
            for name in names {
                let path = directory + "/" + name
                var entry = stat()
                if lstat(path, &entry) == 0, (entry.st_mode & S_IFMT) == S_IFDIR {
                    wipeAndRemove(directory: path)
                    continue
                }
                let descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
                if descriptor >= 0 {
                    var info = stat()
                    if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
                        zero(descriptor: descriptor)
                    }
                    close(descriptor)
                }
                unlink(path)
            }
        }
        rmdir(directory)
    }

    /// Writes zeros over the whole file, from its start, and flushes them.
    private static func zero(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return }
        let zeros = [UInt8](repeating: 0, count: 64 * 1024)
        var offset: off_t = 0
        while offset < info.st_size {
            let count = min(zeros.count, Int(info.st_size - offset))
            let written = zeros.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, count, offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { break }
            offset += off_t(written)
        }
        fsync(descriptor)
    }

    /// Wipes every live scratch (from ``InterruptCleanup``).
    static func wipeAll() {
        let scratches = live.withLock { Array($0.values) }
        for scratch in scratches { scratch.wipeAndRemove() }
    }
}

import Foundation
import SecStore
import Synchronization

/// Writes a file of plaintext secrets (`export --format env|json|csv --plaintext`) with the
/// library's ``AtomicFileWriter``, as every other file SecStore writes: a `0600` temporary in
/// the same directory, flushed, then linked (or with `--force` renamed) into place and the
/// directory flushed, all through the `FileSystem` seam. A failure before the move leaves the
/// destination as it was and no temporary; a temporary a killed export left (kill -9, a power
/// cut) is removed by the next export of the same file; one that an interrupt (Ctrl-C,
/// SIGTERM, SIGHUP) finds is overwritten with zeros and removed (``InterruptCleanup``).
///
/// ```swift
/// try PlaintextFile.write(bytes, to: URL(filePath: "secrets.env"), replacing: false)
/// ```
enum PlaintextFile {
    private static let pending = Mutex<Set<String>>([])

    /// Throws `fileExists` (status 4) when `destination` exists and `replacing` is false,
    /// else the writer's `ioFailure`, which says whether the file was already in place.
    static func write(_ bytes: UnsafeRawBufferPointer, to destination: URL, replacing: Bool) throws {
        let writer = try AtomicFileWriter(destination: destination, describing: "the plaintext export")
        let temporary = writer.temporary.path
        pending.withLock { _ = $0.insert(temporary) }
        defer { pending.withLock { _ = $0.remove(temporary) } }
        try writer.write(bytes)
        // createOnly links, so a file created meanwhile by another program is never replaced.
        guard try writer.commit(replacing ? .replace : .createOnlyOrCheckedRename) else {
            throw CLIError.fileExists(destination)
        }
    }

    /// Wipes and removes every temporary being written (from ``InterruptCleanup``).
    static func wipeAll() {
        for path in pending.withLock({ $0 }) {
            let descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
            if descriptor >= 0 {
                var info = stat()
                if fstat(descriptor, &info) == 0, info.st_size > 0 {
                    let zeros = [UInt8](repeating: 0, count: Int(info.st_size))
                    _ = zeros.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
                    fsync(descriptor)
                }
                close(descriptor)
            }
            unlink(path)
        }
    }
}

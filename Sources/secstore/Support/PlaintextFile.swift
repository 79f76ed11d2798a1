import Foundation
import SecStore
import Synchronization

/// Writes a file of plaintext secrets (`export --format env|json|csv --plaintext`) as the
/// encrypted backup is written: to a temporary name in the same directory, mode `0600` from
/// its first byte, flushed, then renamed into place, so a failure leaves nothing behind and an
/// existing file is replaced whole or not at all. A temporary that an interrupt (Ctrl-C,
/// SIGTERM, SIGHUP) finds is overwritten with zeros and removed (``InterruptCleanup``).
///
/// ```swift
/// try PlaintextFile.write(bytes, to: URL(filePath: "secrets.env"), replacing: false)
/// ```
enum PlaintextFile {
    private static let pending = Mutex<Set<String>>([])

    static func write(_ bytes: Data, to destination: URL, replacing: Bool) throws {
        let directory = destination.deletingLastPathComponent().path
        var template = Array((directory + "/." + destination.lastPathComponent + ".secstore-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw CLIError(.failure, "Cannot write in \(directory): \(String(cString: strerror(errno))).", name: SecStoreError.Code.ioFailure.name)
        }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        pending.withLock { _ = $0.insert(temporary) }
        var done = false
        defer {
            if !done { wipeAndRemove(temporary, descriptor: descriptor) }
            close(descriptor)
            pending.withLock { _ = $0.remove(temporary) }
        }
        fchmod(descriptor, 0o600)
        if let failure = bytes.withUnsafeBytes({ DescriptorWriter.writeAll($0, to: descriptor) }) {
            throw CLIError(.failure, "Cannot write \(destination.path): \(String(cString: strerror(failure))).", name: SecStoreError.Code.ioFailure.name)
        }
        guard fsync(descriptor) == 0 else {
            throw CLIError(.failure, "Cannot flush \(destination.path) to disk: \(String(cString: strerror(errno))).", name: SecStoreError.Code.ioFailure.name)
        }
        if !replacing {
            // link(2) fails when the name exists: no race with another writer.
            if link(temporary, destination.path) == 0 {
                unlink(temporary)
            } else {
                let failure = errno
                // A file system without hard links: check, then rename.
                guard failure != EEXIST, access(destination.path, F_OK) != 0 else {
                    throw CLIError(.duplicate, "\(destination.path) already exists. Pass --force to replace it, or choose another name.", name: "fileExists")
                }
                guard rename(temporary, destination.path) == 0 else {
                    throw CLIError(.failure, "Cannot create \(destination.path): \(String(cString: strerror(errno))).", name: SecStoreError.Code.ioFailure.name)
                }
            }
        } else if rename(temporary, destination.path) != 0 {
            throw CLIError(.failure, "Cannot replace \(destination.path): \(String(cString: strerror(errno))).", name: SecStoreError.Code.ioFailure.name)
        }
        done = true
        // The new name is durable only once the directory is: a failed sync is reported (the
        // file may not survive a power cut), as for every file the library writes.
        try FileSecurity.syncDirectory(URL(filePath: directory))
    }

    /// Wipes and removes every temporary being written (from ``InterruptCleanup``).
    static func wipeAll() {
        for path in pending.withLock({ $0 }) {
            let descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
            wipeAndRemove(path, descriptor: descriptor)
            if descriptor >= 0 { close(descriptor) }
        }
    }

    private static func wipeAndRemove(_ path: String, descriptor: Int32) {
        if descriptor >= 0 {
            var info = stat()
            if fstat(descriptor, &info) == 0, info.st_size > 0 {
                let zeros = [UInt8](repeating: 0, count: Int(info.st_size))
                _ = zeros.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
                fsync(descriptor)
            }
        }
        unlink(path)
    }
}

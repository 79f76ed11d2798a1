import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one read(2) loop for small files read whole into a caller's buffer (the device key,
/// a passphrase file): fills `buffer` until it is full or the file ends, retrying interrupted
/// reads.
///
/// A failed read is an error, never an early end of the file: the bytes read so far are a
/// truncated key or passphrase, which would surface as "wrong key" or "wrong passphrase" (or,
/// read as complete, as a different secret), hiding a failing disk behind a misleading fix.
///
/// ```swift
/// var buffer = [UInt8](repeating: 0, count: 64)
/// let count = try DescriptorReader.fill(&buffer, from: descriptor, path: url.path, describing: "the device key")
/// ```
package enum DescriptorReader {
    /// How many bytes were read before the end of the file (or a full buffer). Throws an
    /// `ioFailure` ``SecStoreError`` naming `what` and `path` when a read fails (other than
    /// with EINTR, which is retried); `buffer` may then hold part of the file, which the caller
    /// wipes as always.
    package static func fill(_ buffer: inout [UInt8], from descriptor: Int32, path: String,
                             describing what: String) throws(SecStoreError) -> Int {
        var total = 0
        while total < buffer.count {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + total, $0.count - total) }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                throw SecStoreError(.ioFailure, "Reading \(what) \(path) failed: \(String(cString: strerror(code))). Nothing read from it was used. Check the disk and the file (the system log names I/O errors), then try again.")
            }
            if count == 0 { break }
            total += count
        }
        return total
    }

    /// Why ``contentsOrRefusal(ofRegularFile:atMost:writtenOnlyBy:)`` gave no contents.
    package enum Refusal: Error, Equatable {
        /// `open(2)` failed with this `errno` (`ENOENT`: there is no such file).
        case cannotOpen(Int32)
        /// A FIFO, a device, a socket or a directory.
        case notRegularFile
        /// Someone other than the allowed writers could have written it
        /// (``FileSecurity/othersCouldHaveWritten(descriptor:besides:)``): its owner (this uid)
        /// is not one of them, or its mode (permission bits only) lets group or others write.
        case writableByOthers(owner: uid_t, mode: mode_t)
        /// A read failed (an I/O error).
        case readFailed
        /// It holds more bytes than the limit.
        case tooLarge
    }

    /// The whole of a small regular file (a one-line mirror copy, `/etc/machine-id`), or why
    /// not: it cannot be opened, is not a regular file (a FIFO, a device), could have been
    /// written by someone other than `writers` (when given), cannot be read, or holds more than
    /// `maximumByteCount` bytes. Opened without blocking, and never read past the limit: a
    /// file replaced by a huge or endless one costs a bounded read, not the process's memory.
    ///
    /// ```swift
    /// let result = DescriptorReader.contentsOrRefusal(ofRegularFile: "/etc/machine-id", atMost: 4096, writtenOnlyBy: .thisUserOrRoot)
    /// ```
    package static func contentsOrRefusal(ofRegularFile path: String, atMost maximumByteCount: Int,
                             writtenOnlyBy writers: FileSecurity.Writers? = nil) -> Result<[UInt8], Refusal> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return .failure(.cannotOpen(errno)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(.readFailed) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegularFile) }
        if let writers, FileSecurity.othersCouldHaveWritten(descriptor: descriptor, besides: writers) {
            return .failure(.writableByOthers(owner: status.st_uid, mode: status.st_mode & 0o7777))
        }
        var buffer = [UInt8](repeating: 0, count: maximumByteCount + 1)
        guard let count = try? fill(&buffer, from: descriptor, path: path, describing: "the file") else {
            return .failure(.readFailed)
        }
        guard count <= maximumByteCount else { return .failure(.tooLarge) }
        return .success(Array(buffer[..<count]))
    }

    /// As ``contentsOrRefusal(ofRegularFile:atMost:writtenOnlyBy:)``, `nil` for any refusal.
    ///
    /// ```swift
    /// let line = DescriptorReader.contents(ofRegularFile: mirrorPath, atMost: 65536, writtenOnlyBy: .thisUser)
    /// ```
    package static func contents(ofRegularFile path: String, atMost maximumByteCount: Int,
                                 writtenOnlyBy writers: FileSecurity.Writers? = nil) -> [UInt8]? {
        try? contentsOrRefusal(ofRegularFile: path, atMost: maximumByteCount, writtenOnlyBy: writers).get()
    }
}

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

    /// The whole of a small regular file (a one-line mirror copy, `/etc/machine-id`), or `nil`
    /// when it cannot be opened, is not a regular file (a FIFO, a device), cannot be read, or
    /// holds more than `maximumByteCount` bytes. Opened without blocking, and never read past
    /// the limit: a file replaced by a huge or endless one costs a bounded read, not the
    /// process's memory. With `writtenOnlyByOwner`, also `nil` when someone other than this
    /// user could have written the file (``FileSecurity/othersCouldHaveWritten(descriptor:)``).
    ///
    /// ```swift
    /// let line = DescriptorReader.contents(ofRegularFile: "/etc/machine-id", atMost: 4096)
    /// ```
    package static func contents(ofRegularFile path: String, atMost maximumByteCount: Int,
                                 writtenOnlyByOwner: Bool = false) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        if writtenOnlyByOwner && FileSecurity.othersCouldHaveWritten(descriptor: descriptor) { return nil }
        var buffer = [UInt8](repeating: 0, count: maximumByteCount + 1)
        guard let count = try? fill(&buffer, from: descriptor, path: path, describing: "the file"),
              count <= maximumByteCount
        else { return nil }
        return Array(buffer[..<count])
    }
}

import Foundation

/// The one write(2) loop: every byte, retrying interrupted and partial writes. Files written
/// whole (AtomicFileWriter), backups streamed to a descriptor and the `secstore` tool's
/// standard output all go through it, and it through ``FileSystem``.
///
/// ```swift
/// if let failure = DescriptorWriter.writeAll(bytes, to: STDOUT_FILENO) { … strerror(failure) … }
/// ```
package enum DescriptorWriter {
    /// Writes all of `bytes`; returns nil, or the errno that stopped it.
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = FileSystem.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }
}

/// The one read(2) loop for small files read whole into a caller's buffer (the device key,
/// a passphrase file): fills `buffer` until it is full or the file ends, retrying interrupted
/// reads.
///
/// ```swift
/// var buffer = [UInt8](repeating: 0, count: 64)
/// let count = DescriptorReader.fill(&buffer, from: descriptor)
/// ```
package enum DescriptorReader {
    /// How many bytes were read; a read error ends the loop like the end of the file.
    package static func fill(_ buffer: inout [UInt8], from descriptor: Int32) -> Int {
        var total = 0
        while total < buffer.count {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + total, $0.count - total) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            total += count
        }
        return total
    }
}

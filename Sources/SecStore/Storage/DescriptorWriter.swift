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

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file as the kernel knows it: its device and inode, the same whatever name or hard link
/// reaches it, and different for a file put in its place under the same name.
///
/// ```swift
/// let opened = FileIdentity(info)                       // from fstat of an open descriptor
/// if FileIdentity.ofFile(atPath: path) != opened { … }  // the name now reaches another file
/// ```
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// The file `path` reaches now (symbolic links followed), or `nil` when none does.
    static func ofFile(atPath path: String) -> FileIdentity? {
        var info = stat()
        return stat(path, &info) == 0 ? FileIdentity(info) : nil
    }
}

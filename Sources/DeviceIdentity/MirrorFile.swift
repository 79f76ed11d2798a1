import Foundation
import SecStore

/// The optional copy of the identifier outside the store: one line, the uppercase UUID, a
/// space and the access group it belongs to, in a `0600` file replaced atomically. The group
/// keeps one scope's value from being restored into another scope.
struct MirrorFile {
    let url: URL
    let group: String

    /// The longest mirror file read: a UUID, a space and any access group name in use fit
    /// many times over; a file replaced by a huge one is not read whole.
    static let maximumByteCount = 64 * 1024

    /// The mirrored UUID of this group, or `nil` when the file is missing, is not a regular
    /// file of at most ``maximumByteCount`` bytes, could have been written by someone else
    /// (another user's file, or one that group or others may write: whoever wrote it would
    /// choose the identifier a wiped store is restored to), holds another group's value, or
    /// does not parse.
    func read() -> UUID? {
        guard let bytes = DescriptorReader.contents(ofRegularFile: url.path, atMost: Self.maximumByteCount,
                                                    writtenOnlyBy: .thisUser),
              let text = String(validating: bytes, as: UTF8.self)
        else { return nil }
        // Read exactly as ``write(_:)`` writes it: the UUID, one space, the group, one line
        // break. Trimming whitespace would cut it from the end of a group, so that group never
        // read back and another group's file (the group without it) was read as its own.
        guard text.hasSuffix("\n"),
              let space = text.firstIndex(of: " "),
              text[text.index(after: space)...].dropLast().utf8.elementsEqual(group.utf8)
        else { return nil }
        return UUID(uuidString: String(text[..<space]))
    }

    /// Replaces the file with `uuid` and this group: see `AtomicFileWriter` (temporary file,
    /// fsync, rename, directory fsync). Missing directories are created `0700`.
    ///
    /// - Throws: ``SecStoreError`` `ioFailure` naming what failed.
    func write(_ uuid: UUID) throws {
        try prepare(uuid).commit(.replace)
    }

    /// The first half of ``write(_:)``: the new file written out under its temporary name, for
    /// the caller to commit (`commit(.replace)`) or drop, which removes the temporary.
    ///
    /// - Throws: ``SecStoreError`` `ioFailure` naming what failed.
    func prepare(_ uuid: UUID) throws -> AtomicFileWriter {
        try FileSecurity.ensurePrivateDirectory(url.deletingLastPathComponent())
        let writer = try AtomicFileWriter(destination: url, describing: "the device identifier's mirror copy")
        try writer.write(Array("\(uuid.uuidString) \(group)\n".utf8))
        return writer
    }

    /// Removes the temporaries of this file that killed writers left — a `reset` killed after
    /// writing its new mirror out under a temporary name and before renaming it into place —
    /// which no live writer holds and that are older than a minute: a reset under way in
    /// another process keeps its own (``AtomicFileWriter/removeAbandonedTemporaries(of:)``).
    func removeAbandonedTemporaries() {
        AtomicFileWriter.removeAbandonedTemporaries(of: url)
    }

    /// Removes the file; a missing one is already removed. Through SecStore's `FileSystem`, like
    /// every change SecStore makes to its own files.
    ///
    /// - Throws: ``SecStoreError`` `ioFailure` naming what failed.
    func remove() throws {
        if FileSystem.unlink(url.path) != 0 && errno != ENOENT {
            throw SecStoreError(.ioFailure, "Cannot remove the device identifier's mirror copy \(url.path): \(String(cString: strerror(errno))). Check that its directory is writable.")
        }
    }
}

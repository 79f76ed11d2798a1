import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Pages written by a commit, read from a WAL database's shared-memory index (`-shm`), which
/// every connection to the file keeps up to date; this works for the store, whose SQLite
/// connections belong to the engine, as for the baseline.
///
/// In WAL mode a commit appends one frame per page it changed to the `-wal` file, each page
/// once, and then publishes the new count of valid frames, `mxFrame`, in the wal-index header
/// at the start of the `-shm` file (<https://sqlite.org/walformat.html>: `iVersion`, unused,
/// `iChange`, `isInit`, `bigEndCksum`, `szPage`, then the 32-bit `mxFrame` at byte 16, the
/// salts at bytes 32–39; native byte order). So the frames of one commit are `mxFrame` after
/// it minus `mxFrame` before. When the log restarts (the next writer after a complete
/// checkpoint writes from its start again, with new salts), the count after the commit is the
/// commit's own frames. The size of the `-wal` file would not do: it stops growing when the
/// log restarts and is reused.
///
/// These are the pages the commit writes to the log and syncs; a checkpoint later writes them
/// once more into the database file.
struct WALIndex {
    let shmPath: String

    init(databasePath: String) {
        shmPath = databasePath + "-shm"
    }

    /// `mxFrame` and the two salts, or `nil` when the file cannot be read.
    struct Header: Equatable {
        var frames: UInt32
        var salt: UInt64
    }

    func header() -> Header? {
        let descriptor = open(shmPath, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { _ = Glibc.close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 48)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 48, 0) }
        guard count == 48 else { return nil }
        return bytes.withUnsafeBytes { raw in
            Header(frames: raw.loadUnaligned(fromByteOffset: 16, as: UInt32.self),
                   salt: raw.loadUnaligned(fromByteOffset: 32, as: UInt64.self))
        }
    }

    /// The frames appended between `before` and `after` (one commit).
    static func frames(from before: Header, to after: Header) -> Int {
        if after.salt == before.salt && after.frames >= before.frames {
            return Int(after.frames - before.frames)
        }
        return Int(after.frames)  // the log restarted: every frame in it is this commit's
    }

    /// Runs `body` and returns the frames it appended, or `nil` when the index is unreadable.
    func framesWritten(by body: () throws -> Void) rethrows -> Int? {
        let before = header()
        try body()
        guard let before, let after = header() else { return nil }
        return Self.frames(from: before, to: after)
    }
}

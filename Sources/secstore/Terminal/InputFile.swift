import Foundation
import SecStore

/// Reads a whole input named on the command line — a file, `/dev/stdin`, a FIFO, a
/// process substitution (`<(pass show api)`) — with read(2), which works on all of them
/// where `FileManager.contents(atPath:)` fails on anything that is not a regular file, and
/// stops at a bound so a runaway source cannot fill memory.
enum InputFile {
    /// The bytes of `path`, at most `limit`; more is a usage error naming `what`. `check`
    /// sees the opened descriptor before anything is read (what was opened, not what the path
    /// named a moment before).
    static func read(_ path: String, what: String, limit: Int = Item.maximumDataByteCount,
                     check: (Int32) throws -> Void = { _ in }) throws -> Data {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CLIError.usage("Cannot read the \(what) file \(path): \(String(cString: strerror(errno))). Check the path and its permissions.")
        }
        defer { close(descriptor) }
        // A directory opens, and its first read fails (EISDIR): said as what it is, a wrong
        // argument, not as a failing disk.
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            throw CLIError.usage("The \(what) file \(path) is a directory. Give the path of a file.")
        }
        try check(descriptor)
        return try readAll(descriptor, name: path, what: what, limit: limit)
    }

    /// Everything left on `descriptor` (standard input keeps what was read before it).
    static func readAll(_ descriptor: Int32, name: String, what: String, limit: Int = Item.maximumDataByteCount) throws -> Data {
        let path = name
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        // The read buffer holds secret bytes: zeroed when done. (`Data`'s own growth copies
        // are Foundation's; the secret is handed on in one value and wiped by its user.)
        defer { Wipe.bytes(&chunk) }
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                // The arguments were right; the disk failed: an I/O failure, as the library reports its own reads.
                throw CLIError(.failure, "Cannot read the \(what) file \(path): \(String(cString: strerror(errno))). Nothing read from it was used.",
                               name: SecStoreError.Code.ioFailure.name)
            }
            if count == 0 { break }
            data.append(contentsOf: chunk[..<count])
            guard data.count <= limit else {
                throw CLIError.usage("The \(what) file \(path) is larger than \(limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit >> 10) KiB"), the most SecStore reads from it.")
            }
        }
        return data
    }
}

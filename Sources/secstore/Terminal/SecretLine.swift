import Foundation
import SecStore

/// One line of a secret read byte by byte from a descriptor (a passphrase typed at the
/// terminal or piped to standard input), without copies left behind: a Swift array that
/// outgrows its buffer copies the bytes to a larger one and frees the old one as it is, so
/// this one grows by hand and wipes each buffer it leaves. The caller wipes the line
/// (`Wipe.bytes`) once it has made what it needs of it.
///
/// ```swift
/// var line = SecretLine.read(from: STDIN_FILENO)
/// defer { Wipe.bytes(&line) }
/// ```
enum SecretLine {
    /// The next line, without its `\n` or `\r\n`; empty at the end of input. Reads one byte at
    /// a time, so nothing after the line is taken from the descriptor.
    static func read(from descriptor: Int32) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(256)
        var byte: UInt8 = 0
        defer { byte = 0 }
        while true {
            let count = Glibc.read(descriptor, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 || byte == UInt8(ascii: "\n") { break }
            if line.count == line.capacity {
                var larger: [UInt8] = []
                larger.reserveCapacity(line.capacity * 2)
                larger.append(contentsOf: line)
                Wipe.bytes(&line)
                line = larger
            }
            line.append(byte)
        }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }   // in place: no copy
        return line
    }
}

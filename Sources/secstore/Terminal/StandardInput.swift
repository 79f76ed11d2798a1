import Foundation

/// Reads standard input without buffering ahead, so one process can take several
/// passphrases from it, one line each, in a documented order.
enum StandardInput {
    /// The next line, without its line ending; empty at end of input.
    static func readLine() -> [UInt8] {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 || byte == UInt8(ascii: "\n") { break }
            line.append(byte)
        }
        return line.droppingCarriageReturn()
    }

    /// Everything left on standard input, bytes unchanged.
    static func readAll() throws -> Data {
        try InputFile.readAll(STDIN_FILENO, name: "standard input", what: "secret")
    }
}

import Foundation

/// Reads standard input without buffering ahead, so one process can take several
/// passphrases from it, one line each, in a documented order.
enum StandardInput {
    /// The next line, without its line ending; empty at end of input.
    static func readLine() -> [UInt8] {
        SecretLine.read(from: STDIN_FILENO)
    }

    /// Everything left on standard input, bytes unchanged.
    static func readAll() throws -> Data {
        try InputFile.readAll(STDIN_FILENO, name: "standard input", what: "secret")
    }
}

import Foundation

/// Writes to standard output and standard error. All output goes through here so that
/// secrets can be written as raw bytes and messages get one consistent format.
///
/// ```swift
/// Console.write("Added 1 item.\n")
/// Console.warn("--value is visible in the process list; prefer --value-stdin.")
/// ```
enum Console {
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes `text` and a newline to standard output.
    static func line(_ text: String = "") {
        write(text + "\n")
    }

    /// Writes bytes to standard output unchanged (secrets from `get`).
    static func writeBytes(_ data: Data) {
        FileHandle.standardOutput.write(data)
    }

    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// `secstore: warning: …` on standard error.
    static func warn(_ message: String) {
        writeError("secstore: warning: \(message)\n")
    }

    /// `secstore: error: …` on standard error.
    static func error(_ message: String) {
        writeError("secstore: error: \(message)\n")
    }

    /// A message for the human at the terminal (hints, confirmations) on standard error,
    /// so standard output stays parseable.
    static func note(_ message: String) {
        writeError(message + "\n")
    }
}

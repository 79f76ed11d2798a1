import Foundation
import SecStore

/// Writes to standard output and standard error. All output goes through here so that
/// secrets can be written as raw bytes and messages get one consistent format.
///
/// ```swift
/// Console.write("Added 1 item.\n")
/// Console.warn("--value is visible in the process list; prefer --value-stdin.")
/// ```
enum Console {
    /// `--quiet`: confirmations (``report(_:)``) and notes (``note(_:)``) are left out.
    nonisolated(unsafe) static var quiet = false

    static func write(_ text: String) {
        writeOut(Data(text.utf8))
    }

    /// Writes `text` and a newline to standard output.
    static func line(_ text: String = "") {
        write(text + "\n")
    }

    /// Writes bytes to standard output unchanged (secrets from `get`).
    static func writeBytes(_ data: Data) {
        writeOut(data)
    }

    /// Writes bytes to standard output unchanged (a JSON document).
    static func writeBytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes(writeOut)
    }

    static func writeError(_ text: String) {
        // Nowhere to report a failure to write an error: it is dropped.
        _ = writeAll(Data(text.utf8), to: STDERR_FILENO)
    }

    private static func writeOut(_ data: Data) {
        data.withUnsafeBytes(writeOut)
    }

    /// Standard output, written with write(2) rather than FileHandle, whose failures trap.
    /// A reader that went away (`secstore list | head -1`) ends the tool as it ends other
    /// Unix tools: quietly, by SIGPIPE (status 141 in a shell). Any other failure (a full
    /// disk, a closed descriptor) is a message and status 1 (ioFailure), never a crash.
    private static func writeOut(_ bytes: UnsafeRawBufferPointer) {
        let failure = DescriptorWriter.writeAll(bytes, to: STDOUT_FILENO) ?? 0
        guard failure != 0 else { return }
        if failure == EPIPE {
            signal(SIGPIPE, SIG_DFL)
            raise(SIGPIPE)
        }
        error("Cannot write to standard output: \(String(cString: strerror(failure))). Check where the output goes (disk space, a closed pipe or file).")
        exit(ExitStatus(.ioFailure).rawValue)
    }

    /// Every byte of `data` (``DescriptorWriter``); 0, or the errno that stopped it.
    private static func writeAll(_ data: Data, to descriptor: Int32) -> Int32 {
        data.withUnsafeBytes { DescriptorWriter.writeAll($0, to: descriptor) } ?? 0
    }

    /// `secstore: warning: …` on standard error.
    static func warn(_ message: String) {
        writeMessage("secstore: warning: \(message)")
    }

    /// `secstore: error: …` on standard error.
    static func error(_ message: String) {
        writeMessage("secstore: error: \(message)")
    }

    /// A message for the human at the terminal (hints, confirmations) on standard error,
    /// so standard output stays parseable. Left out under `--quiet`.
    static func note(_ message: String) {
        guard !quiet else { return }
        writeMessage(message)
    }

    /// A confirmation of what a command did ("Added …", "Deleted 2 items.") on standard
    /// output. Left out under `--quiet`.
    static func report(_ message: String) {
        guard !quiet else { return }
        line(printable(message))
    }

    /// A line on standard error that `--quiet` keeps (a prompt's "Sorry, try again.").
    static func prompt(_ message: String) {
        writeMessage(message)
    }

    /// `message` and a newline on standard error, made ``printable(_:)``.
    static func writeMessage(_ message: String) {
        writeError(printable(message) + "\n")
    }

    /// A message as it may reach a terminal: its control and format characters escaped, its
    /// line breaks kept. Messages repeat what the user gave (a group, an option, a path) and
    /// what files and stores hold, and a name copied from a hostile file or directory listing
    /// can carry an escape sequence that clears the screen, retitles the window or hides text.
    /// Every message goes through here; names already shown with ``Table/quoted(_:)`` hold
    /// no controls and pass unchanged.
    private static func printable(_ message: String) -> String {
        PrintableText.escaped(message, keepingNewlines: true)
    }
}

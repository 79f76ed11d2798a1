#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the tool knows about its terminal: whether a stream is one, and whether it may
/// ask the user something.
enum Terminal {
    /// Whether standard error is a terminal: progress bars are drawn only then.
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Whether standard output is a terminal.
    static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Whether the tool may prompt: the process has a controlling terminal (`/dev/tty`
    /// opens) and the user is at it (standard input or standard error is a terminal).
    ///
    /// The second condition keeps scripts and test harnesses that merely inherit a
    /// terminal (stdin and stderr redirected) from blocking on a prompt nobody sees.
    static var canPrompt: Bool {
        guard isatty(STDIN_FILENO) == 1 || isatty(STDERR_FILENO) == 1 else { return false }
        let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }
}

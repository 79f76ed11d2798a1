#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Asks for a secret on the controlling terminal (`/dev/tty`) with echo turned off, the way
/// `ssh` and `sudo` do: the prompt and the answer never touch stdin, stdout or stderr, so
/// they work while those are redirected.
///
/// ```swift
/// let passphrase = try NoEchoPrompt.read("Passphrase: ")
/// ```
///
/// Echo is restored before returning, and also when SIGINT, SIGTERM, SIGHUP or SIGQUIT
/// arrive while the prompt waits, so an interrupted prompt never leaves the terminal silent.
enum NoEchoPrompt {
    /// Reads one line (without its line ending) from the terminal with echo off.
    static func read(_ prompt: String) throws -> [UInt8] {
        try read(prompt, echo: false)
    }

    /// Reads one line from the terminal; with `echo`, what is typed shows (a yes/no answer).
    static func read(_ prompt: String, echo: Bool) throws -> [UInt8] {
        let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            throw CLIError(.usage, "Cannot open the terminal (/dev/tty) to ask for input. Pass the value with a --…-stdin or --…-file option instead.")
        }
        defer { close(descriptor) }

        var original = termios()
        let isTerminal = !echo && tcgetattr(descriptor, &original) == 0
        if isTerminal {
            var silent = original
            silent.c_lflag &= ~tcflag_t(ECHO | ECHOE | ECHOK | ECHONL)
            EchoRestorer.install(descriptor: descriptor, settings: original)
            // Echo goes off before the prompt is shown, so nothing typed after the prompt
            // appears can be echoed.
            tcsetattr(descriptor, TCSAFLUSH, &silent)
        }
        defer {
            if isTerminal {
                tcsetattr(descriptor, TCSAFLUSH, &original)
                EchoRestorer.uninstall()
            }
        }

        show(descriptor, prompt)
        let line = SecretLine.read(from: descriptor)
        show(descriptor, "\n")
        return line
    }

    private static func show(_ descriptor: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}

/// Restores the terminal's settings from a signal handler. The state lives in globals
/// because a C signal handler cannot capture context.
private enum EchoRestorer {
    nonisolated(unsafe) static var descriptor: Int32 = -1
    // Optional rather than `= termios()`: Swift 6.3 emits a global initialised with an imported
    // C struct's zero value without the struct's inner padding (57 bytes, not termios's 60), so
    // storing a whole termios wrote 3 bytes past it (AddressSanitizer: global-buffer-overflow,
    // scripts/sanitizers.sh address; docs/reliability.md).
    nonisolated(unsafe) static var settings: termios?
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    static func install(descriptor: Int32, settings: termios) {
        Self.settings = settings
        Self.descriptor = descriptor
        previous = signals.map { signalNumber in
            signal(signalNumber) { received in
                if EchoRestorer.descriptor >= 0, var settings = EchoRestorer.settings {
                    tcsetattr(EchoRestorer.descriptor, TCSAFLUSH, &settings)
                }
                // Die of the same signal, as the user asked.
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }

    /// The dispositions before the prompt (``InterruptCleanup``'s, in the tool), put back after it.
    nonisolated(unsafe) static var previous: [sighandler_t?] = []

    static func uninstall() {
        for (signalNumber, handler) in zip(signals, previous) { signal(signalNumber, handler) }
        previous = []
        descriptor = -1
    }
}

import Foundation

/// What a crash of the tool may leave behind: nothing. The tool holds unwrapped keys and
/// secrets in memory, so it writes no core file (a soft `RLIMIT_CORE` of 0, the limit the
/// kernel applies, which also covers a `core_pattern` pipe) and takes back the Swift
/// runtime's crash handlers, whose backtrace prints registers and memory around them to the
/// terminal. A crash then ends the process by the signal, with the runtime's one-line
/// `Fatal error` message at most.
///
/// What the tool found at start (the core limit, the signal mask) is kept, so that
/// `secstore exec` hands the command the process state the user gave the tool
/// (``restoreForExec()``).
enum CrashHygiene {
    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE, SIGTRAP]

    nonisolated(unsafe) private static var originalCoreLimit: rlimit?
    nonisolated(unsafe) private static var originalSignalMask = sigset_t()

    /// The signal mask the tool started with, for the programs it starts.
    static var startingSignalMask: sigset_t { originalSignalMask }

    static func apply() {
        var current = rlimit()
        if getrlimit(Int32(RLIMIT_CORE.rawValue), &current) == 0 {
            originalCoreLimit = current
            // Only the soft limit: the kernel's core dump obeys it, and `exec` can give the
            // command back its own.
            var none = rlimit(rlim_cur: 0, rlim_max: current.rlim_max)
            _ = setrlimit(Int32(RLIMIT_CORE.rawValue), &none)
        }
        pthread_sigmask(SIG_SETMASK, nil, &originalSignalMask)
        for signalNumber in crashSignals {
            signal(signalNumber, SIG_DFL)
        }
    }

    /// Puts back the core limit and the signal mask the tool started with (the crash
    /// signals' handlers are the default ones already, as an exec'd program gets them).
    static func restoreForExec() {
        if var limit = originalCoreLimit {
            _ = setrlimit(Int32(RLIMIT_CORE.rawValue), &limit)
        }
        pthread_sigmask(SIG_SETMASK, &originalSignalMask, nil)
    }
}

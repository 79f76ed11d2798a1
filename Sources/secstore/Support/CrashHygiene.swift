import Foundation

/// What a crash of the tool may leave behind: nothing. The tool holds unwrapped keys and
/// secrets in memory, so it writes no core file (`RLIMIT_CORE` 0, which also covers a
/// `core_pattern` pipe) and takes back the Swift runtime's crash handlers, whose backtrace
/// prints registers and memory around them to the terminal. A crash then ends the process
/// by the signal, with the runtime's one-line `Fatal error` message at most.
enum CrashHygiene {
    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE, SIGTRAP]

    static func apply() {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(Int32(RLIMIT_CORE.rawValue), &none)
        for signalNumber in crashSignals {
            signal(signalNumber, SIG_DFL)
        }
    }
}

import Foundation
internal import CProcessControl

/// What a crash of one of SecStore's programs may leave behind: nothing. The `secstore` tool,
/// the credential helpers and the Secret Service provider hold unwrapped keys and secrets in
/// memory, so each calls ``apply()`` first thing: no core file (a soft `RLIMIT_CORE` of 0, the
/// limit the kernel applies to a core file, and which `systemd-coredump` and apport honour
/// for a `core_pattern` pipe) and the Swift runtime's crash handlers taken back, whose
/// backtrace prints registers and memory around them to the terminal or the journal. A crash
/// then ends the process by the signal, with the runtime's one-line `Fatal error` message at most.
///
/// The process is also made non-dumpable (`prctl(PR_SET_DUMPABLE, 0)`, as `ssh-agent` and
/// `gnome-keyring-daemon` do): no other process of the user may attach to it with ptrace or
/// read its memory through `/proc/PID/mem` — where Yama's `ptrace_scope` is 0, Debian's
/// default, any of them could, and the Secret Service provider and `secstore sync daemon`
/// hold unlocked keys for hours. A tracer that started the program (`strace`, `gdb`, `perf`)
/// stays attached, and root (`CAP_SYS_PTRACE`) is not stopped. `exec` makes the next program
/// dumpable again, so `secstore exec`'s command is unaffected.
/// Keys in `sodium_malloc` memory are also marked `MADV_DONTDUMP`; secrets in ordinary memory
/// are not, which is why the programs need this. Only SecStore's own programs call it (it is
/// `package`): the library leaves an embedding app's process settings alone.
///
/// What the program found at start (the core limit, the signal mask) is kept, so that
/// `secstore exec` hands the command the process state the user gave the tool
/// (``restoreForExec()``).
///
/// ```swift
/// CrashHygiene.apply()   // first thing in main
/// ```
package enum CrashHygiene {
    package static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE, SIGTRAP]

    nonisolated(unsafe) private static var originalCoreLimit: rlimit?
    nonisolated(unsafe) private static var originalSignalMask = sigset_t()

    /// The signal mask the tool started with, for the programs it starts.
    package static var startingSignalMask: sigset_t { originalSignalMask }

    package static func apply() {
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
        // Best effort, as the core limit: a kernel without prctl leaves the process as it was.
        _ = cprocess_forbid_dumping()
    }

    /// Puts back the core limit and the signal mask the tool started with (the crash
    /// signals' handlers are the default ones already, as an exec'd program gets them).
    package static func restoreForExec() {
        if var limit = originalCoreLimit {
            _ = setrlimit(Int32(RLIMIT_CORE.rawValue), &limit)
        }
        pthread_sigmask(SIG_SETMASK, &originalSignalMask, nil)
    }
}

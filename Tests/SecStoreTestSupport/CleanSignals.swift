import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one way the tests start a program: with the signal state a shell, git, docker or
/// systemd gives it — no signal blocked, no signal ignored — not the test process's own.
///
/// Why this is needed: a child inherits the signal mask of the thread that starts it and every
/// signal the parent ignores (an ignored disposition survives `execve`). The tests run on
/// Dispatch worker threads, which block nearly every signal (a `sleep` started from a test had
/// `SigBlk: fffffffe3bfbea27`: SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGALRM, SIGUSR1… blocked),
/// and the CLI tests ignore SIGPIPE process-wide (``CLI``'s stdin writes). Started as they
/// come, our programs ran under conditions no user gives them: SIGTERM did nothing, a reader
/// that went away did not end them, and a test could pass for that wrong reason.
///
/// How: Foundation's `Process` has no option for a child's signal state, and the mask alone
/// (`pthread_sigmask` around `run()`) would not undo an ignored disposition, which is
/// process-wide and which the test process may have from its own launcher too (`nohup swift
/// test` ignores SIGHUP). So ``Foundation/Process/runWithCleanSignals()`` starts the program
/// through `/usr/bin/env --default-signal` (GNU coreutils 8.31 or later), which sets every
/// signal to its default action and unblocks it, then `execve`s the program: the same process
/// id, the program's own exit status or signal, and the test process's state left alone. A
/// program started with `posix_spawn` directly (``PseudoTerminalSession``) takes
/// ``setDefaults(_:)`` on its attributes instead, which does the same with
/// `POSIX_SPAWN_SETSIGMASK` and `POSIX_SPAWN_SETSIGDEF`.
///
/// A test that means to start a program with a particular signal state says so in the command
/// it runs (`env --block-signal=USR1 --ignore-signal=HUP …`, a shell's `trap '' PIPE`), on top
/// of this clean start.
///
/// ```swift
/// let process = Process()
/// process.executableURL = CLI.executableURL
/// process.arguments = ["get", "-s", "api"]
/// try process.runWithCleanSignals()   // never `process.run()` in the tests
/// ```
public enum CleanSignals {
    /// GNU env, which resets the signals and execs the program.
    public static let envURL = URL(filePath: "/usr/bin/env")

    /// Whether this system's `env` has `--default-signal` (coreutils 8.31, 2019; Debian 11,
    /// Ubuntu 22.04). Without it (Ubuntu 20.04's 8.30) programs start with the test thread's
    /// signal state, as they did before this rule, rather than every test that starts one
    /// failing; `ChildSignalStateTests` is then skipped.
    public static let envResetsSignals: Bool = {
        let probe = Process()
        probe.executableURL = envURL
        probe.arguments = ["--default-signal", "--", "/bin/true"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationReason == .exit && probe.terminationStatus == 0
    }()

    /// The `env` arguments that start `executable` with `arguments` with every signal unblocked
    /// and at its default action.
    static func wrapped(_ executable: URL, _ arguments: [String]) -> [String] {
        // env takes leading NAME=VALUE operands as assignments: a path with `=` would be one.
        precondition(!executable.path.contains("="), "a program path with '=' cannot be started through env: \(executable.path)")
        return ["--default-signal", "--", executable.path] + arguments
    }

    /// Sets `attributes` (for `posix_spawn`) to start the child with an empty signal mask and
    /// every signal at its default action.
    public static func setDefaults(_ attributes: inout posix_spawnattr_t) {
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        // SIGKILL and SIGSTOP cannot be changed (glibc skips them itself; said for the reader).
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags: Int16 = 0
        posix_spawnattr_getflags(&attributes, &flags)
        posix_spawnattr_setflags(&attributes, flags | Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    }
}

extension Process {
    /// `run()`, with the program started as a shell would start it: no signal blocked, none
    /// ignored (``CleanSignals``). `executableURL` and `arguments` become `env`'s. Where `env`
    /// cannot reset signals (``CleanSignals/envResetsSignals``), plain `run()`.
    public func runWithCleanSignals() throws {
        guard CleanSignals.envResetsSignals else { return try run() }
        guard let executable = executableURL else { return try run() }
        // As `run()` reports a missing program (env would exit 127 instead).
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: executable.path])
        }
        let original = arguments ?? []
        executableURL = CleanSignals.envURL
        arguments = CleanSignals.wrapped(executable, original)
        try run()
    }
}

import Foundation
import SecStoreTestSupport
import Testing

/// A `secstore` run, as a ``KeyringUser``, that `strace` stops (`SIGSTOP`) right after the
/// N-th call of one system call — `add_key` or `keyctl`, which are system calls, not libc
/// calls a preload library could catch — so that a test can act in exactly that gap, then let
/// it go on with ``resume()``.
///
/// strace's `inject=…:signal=SIGSTOP:when=N` makes the signal pending as the N-th call enters;
/// the call itself still runs, and the process stops as it returns from it. strace logs
/// `--- stopped by SIGSTOP ---` once the process is really stopped, which is what
/// ``waitUntilStoppedOrEnded()`` waits for (the process state alone cannot tell: a traced
/// process is in a tracing stop at every system call).
final class StoppedRun {
    private let process: Process
    private let log: URL
    private let output: CapturedOutput
    private var ended = false

    static let straceURL = URL(filePath: "/usr/bin/strace")
    static var available: Bool { FileManager.default.isExecutableFile(atPath: straceURL.path) }

    /// Starts `secstore ARGUMENTS` as `user` under strace, to stop after its `call`-th `syscall`.
    init(_ user: KeyringUser, stoppingAfter call: Int, of syscall: String, _ arguments: [String]) throws {
        output = try CapturedOutput(in: user.directory)
        // strace runs as the user and writes its log there.
        try #require(chown(output.scratch.path, user.uid, user.uid) == 0)
        log = output.scratch.appending(path: "strace.log")
        process = Process()
        process.executableURL = KeyringUser.setprivURL!
        process.arguments = ["--reuid=\(user.uid)", "--regid=\(user.uid)", "--clear-groups", "--", Self.straceURL.path,
                             "-f", "-o", log.path, "-e", "trace=add_key,keyctl",
                             "-e", "inject=\(syscall):signal=SIGSTOP:when=\(call)", CLI.executableURL.path] + arguments
        process.environment = CLI.environment(home: user.directory, extra: ["SECSTORE_KEYRING": ""])
        output.attach(to: process)
        try process.runWithCleanSignals()
    }

    deinit {
        // A test that failed half-way must not leave a stopped process behind.
        if !ended, let tracee { kill(tracee, SIGKILL) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// The stopped process (strace's child), from strace's log.
    private var tracee: pid_t? {
        guard let text = try? String(contentsOf: log, encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.contains("--- stopped by SIGSTOP ---") }) else { return nil }
        return line.split(separator: " ").first.flatMap { pid_t($0) }
    }

    /// True once the process is stopped at the call; false when it ended without getting there
    /// (it made fewer calls), or did not stop within 60 seconds.
    func waitUntilStoppedOrEnded() -> Bool {
        let deadline = Date(timeIntervalSinceNow: 60)
        while Date() < deadline {
            if tracee != nil { return true }
            if !process.isRunning { return tracee != nil }
            usleep(10_000)
        }
        return false
    }

    /// Lets the stopped process go on (`SIGCONT`) and waits for it to end.
    @discardableResult
    func resume() throws -> CLI.Result {
        if let tracee { kill(tracee, SIGCONT) }
        process.waitUntilExit()
        ended = true
        return try output.result(of: process)
    }
}

import Foundation
import SecStoreTestSupport
import Testing

/// A `secstore` run, as a ``KeyringUser``, that goes on while the test does something else:
/// ``waitUntilEndedOrWaitingForALock()`` tells when it has gone as far as it can, ``wait()``
/// lets it finish.
final class BackgroundRun {
    private let process: Process
    private let output: CapturedOutput

    /// Starts `secstore ARGUMENTS` as `user`, with the kernel keyring on.
    init(_ user: KeyringUser, _ arguments: [String]) throws {
        output = try CapturedOutput(in: user.directory)
        process = Process()
        // setpriv executes secstore in its own process: the pid is secstore's.
        process.executableURL = KeyringUser.setprivURL!
        process.arguments = ["--reuid=\(user.uid)", "--regid=\(user.uid)", "--clear-groups", "--", CLI.executableURL.path] + arguments
        process.environment = CLI.environment(home: user.directory, extra: ["SECSTORE_KEYRING": ""])
        output.attach(to: process)
        try process.runWithCleanSignals()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// True once the process has ended, or waits for a `flock(2)` lock (`/proc/locks` shows a
    /// request of its pid, `N: -> FLOCK …`); false when neither happened within 60 seconds.
    func waitUntilEndedOrWaitingForALock() -> Bool {
        let deadline = Date(timeIntervalSinceNow: 60)
        while Date() < deadline {
            if !process.isRunning || isWaitingForALock { return true }
            usleep(10_000)
        }
        return false
    }

    private var isWaitingForALock: Bool {
        guard let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return false }
        let pid = Substring(String(process.processIdentifier))
        return locks.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.contains("->") && fields.contains("FLOCK") && fields.contains(pid)
        }
    }

    /// Waits for the process to end.
    func wait() throws -> CLI.Result {
        process.waitUntilExit()
        return try output.result(of: process)
    }
}

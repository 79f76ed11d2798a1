import Foundation
import Testing

/// A `secstore` run, as a ``KeyringUser``, that goes on while the test does something else:
/// ``waitUntilEndedOrWaitingForALock()`` tells when it has gone as far as it can, ``wait()``
/// lets it finish.
final class BackgroundRun {
    private let process: Process
    private let out: URL, err: URL
    private let outHandle: FileHandle, errHandle: FileHandle

    /// Starts `secstore ARGUMENTS` as `user`, with the kernel keyring on.
    init(_ user: KeyringUser, _ arguments: [String]) throws {
        let scratch = user.directory.appending(path: "run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: false)
        out = scratch.appending(path: "out")
        err = scratch.appending(path: "err")
        try #require(FileManager.default.createFile(atPath: out.path, contents: nil))
        try #require(FileManager.default.createFile(atPath: err.path, contents: nil))
        outHandle = try FileHandle(forWritingTo: out)
        errHandle = try FileHandle(forWritingTo: err)
        process = Process()
        // setpriv executes secstore in its own process: the pid is secstore's.
        process.executableURL = KeyringUser.setprivURL!
        process.arguments = ["--reuid=\(user.uid)", "--regid=\(user.uid)", "--clear-groups", "--", CLI.executableURL.path] + arguments
        process.environment = CLI.environment(home: user.directory, extra: ["SECSTORE_KEYRING": ""])
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outHandle
        process.standardError = errHandle
        try process.run()
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
        try outHandle.close()
        try errHandle.close()
        return CLI.Result(status: process.terminationStatus, stdoutData: try Data(contentsOf: out),
                          stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }
}

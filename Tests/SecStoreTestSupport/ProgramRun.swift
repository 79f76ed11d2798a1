import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to its end as the tests drive real clients (git, secret-tool, docker's
/// helpers): standard input from a file, output and errors into temporary files (no pipe can
/// fill up and deadlock a test), and a deadline that turns a client waiting forever into a
/// failure instead of a hung suite. The deadline is not an assertion about speed. The program
/// starts with no signal blocked or ignored, as a shell starts it (``CleanSignals``).
///
/// ```swift
/// let result = try ProgramRun.run(gitURL, ["credential", "fill"], stdin: Data("host=h\n\n".utf8),
///                                 environment: environment)
/// #expect(result.status == 0, "\(result)")
/// ```
public enum ProgramRun {
    /// What one run produced.
    public struct Result: CustomStringConvertible, Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        /// The program was still running at the deadline and was terminated.
        public var timedOut = false

        public var description: String { "exit \(status)\(timedOut ? " (terminated at the deadline)" : "")\nstdout: \(stdout)\nstderr: \(stderr)" }
    }

    /// The directory of the built products: the test bundle sits beside the executables.
    public static var productsDirectory: URL {
        URL(filePath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// The absolute path of a program on `PATH`, or `nil`.
    public static func which(_ name: String) -> URL? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let url = URL(filePath: String(directory)).appending(path: name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    public static func run(_ executable: URL, _ arguments: [String], stdin: Data = Data(),
                           environment: [String: String], timeout: TimeInterval = 60) throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appending(path: "program-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appending(path: "out"), errURL = scratch.appending(path: "err"), inURL = scratch.appending(path: "in")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        try stdin.write(to: inURL)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        let input = try FileHandle(forReadingFrom: inURL)
        defer { try? out.close(); try? err.close(); try? input.close() }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.standardInput = input
        process.standardOutput = out
        process.standardError = err
        try process.runWithCleanSignals()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        let timedOut = process.isRunning
        // SIGKILL, which nothing can block or catch: the deadline is for a program that hangs,
        // whatever it does with SIGTERM. (It was chosen when programs started here inherited
        // the test thread's mask, which blocked SIGTERM; they now start clean: CleanSignals.)
        if timedOut { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                      stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self),
                      timedOut: timedOut)
    }
}

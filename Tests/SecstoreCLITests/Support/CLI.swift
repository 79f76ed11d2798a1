import Foundation
import SecStoreTestSupport
import Testing

/// Runs the built `secstore` binary (next to the test bundle) as a subprocess.
///
/// Standard output and error go to temporary files rather than pipes, so a command that
/// writes a lot to both can never deadlock against the test. The program starts with no
/// signal blocked or ignored, as a shell starts it (``CleanSignals``).
enum CLI {
    static var executableURL: URL {
        URL(filePath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appending(path: "secstore")
    }

    /// `secstore-test-helper`, built beside `secstore`: it plays unmodified programs.
    static var helperURL: URL {
        executableURL.deletingLastPathComponent().appending(path: "secstore-test-helper")
    }

    /// What one run produced.
    struct Result: CustomStringConvertible {
        var status: Int32
        var stdoutData: Data
        var stderr: String

        var stdout: String { String(decoding: stdoutData, as: UTF8.self) }

        /// Standard output parsed as JSON.
        func json() throws -> Any {
            try JSONSerialization.jsonObject(with: stdoutData)
        }

        func jsonObject() throws -> [String: Any] {
            try #require(try json() as? [String: Any], "stdout is not a JSON object: \(stdout)")
        }

        func jsonArray() throws -> [[String: Any]] {
            try #require(try json() as? [[String: Any]], "stdout is not a JSON array: \(stdout)")
        }

        var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
    }

    /// The environment every run starts from: the test's, without any `SECSTORE_*`
    /// variable, with `HOME` in `home` (so no default store of the user is touched), and
    /// with the kernel keyring off unless a test asks for it (no keys left behind).
    static func environment(home: URL, extra: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SECSTORE_") }
        environment["HOME"] = home.path
        environment["XDG_DATA_HOME"] = nil
        environment["SECSTORE_KEYRING"] = "off"
        for (key, value) in extra { environment[key] = value }
        return environment.filter { !$0.value.isEmpty }
    }

    static func run(_ arguments: [String], stdin: Data = Data(), home: URL, environment extra: [String: String] = [:],
                    executable: URL = executableURL) throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appending(path: "secstore-cli-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appending(path: "out"), errURL = scratch.appending(path: "err")
        try #require(FileManager.default.createFile(atPath: outURL.path, contents: nil))
        try #require(FileManager.default.createFile(atPath: errURL.path, contents: nil))
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment(home: home, extra: extra)
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = out
        process.standardError = err
        try process.runWithCleanSignals()
        // The child may exit without reading its input: a closed pipe must not kill the test.
        // Ignored in this process only: children start with SIGPIPE at its default (CleanSignals).
        signal(SIGPIPE, SIG_IGN)
        try? input.fileHandleForWriting.write(contentsOf: stdin)
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Result(status: process.terminationStatus, stdoutData: try Data(contentsOf: outURL),
                      stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}

/// The exit statuses documented in docs/cli.md.
enum Exit {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 2
    static let notFound: Int32 = 3
    static let duplicate: Int32 = 4
    static let locked: Int32 = 5
    static let authenticationFailed: Int32 = 6
    static let damaged: Int32 = 7
    static let unavailable: Int32 = 8
    static let missingEntitlement: Int32 = 9
}

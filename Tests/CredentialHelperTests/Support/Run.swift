import Foundation
import Testing

/// Runs a program as a subprocess with the given standard input and environment, its
/// output and errors going to temporary files (no pipe can fill up and deadlock the test).
enum Run {
    /// What one run produced.
    struct Result: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String

        var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
    }

    /// The directory of the built products: the test bundle sits beside the executables.
    static var productsDirectory: URL {
        URL(filePath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }

    static var gitHelperURL: URL { productsDirectory.appending(path: "git-credential-secstore") }
    static var dockerHelperURL: URL { productsDirectory.appending(path: "docker-credential-secstore") }

    /// The absolute path of a program on `PATH`.
    static func which(_ name: String) -> URL? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let url = URL(filePath: String(directory)).appending(path: name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    static func run(_ executable: URL, _ arguments: [String], stdin: Data = Data(),
                    environment: [String: String], timeout: TimeInterval = 60) throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appending(path: "credential-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appending(path: "out"), errURL = scratch.appending(path: "err"), inURL = scratch.appending(path: "in")
        try #require(FileManager.default.createFile(atPath: outURL.path, contents: nil))
        try #require(FileManager.default.createFile(atPath: errURL.path, contents: nil))
        try stdin.write(to: inURL)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        let input = try FileHandle(forReadingFrom: inURL)

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.standardInput = input
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            Issue.record("\(executable.lastPathComponent) \(arguments) did not finish within \(timeout) s")
        }
        process.waitUntilExit()
        try out.close(); try err.close(); try input.close()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                      stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}

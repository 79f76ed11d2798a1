import Foundation
import Glibc

/// Finding and running the programs the tests drive.
enum Programs {
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

    /// The absolute path of a program on `PATH`, or an error naming the package to install.
    static func require(_ name: String) throws -> URL {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let url = URL(filePath: String(directory)).appending(path: name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw ProgramError("\(name) is not installed: run scripts/bootstrap.sh (dbus-daemon, libsecret-tools).")
    }

    /// Polls `condition` every 10 ms. The 60-second deadline is not an assertion about speed:
    /// it only turns a process that never gets ready into a failure instead of a hung suite.
    static func waitFor(_ what: String, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(60)
        while !condition() {
            guard Date() < deadline else { throw ProgramError("gave up waiting for \(what)") }
            usleep(10_000)
        }
    }

    /// Runs a program to its end, its output and errors going to temporary files (no pipe can
    /// fill up and deadlock the test). `timeout(1)` ends a client that would wait forever (a
    /// prompt that never completes), so that a regression fails instead of hanging the suite.
    static func run(_ executable: URL, _ arguments: [String], stdin: Data = Data(),
                    environment: [String: String]) throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appending(path: "secret-service-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appending(path: "out"), errURL = scratch.appending(path: "err"), inURL = scratch.appending(path: "in")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        try stdin.write(to: inURL)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        let input = try FileHandle(forReadingFrom: inURL)
        defer { try? out.close(); try? err.close(); try? input.close() }
        let process = Process()
        process.executableURL = try require("timeout")
        process.arguments = ["60", executable.path] + arguments
        process.environment = environment
        process.standardInput = input
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                      stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}

/// A test environment that could not be set up.
struct ProgramError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

import Foundation

/// Runs `secstore-test-helper`, built next to the test bundle, as a separate process.
enum HelperProcess {
    static var executableURL: URL {
        URL(filePath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appending(path: "secstore-test-helper")
    }

    struct Outcome {
        var status: Int32
        var output: String
        var lines: [String] { output.split(separator: "\n").map(String.init) }
    }

    /// Runs the helper to completion and returns its exit status and stdout.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Outcome {
        try start(arguments, environment: environment).finish()
    }

    struct Running {
        let process: Process
        let output: Pipe

        /// Reads stdout until a line equal to `line` arrives (or the process ends).
        func waitForLine(_ line: String) -> Bool {
            var buffer = ""
            let handle = output.fileHandleForReading
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return false }
                buffer += String(decoding: chunk, as: UTF8.self)
                if buffer.split(separator: "\n").contains(Substring(line)) { return true }
            }
        }

        /// Waits for the end and returns the exit status and all of stdout.
        func finish() throws -> Outcome {
            let data = try output.fileHandleForReading.readToEnd() ?? Data()
            process.waitUntilExit()
            return Outcome(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
        }

        func kill() {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Running {
        let process = Process()
        process.executableURL = executableURL
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return Running(process: process, output: output)
    }
}

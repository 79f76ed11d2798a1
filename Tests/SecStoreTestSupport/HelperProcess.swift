import Foundation

/// Runs an executable built next to the test bundle (`secstore`, `secstore-test-helper`) as
/// a separate process, started with no signal blocked or ignored, as a shell starts it
/// (``CleanSignals``).
public struct HelperProcess: Sendable {
    public let executableURL: URL

    /// The product `name` in the same build directory as the running test bundle.
    public init(product name: String) {
        executableURL = URL(filePath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appending(path: name)
    }

    public struct Outcome: Sendable {
        public var status: Int32
        public var output: String
        public var lines: [String] { output.split(separator: "\n").map(String.init) }
    }

    /// Runs to completion; returns the exit status and stdout.
    public func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Outcome {
        try start(arguments, environment: environment).finish()
    }

    /// Starts without waiting; see ``Running/finish()``.
    public func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Running {
        let process = Process()
        process.executableURL = executableURL
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.runWithCleanSignals()
        return Running(process: process, output: output)
    }

    public struct Running {
        public let process: Process
        let output: Pipe

        /// Reads stdout until a line equal to `line` arrives; false when the process ends first.
        public func waitForLine(_ line: String) -> Bool {
            var buffer = ""
            let handle = output.fileHandleForReading
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return false }
                buffer += String(decoding: chunk, as: UTF8.self)
                if buffer.split(separator: "\n").contains(Substring(line)) { return true }
            }
        }

        /// Stops the process with SIGKILL, as a crash or power loss would, and reaps it.
        public func kill() {
            guard process.isRunning else { return }
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        /// Waits for the end and returns the exit status and all of stdout.
        public func finish() throws -> Outcome {
            let data = try output.fileHandleForReading.readToEnd() ?? Data()
            process.waitUntilExit()
            return Outcome(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
        }
    }
}

import Foundation
import Testing

/// The standard output and error of a `secstore` run a test starts and lets go on
/// (``BackgroundRun``, ``StoppedRun``): files in a scratch directory of their own, read back
/// once the run has ended.
struct CapturedOutput {
    /// The run's own directory, inside the one given.
    let scratch: URL
    private let out: URL, err: URL
    private let outHandle: FileHandle, errHandle: FileHandle

    init(in directory: URL) throws {
        scratch = directory.appending(path: "run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: false)
        out = scratch.appending(path: "out")
        err = scratch.appending(path: "err")
        try #require(FileManager.default.createFile(atPath: out.path, contents: nil))
        try #require(FileManager.default.createFile(atPath: err.path, contents: nil))
        outHandle = try FileHandle(forWritingTo: out)
        errHandle = try FileHandle(forWritingTo: err)
    }

    /// Gives `process` no standard input and these files for its output.
    func attach(to process: Process) {
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outHandle
        process.standardError = errHandle
    }

    /// What the ended `process` wrote, with its status.
    func result(of process: Process) throws -> CLI.Result {
        try outHandle.close()
        try errHandle.close()
        return CLI.Result(status: process.terminationStatus, stdoutData: try Data(contentsOf: out),
                          stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }
}

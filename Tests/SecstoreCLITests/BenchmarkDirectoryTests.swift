import Foundation
import SecStoreTestSupport
import Testing

/// `secstore-benchmark --dir PATH` (docs/performance.md): a run replaces the folders it makes in
/// its work directory, so it works only in a directory that is new, empty, or an earlier run's.
@Suite struct BenchmarkDirectoryTests {
    static let benchmark = ProgramRun.productsDirectory.appending(path: "secstore-benchmark")
    /// The file a run leaves in its work directory (`WorkDirectory.markerName`).
    static let marker = ".secstore-benchmark"

    /// Before: `--dir` naming a directory of the user's went ahead and removed its `size-1000`
    /// (and, later in the run, `list-20000`, `secret-service` and `sync`) with what was in them,
    /// to put the run's stores there.
    @Test func aDirectoryOfTheUsersIsRefusedAndLeftAsItWas() throws {
        let directory = TemporaryDirectory()
        let folder = directory.url.appending(path: "size-1000", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let notes = folder.appending(path: "notes.txt")
        try Data("mine".utf8).write(to: notes)

        let result = try ProgramRun.run(Self.benchmark, ["--sizes", "1000", "--dir", directory.url.path],
                                        environment: ProcessInfo.processInfo.environment, timeout: 30)
        #expect(!result.timedOut && result.status == 1, "\(result)")
        #expect(result.stderr.contains("is not empty and no earlier secstore-benchmark run made it"), "\(result)")
        #expect(try Data(contentsOf: notes) == Data("mine".utf8))
        #expect(!FileManager.default.fileExists(atPath: directory.url.appending(path: Self.marker).path))
    }

    /// A new directory is made and marked as the run's, so that the next run may use it again.
    @Test func aNewDirectoryIsMadeAndMarkedForTheNextRun() throws {
        let directory = TemporaryDirectory()
        let work = directory.url.appending(path: "work", directoryHint: .isDirectory)
        let process = Process()
        process.executableURL = Self.benchmark
        process.arguments = ["--sizes", "1000", "--reads", "1000", "--dir", work.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runWithCleanSignals()
        // SIGKILL: a program started from a test's thread has SIGTERM blocked (ProgramRun).
        defer { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        let marker = work.appending(path: Self.marker)
        let deadline = Date(timeIntervalSinceNow: 30)
        while !FileManager.default.fileExists(atPath: marker.path) && Date() < deadline { usleep(20_000) }
        #expect(FileManager.default.fileExists(atPath: marker.path))
        var info = stat()
        #expect(stat(work.path, &info) == 0 && info.st_mode & 0o777 == 0o700)
    }
}

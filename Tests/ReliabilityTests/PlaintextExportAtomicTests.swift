import Foundation
import SecStore
import SecStoreTestSupport
import Testing

/// `secstore export --format env --plaintext FILE` wrote with its own `mkstemp` writer outside
/// the library's `FileSystem` seam: a temporary full of plaintext secrets that a killed export
/// (kill -9, a power cut) left stayed forever, and a failed directory sync after the rename was
/// reported as a plain failure although the file was in place. It now writes through
/// `AtomicFileWriter`: the next export of the file removes a killed one's temporary, a failure
/// before the move leaves the destination as it was and no temporary, and a failure after it
/// says the file was written.
@Suite(.enabled(if: isInstalled("cc"), "needs a C compiler to build the preload library"))
struct PlaintextExportAtomicTests {
    struct Setup {
        let scratch = TemporaryDirectory("secstore-plaintext-atomic")
        let fixture: FaultFixture
        let output: URL
        var target: URL { output.appending(path: "secrets.env") }

        init() throws {
            fixture = FaultFixture(root: scratch.url)
            try FaultWriter.all[0].prepare(fixture)
            output = scratch.url.appending(path: "plain-out", directoryHint: .isDirectory)
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        }

        func export(force: Bool = false) -> FaultWriter {
            let target = target
            return FaultWriter("plaintext export", {
                FaultWriter.storeArguments($0) + ["export", "--format", "env", "--plaintext", "--service", "s", target.path,
                                                  "--passphrase-file", $0.passFile("old").path] + (force ? ["--force"] : [])
            }) { _ in true }
        }

        func entries() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: output.path).sorted() }
        func contents() throws -> String { try String(contentsOf: target, encoding: .utf8) }
    }

    static let exported = "a=one\nb=two\n"

    /// kill -9 while the temporary holds the secrets (the preload library stops the export at
    /// its temporary's fsync, `FI_ERRNO=stop`); the next export of the file removes what it left.
    @Test func theNextExportRemovesWhatAKilledOneLeft() throws {
        let library = try FaultLibrary.shared()
        let setup = try Setup()
        let process = Process()
        process.executableURL = HelperProcess(product: "secstore").executableURL
        process.arguments = setup.export().arguments(setup.fixture)
        process.environment = ProcessInfo.processInfo.environment.merging([
            "LD_PRELOAD": library.path, "SECSTORE_KEYRING": "off",
            "FI_CALL": "fsync", "FI_NTH": "1", "FI_ERRNO": "stop", "FI_PATH": setup.output.path,
        ]) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.runWithCleanSignals()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        try #require(Self.waitUntilStopped(process.processIdentifier), "the export never reached its temporary's fsync")

        let during = try setup.entries()
        try #require(during.count == 1 && during[0].hasPrefix(".secrets.env."), "one temporary, and no file yet: \(during)")
        let leftover = setup.output.appending(path: during[0])
        #expect(try String(contentsOf: leftover, encoding: .utf8) == Self.exported, "stopped before the secrets were written")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try setup.entries() == during, "the killed export's temporary is there")
        // Older than a writer's window between creating its temporary and locking it.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: leftover.path)

        let next = try setup.export().run(setup.fixture, library: library, environment: [:])
        #expect(next.status == 0, "\(next.output)")
        #expect(try setup.entries() == ["secrets.env"], "a killed export's plaintext temporary stays")
        #expect(try setup.contents() == Self.exported)
    }

    /// A failed write, flush or rename of the temporary: the existing file as it was, nothing else.
    @Test(arguments: ["write", "fsync", "rename"])
    func aFailureBeforeTheMoveLeavesTheDestinationAndNoTemporary(_ call: String) throws {
        let library = try FaultLibrary.shared()
        let setup = try Setup()
        try Data("OLD=1\n".utf8).write(to: setup.target)

        let failed = try setup.export(force: true).run(setup.fixture, library: library, environment: [
            "FI_CALL": call, "FI_NTH": "1", "FI_ERRNO": "EIO", "FI_PATH": setup.output.path,
        ])
        #expect(failed.exitedNormally && failed.status == 1, "\(failed.output)")
        #expect(failed.output.contains("error:") && failed.output.contains("Input/output error"), "\(failed.output)")
        #expect(try setup.contents() == "OLD=1\n")
        #expect(try setup.entries() == ["secrets.env"])

        let refused = try setup.export().run(setup.fixture, library: library, environment: [:])
        #expect(refused.status == 4, "without --force an existing file is kept: \(refused.output)")
        #expect(try setup.contents() == "OLD=1\n")
        #expect(try setup.entries() == ["secrets.env"])
    }

    /// The directory's fsync fails after the rename: an error, which says the file is written.
    @Test func aFailureAfterTheMoveSaysTheFileIsWritten() throws {
        let library = try FaultLibrary.shared()
        let setup = try Setup()
        let failed = try setup.export().run(setup.fixture, library: library, environment: [
            "FI_CALL": "fsync", "FI_NTH": "2", "FI_ERRNO": "EIO", "FI_PATH": setup.output.path,
        ])
        #expect(failed.exitedNormally && failed.status == 1, "\(failed.output)")
        #expect(failed.output.contains("was written to \(setup.target.path), but its name is not yet durable"), "\(failed.output)")
        #expect(try setup.contents() == Self.exported)
        #expect(try setup.entries() == ["secrets.env"])
    }

    /// Waits for the process to stop itself (state `T` in /proc), or returns false if it ends.
    static func waitUntilStopped(_ pid: pid_t) -> Bool {
        while true {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            switch stat[stat.index(close, offsetBy: 2)] {
            case "T", "t": return true
            case "Z", "X": return false
            default: usleep(10_000)
            }
        }
    }
}

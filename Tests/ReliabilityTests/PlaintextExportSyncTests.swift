import Foundation
import SecStore
import SecStoreTestSupport
import Testing

/// `secstore export --format env --plaintext FILE` publishes its file by rename or link and
/// then syncs the directory. Before the fix that sync's result was ignored: with the
/// directory's fsync failing (EIO), the command said it had written a file whose name might
/// not survive a power cut, and exited 0.
@Suite(.enabled(if: isInstalled("cc"), "needs a C compiler to build the preload library"))
struct PlaintextExportSyncTests {
    @Test func aFailedDirectorySyncIsReported() throws {
        let library = try FaultLibrary.shared()
        let scratch = TemporaryDirectory("secstore-plaintext-sync")
        let fixture = FaultFixture(root: scratch.url)
        try FaultWriter.all[0].prepare(fixture)
        let output = scratch.url.appending(path: "plain-out", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let target = output.appending(path: "secrets.env")
        let export = FaultWriter("plaintext export", {
            FaultWriter.storeArguments($0) + ["export", "--format", "env", "--plaintext", "--service", "s", target.path,
                                              "--passphrase-file", $0.passFile("old").path]
        }) { _ in FileManager.default.fileExists(atPath: target.path) }

        // Calls under plain-out/: the temporary's fsync, then the directory's.
        let log = scratch.url.appending(path: "fi.log")
        let clean = try export.run(fixture, library: library, environment: ["FI_CALL": "fsync", "FI_NTH": "0",
                                                                              "FI_PATH": output.path, "FI_LOG": log.path])
        #expect(clean.status == 0, "\(clean.output)")
        let syncs = (try String(contentsOf: log, encoding: .utf8)).split(separator: "\n")
        #expect(syncs.count == 2, "\(syncs)")
        #expect(syncs.last.map { $0.split(separator: " ").dropFirst(2).first == Substring(output.path) } == true, "\(syncs)")
        try FileManager.default.removeItem(at: target)

        let failed = try export.run(fixture, library: library, environment: ["FI_CALL": "fsync", "FI_NTH": "2", "FI_ERRNO": "EIO",
                                                                               "FI_PATH": output.path])
        #expect(failed.exitedNormally)
        #expect(failed.status != 0, "a failed directory sync reported success: \(failed.output)")
        #expect(failed.output.contains("Cannot flush the directory \(output.path)"), "\(failed.output)")
    }
}

import Foundation
import SecStoreTestSupport
import Testing

/// Where the repository's `scripts/` folder is, from this file's path.
let scriptsDirectory = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appending(path: "scripts")

/// The directory holding the built `secstore` and `secstore-test-helper`.
let binaryDirectory = HelperProcess(product: "secstore").executableURL.deletingLastPathComponent()

/// Runs a program to its end; returns its status and everything it printed.
func runProgram(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(filePath: path)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.runWithCleanSignals()
    let data = try pipe.fileHandleForReading.readToEnd() ?? Data()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

func isInstalled(_ tool: String) -> Bool {
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
    }
}

/// The fsync audit (issue 15, item 2) in the suite: `scripts/fsync-audit.sh` runs every writer
/// under strace and checks that a file is fsynced before it is renamed or linked into place,
/// its directory after, and that nothing written or created is left unsynced. The control
/// writer (no fsync at all) must break every rule, so the audit is known to see.
@Suite(.enabled(if: isInstalled("strace") && isInstalled("python3"), "needs strace and python3 (scripts/bootstrap.sh)"))
struct FsyncAuditTests {
    @Test func everyWriterSyncsWhatItPublishes() throws {
        let run = try runProgram(scriptsDirectory.appending(path: "fsync-audit.sh").path, [],
                                 environment: ["SECSTORE_BIN_DIR": binaryDirectory.path, "FSYNC_AUDIT_CONTROL": "1"])
        let violations = run.output.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("      ") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(run.output.contains("writers audited"), "the audit did not run: \(run.output.suffix(2000))")

        // The control breaks every rule, and the audit says so.
        let control = violations.filter { $0.hasPrefix("control-no-fsync:") }
        for rule in ["R1", "R2", "R3", "R4", "R5"] {
            #expect(control.contains { $0.contains(" \(rule) ") }, "the audit missed \(rule) in the control writer")
        }

        let secstore = violations.filter { !$0.hasPrefix("control-no-fsync:") }
        // A failed command or a file published or left without its fsync: never.
        // Every rule, R5 included: new directories are synced into their parents since
        // FileSecurity.ensurePrivateDirectory does it (before, the device key's and store's
        // directories could vanish in a power cut soon after the first create).
        #expect(secstore.isEmpty, "\(secstore.joined(separator: "\n"))\n\(run.output.suffix(3000))")
    }
}

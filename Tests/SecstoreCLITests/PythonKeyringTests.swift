import Foundation
import SecStoreTestSupport
import Testing

/// The Python keyring backend (integrations/python-keyring) under the real `keyring` package
/// from PyPI: keyring's own conformance tests (`keyring.testing.backend.BackendBasicTests`),
/// the `keyring` command-line tool, and the backend's error cases, run by the package's
/// run-tests.sh against the `secstore` built beside this test bundle.
///
/// The script keeps its virtual environment outside the repository
/// (`~/.cache/secstore-python-keyring-venv/…`) and reuses it, so only the first run downloads
/// keyring and pytest from PyPI. Skipped only where python3 is not installed.
@Suite struct PythonKeyringTests {
    static let repository = URL(filePath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let script = repository.appending(path: "integrations/python-keyring/run-tests.sh")

    /// `name` on `PATH`, as a shell would find it.
    static func which(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").lazy
            .map { URL(filePath: String($0)).appending(path: name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    static let python3 = which("python3")

    @Test("keyring's BackendBasicTests, the keyring CLI and the error cases pass against the built secstore",
          .enabled(if: python3 != nil, "python3 is not installed (scripts/bootstrap.sh installs python3 and python3-venv)"),
          .timeLimit(.minutes(20)))
    func keyringBackendSuite() throws {
        let bash = try #require(Self.which("bash"), "bash is needed to run \(Self.script.path)")
        let scratch = FileManager.default.temporaryDirectory.appending(path: "secstore-python-keyring-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        // One file for both streams, so the report reads in order and no pipe can fill up.
        let outputURL = scratch.appending(path: "output")
        try #require(FileManager.default.createFile(atPath: outputURL.path, contents: nil))
        let output = try FileHandle(forWritingTo: outputURL)

        var environment = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("SECSTORE_") && !$0.key.hasPrefix("KEYRING_PROPERTY_") && $0.key != "PYTHON_KEYRING_BACKEND"
        }
        environment["SECSTORE_BIN"] = CLI.executableURL.path
        environment["SECSTORE_KEYRING"] = "off"  // each test that needs the kernel keyring turns it on, and locks after

        let process = Process()
        process.executableURL = bash
        process.arguments = [Self.script.path]
        process.environment = environment
        process.currentDirectoryURL = Self.repository
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        try process.runWithCleanSignals()
        process.waitUntilExit()
        try output.close()
        let report = String(decoding: try Data(contentsOf: outputURL), as: UTF8.self)

        #expect(process.terminationStatus == 0, "run-tests.sh exited with \(process.terminationStatus):\n\(report)")
        let lines = report.split(separator: "\n")
        let summary = lines.last { $0.contains(" passed") && $0.hasPrefix("=") }
        #expect(summary != nil, "no pytest summary in:\n\(report)")
        #expect(!report.contains(" FAILED") && !report.contains(" ERROR"), "\(report)")
        // keyring 25's BackendBasicTests has 15 tests; every one of them ran and passed.
        let conformance = lines.filter { $0.contains("test_conformance.py::TestSecStoreKeyring::") && $0.contains("PASSED") }
        #expect(conformance.count >= 15, "\(conformance.count) conformance tests passed:\n\(report)")
        #expect(lines.contains { $0.contains("test_keyring_cli.py::test_set_get_del_with_python_keyring_backend PASSED") }, "\(report)")
        if let summary { print("PythonKeyringTests: \(conformance.count) keyring conformance tests passed; \(summary)") }
    }
}

import Foundation
import Testing

/// Python clients against the provider: SecretStorage (jeepney, its own D-Bus implementation;
/// tries the DH session first) directly, and keyring's SecretService backend under keyring's own
/// conformance tests (`BackendBasicTests`). The tests live in `Python/`; they run with pytest in a
/// virtual environment kept outside the repository (`~/.cache/secstore-secret-service-venv-…`)
/// and reused, so only the first run downloads the packages from PyPI.
@Suite("Python SecretStorage and keyring against secstore-secret-service")
struct PythonClientTests {
    static let directory = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Python")
    /// The versions the tests were written against; the venv's name changes with them.
    static let requirements = ["keyring>=25.7,<26", "SecretStorage>=3.3,<4", "pytest>=8,<10"]
    static let python3 = try? Programs.require("python3")

    /// The cached venv's python, created (with the requirements installed) when missing.
    static func venvPython() throws -> URL {
        let tag = requirements.joined(separator: " ").utf8.reduce(UInt32(2166136261)) { ($0 ^ UInt32($1)) &* 16777619 }
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        let venv = URL(filePath: home).appending(path: ".cache/secstore-secret-service-venv-\(String(tag, radix: 16))")
        let python = venv.appending(path: "bin/python")
        let ready = venv.appending(path: ".installed")
        if !FileManager.default.fileExists(atPath: ready.path) {
            try? FileManager.default.removeItem(at: venv)
            let environment = ProcessInfo.processInfo.environment
            let created = try Programs.run(try #require(python3), ["-m", "venv", venv.path], environment: environment)
            try #require(created.status == 0, "python3 -m venv failed: \(created)")
            let installed = try Programs.run(python, ["-m", "pip", "install", "-q"] + requirements, environment: environment)
            try #require(installed.status == 0, "pip install failed (is PyPI reachable?): \(installed)")
            _ = FileManager.default.createFile(atPath: ready.path, contents: nil)
        }
        return python
    }

    @Test("SecretStorage's item lifecycle and keyring's BackendBasicTests pass",
          .enabled(if: python3 != nil, "python3 is not installed (scripts/bootstrap.sh installs python3 and python3-venv)"))
    func pythonClients() throws {
        let python = try Self.venvPython()
        let provider = try Provider(bus: try PrivateBus())
        var environment = provider.bus.clientEnvironment
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        environment["PYTHON_KEYRING_BACKEND"] = nil
        let result = try Programs.run(python, ["-m", "pytest", "-q", "-p", "no:cacheprovider", Self.directory.path],
                                      environment: environment)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains(" passed"), "\(result)")
        #expect(!result.stdout.contains("skipped"), "\(result)")
        #expect(provider.isRunning)
    }

    /// SecretStorage's own test suite, from the source distribution of the installed version
    /// (downloaded once beside the venv).
    static func secretStorageTests(python: URL) throws -> URL {
        let venv = python.deletingLastPathComponent().deletingLastPathComponent()
        let sources = venv.appending(path: "secretstorage-sdist")
        let ready = sources.appending(path: ".unpacked")
        if !FileManager.default.fileExists(atPath: ready.path) {
            try? FileManager.default.removeItem(at: sources)
            try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
            let environment = ProcessInfo.processInfo.environment
            let version = try Programs.run(python, ["-c", "import importlib.metadata as m; print(m.version('SecretStorage'))"],
                                           environment: environment).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let downloaded = try Programs.run(python, ["-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:",
                                                       "-d", sources.path, "SecretStorage==\(version)"], environment: environment)
            try #require(downloaded.status == 0, "pip download failed: \(downloaded)")
            let archive = try #require(try FileManager.default.contentsOfDirectory(atPath: sources.path).first { $0.hasSuffix(".tar.gz") })
            let unpacked = try Programs.run(try Programs.require("tar"), ["-xzf", sources.appending(path: archive).path, "-C", sources.path],
                                            environment: environment)
            try #require(unpacked.status == 0, "\(unpacked)")
            _ = FileManager.default.createFile(atPath: ready.path, contents: nil)
        }
        let directory = try #require(try FileManager.default.contentsOfDirectory(atPath: sources.path).first { $0.lowercased().hasPrefix("secretstorage-") && !$0.hasSuffix(".tar.gz") })
        return sources.appending(path: directory).appending(path: "tests/run_tests.py")
    }

    @Test("SecretStorage's own test suite passes (the mock-service-only tests skip themselves)",
          .enabled(if: python3 != nil, "python3 is not installed (scripts/bootstrap.sh installs python3 and python3-venv)"))
    func secretStorageSuite() throws {
        let python = try Self.venvPython()
        let runner = try Self.secretStorageTests(python: python)
        let provider = try Provider(bus: try PrivateBus())
        var environment = provider.bus.clientEnvironment
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        let result = try Programs.run(python, [runner.path], environment: environment)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("\nOK"), "\(result)")
        // Only the tests written for SecretStorage's mock service are skipped.
        let skipped = result.stderr.split(separator: "\n").filter { $0.contains("... skipped") }
        #expect(skipped.allSatisfy { $0.contains("mocked server") }, "\(skipped)")
        #expect(provider.isRunning)
    }
}

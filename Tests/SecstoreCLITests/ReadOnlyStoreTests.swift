import Foundation
import Testing

/// A store that cannot be written — its file, or its directory too — can still be read:
/// `get`, `list`, `info`, `verify` and `export` work; writes fail with a message that says
/// why, and the file is left byte for byte as it was (issue 14, item 16).
///
/// Root ignores file modes, so when the suite runs as root the tool runs as `nobody`
/// (`setpriv`), from a copy of the binary that user can execute.
@Suite(.enabled(if: UnprivilegedRunner.shared != nil, "cannot run the tool as an unprivileged user here (no setpriv, or the toolchain is not readable by nobody)"))
struct ReadOnlyStoreTests {
    typealias Runner = UnprivilegedRunner
    static var runner: Runner? { UnprivilegedRunner.shared }

    /// A directory owned by the runner's user, with a store made by that user.
    final class Fixture {
        let directory: URL
        let runner: Runner

        init(runner: Runner) throws {
            self.runner = runner
            directory = URL(filePath: "/tmp/secstore-readonly-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try #require(chown(directory.path, runner.uid, runner.gid) == 0 && chmod(directory.path, 0o700) == 0)
            let created = try run("create")
            try #require(created.status == Exit.success, "\(created)")
            let added = try run("add", "--service", "api", "--account", "alice", "--value-stdin", stdin: "s3cret")
            try #require(added.status == Exit.success, "\(added)")
        }

        deinit {
            chmod(storeDirectory.path, 0o700)
            chmod(directory.path, 0o700)
            try? FileManager.default.removeItem(at: directory)
        }

        var storeDirectory: URL { directory.appending(path: "data") }
        var storeURL: URL { storeDirectory.appending(path: "s.secstore") }

        @discardableResult
        func run(_ arguments: String..., stdin: String = "") throws -> CLI.Result {
            let store = ["--store", storeURL.path, "--device-key", directory.appending(path: "keys/device.key").path]
            return try CLI.run(runner.prefix + arguments + store, stdin: Data(stdin.utf8), home: directory,
                               executable: runner.executable)
        }

        func storeBytes() throws -> Data { try Data(contentsOf: storeURL) }
    }

    enum ReadOnly: String, CaseIterable {
        /// `chmod 400` on the store; its directory stays writable.
        case file
        /// `chmod 400` on the store and `chmod 500` on its directory: SQLite cannot make its
        /// `-shm` file, so the store opens as immutable.
        case fileAndDirectory
    }

    @Test("A read-only store reads (get, list, info, verify, export) and refuses writes with a message", arguments: ReadOnly.allCases)
    func readOnlyStoreIsReadable(mode: ReadOnly) throws {
        let fixture = try Fixture(runner: try #require(Self.runner))
        try #require(chmod(fixture.storeURL.path, 0o400) == 0)
        if mode == .fileAndDirectory {
            try #require(chmod(fixture.storeDirectory.path, 0o500) == 0)
        }
        let before = try fixture.storeBytes()

        let got = try fixture.run("get", "--service", "api", "--account", "alice")
        #expect(got.status == Exit.success, "\(got)")
        #expect(got.stdout == "s3cret")
        let listed = try fixture.run("list", "--json")
        #expect(listed.status == Exit.success, "\(listed)")
        #expect(try listed.jsonArray().count == 1)
        #expect(try fixture.run("info").status == Exit.success)
        let verified = try fixture.run("verify")
        #expect(verified.status == Exit.success, "\(verified)")
        #expect(verified.stdout.contains("no damage found"))
        let backup = fixture.directory.appending(path: "backup.ssb")
        let exported = try fixture.run("export", backup.path, "--backup-passphrase-stdin", "--kdf-ops", "1", "--kdf-memory", "8192",
                                       stdin: "backup pass\n")
        #expect(exported.status == Exit.success, "\(exported)")
        #expect(FileManager.default.fileExists(atPath: backup.path))

        let added = try fixture.run("add", "--service", "api", "--account", "bob", "--value-stdin", stdin: "x")
        #expect(added.status != Exit.success)
        #expect(added.stderr.contains("read-only"), "\(added.stderr)")
        #expect(!added.stderr.contains("SQLITE"), "no internal codes: \(added.stderr)")
        #expect(try fixture.run("delete", "--service", "api", "--account", "alice").status != Exit.success)
        #expect(try fixture.storeBytes() == before)
        #expect(try fixture.run("get", "--service", "api", "--account", "alice").stdout == "s3cret")
    }
}

/// How to run the tool as a user to whom file modes apply: the test user itself, or
/// `nobody` through `setpriv` when the suite runs as root.
struct UnprivilegedRunner {
    var executable: URL
    var prefix: [String]
    var uid: uid_t
    var gid: gid_t

    static let shared: UnprivilegedRunner? = {
        guard geteuid() == 0 else {
            return UnprivilegedRunner(executable: CLI.executableURL, prefix: [], uid: geteuid(), gid: getegid())
        }
        let setpriv = URL(filePath: "/usr/bin/setpriv")
        guard FileManager.default.isExecutableFile(atPath: setpriv.path) else { return nil }
        // A copy in a directory every user can enter: the build folder may be under /root.
        let directory = URL(filePath: "/tmp/secstore-readonly-tool-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o755])
        let copy = directory.appending(path: "secstore")
        try? FileManager.default.removeItem(at: copy)
        guard (try? FileManager.default.copyItem(at: CLI.executableURL, to: copy)) != nil, chmod(copy.path, 0o755) == 0 else {
            return nil
        }
        let runner = UnprivilegedRunner(executable: setpriv, prefix: ["--reuid=65534", "--regid=65534", "--clear-groups", copy.path],
                                        uid: 65534, gid: 65534)
        let probe = try? CLI.run(runner.prefix + ["--version"], home: directory, executable: setpriv)
        return probe?.status == 0 ? runner : nil
    }()
}

import Foundation
import SecStoreTestSupport
import Testing

/// Files that are not what they should be at the store's or the device key's path.
@Suite("Bad files at the store and key paths") struct BadFilesTests {
    @Test("A FIFO at the device-key path is refused at once (status 8), not waited on forever")
    func fifoDeviceKey() throws {
        let store = try CLIStore.created()
        let real = store.file("device.key.real")
        try FileManager.default.moveItem(at: store.deviceKeyURL, to: real)
        #expect(mkfifo(store.deviceKeyURL.path, 0o600) == 0)
        let result = try store.run("list")
        #expect(result.status == Exit.unavailable, "\(result)")
        #expect(result.stderr.contains("is not a regular file"), "\(result.stderr)")
    }

    @Test("A FIFO or a symbolic link at the store path is refused with a message that says so")
    func fifoAndLinkStore() throws {
        let store = try CLIStore.created()
        let fifo = store.file("fifo.secstore")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let onFIFO = try CLI.run(["list", "--store", fifo.path, "--device-key", store.deviceKeyURL.path], home: store.directory)
        #expect(onFIFO.status == Exit.unavailable && onFIFO.stderr.contains("not a regular file"), "\(onFIFO)")

        let link = store.file("link.secstore")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: store.storeURL)
        let onLink = try CLI.run(["list", "--store", link.path, "--device-key", store.deviceKeyURL.path], home: store.directory)
        #expect(onLink.status == Exit.unavailable && onLink.stderr.contains("is a symbolic link"), "\(onLink)")
    }

    @Test("A store file others can read (0644) is repaired to 0600 when opened")
    func exposedStoreIsRepaired() throws {
        let store = try CLIStore.created()
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store.storeURL.path)
        #expect(try store.run("list").status == Exit.success)
        let mode = try FileManager.default.attributesOfItem(atPath: store.storeURL.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}

/// A crash of the tool must leave no core file and print no register dump.
@Suite("Crash hygiene") struct CrashHygieneTests {
    @Test("The running tool has core files disabled and no crash handler of the runtime's backtracer", .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status")))
    func noCoreFileNoBacktracer() throws {
        let store = try CLIStore.created()
        // Started with a soft core limit of 1000 blocks (CrashState.launcher), so a tool that
        // left the limit alone is seen with one. The soft limit is the one the kernel's core dump
        // obeys; the hard limit is kept so that `secstore exec` can give the command back the
        // limit the user had.
        let state = try #require(try CrashState.whileWaitingForInput(
            CLI.executableURL, ["add", "--service", "s", "--account", "a", "--value-stdin"] + store.storeArguments,
            environment: CLI.environment(home: store.directory, extra: [:])))
        #expect(state.leavesNothing, "\(state)")
    }

    /// Before: the tool, waiting here for a secret (or the sync daemon, for hours, holding
    /// unlocked keys), could be attached to by any process of its user where Yama's
    /// `ptrace_scope` is 0 (Debian's default). It is now non-dumpable (`CrashHygiene`). Seen
    /// from outside, a non-dumpable process's `/proc` entries belong to root, so the tool runs
    /// as another user than root (`nobody` when the suite runs as root).
    @Test("The running tool cannot be traced by other processes of its user", .enabled(if: UnprivilegedRunner.shared != nil))
    func notTraceable() throws {
        let runner = try #require(UnprivilegedRunner.shared)
        let fixture = try ReadOnlyStoreTests.Fixture(runner: runner)
        let store = ["--store", fixture.storeURL.path, "--device-key", fixture.directory.appending(path: "keys/device.key").path]
        let state = try #require(try CrashState.whileWaitingForInput(
            runner.executable, runner.prefix + ["add", "--service", "s", "--account", "b", "--value-stdin"] + store,
            environment: CLI.environment(home: fixture.directory, extra: [:])))
        #expect(state.isTraceable == false, "\(state)")
        #expect(state.leavesNothing, "\(state)")
    }
}

/// Where a secret comes from: any readable stream, and never an empty one by accident.
@Suite("Secret input") struct SecretInputTests {
    @Test("--value-file reads /dev/stdin and FIFOs (FileManager could not); an empty --value-stdin is refused unless --allow-empty")
    func streamsAndEmptyInput() throws {
        let store = try CLIStore.created()
        let viaDevStdin = try store.run("add", "--service", "s", "--account", "stdin", "--value-file", "/dev/stdin", stdin: "from-pipe")
        #expect(viaDevStdin.status == Exit.success, "\(viaDevStdin)")
        #expect(try store.run("get", "--service", "s", "--account", "stdin").stdout == "from-pipe")

        let fifo = store.file("secret.fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let writer = Thread { try? Data("from-fifo".utf8).write(to: fifo) }
        writer.start()
        let viaFIFO = try store.run("add", "--service", "s", "--account", "fifo", "--value-file", fifo.path)
        #expect(viaFIFO.status == Exit.success, "\(viaFIFO)")
        #expect(try store.run("get", "--service", "s", "--account", "fifo").stdout == "from-fifo")

        let empty = try store.run("add", "--service", "s", "--account", "empty", "--value-stdin", stdin: "")
        #expect(empty.status == Exit.usage && empty.stderr.contains("--allow-empty"), "\(empty)")
        #expect(try store.run("get", "--service", "s", "--account", "empty").status == Exit.notFound)
        let allowed = try store.run("add", "--service", "s", "--account", "empty", "--value-stdin", "--allow-empty", stdin: "")
        #expect(allowed.status == Exit.success, "\(allowed)")
    }

    /// Before: a passphrase file others could read was used with a warning, while the same
    /// file given to the library as SECSTORE_PASSPHRASE_FILE was refused.
    @Test("A passphrase file others can read is refused (status 8), as the library refuses SECSTORE_PASSPHRASE_FILE")
    func exposedPassphraseFileIsRefused() throws {
        let store = try CLIStore.created(passphrase: true)
        let path = try store.passphraseFile()
        #expect(try store.run("unlock", "--passphrase-file", path).status == Exit.success)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let refused = try store.run("unlock", "--passphrase-file", path)
        #expect(refused.status == Exit.unavailable, "\(refused)")
        #expect(refused.stderr.contains("chmod 600"), "\(refused.stderr)")
        #expect(!refused.stderr.contains(CLIStore.passphrase))
    }

    /// Before: only the mode was checked, by path: a 0600 file owned by another user (who
    /// could read, or have chosen, the passphrase in it) was used. Now the opened file's owner
    /// must be the caller, as the library requires of SECSTORE_PASSPHRASE_FILE. Needs root to
    /// give the file away.
    @Test("A passphrase file another user owns is refused (status 8)", .enabled(if: geteuid() == 0))
    func anotherUsersPassphraseFileIsRefused() throws {
        let store = try CLIStore.created(passphrase: true)
        let path = try store.passphraseFile()
        #expect(chown(path, 65534, 65534) == 0)
        let refused = try store.run("unlock", "--passphrase-file", path)
        #expect(refused.status == Exit.unavailable, "\(refused)")
        #expect(refused.stderr.contains("belongs to user 65534"), "\(refused.stderr)")
        // A stream is still read as it comes.
        let piped = try store.run("unlock", "--passphrase-file", "/dev/stdin", stdin: CLIStore.passphrase + "\n")
        #expect(piped.status == Exit.success, "\(piped)")
    }
}

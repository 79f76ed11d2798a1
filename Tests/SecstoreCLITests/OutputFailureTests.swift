import Foundation
import SecStoreTestSupport
import Testing

/// Standard output that fails: the tool used to trap in FileHandle (status 132 and a
/// register dump) on a closed pipe or a full disk.
@Suite("Output failures") struct OutputFailureTests {
    /// A store holding one secret larger than a pipe's buffer, so writing it must block or fail.
    func storeWithLargeSecret() throws -> CLIStore {
        let store = try CLIStore.created()
        let secret = String(repeating: "s", count: 1 << 20)
        let added = try store.run("add", "--service", "big", "--account", "a", "--value-stdin", stdin: secret)
        try #require(added.status == Exit.success, "\(added)")
        return store
    }

    /// `secstore get` of that secret, not started, for the test to wire its output.
    func getLargeSecret(_ store: CLIStore) -> Process {
        let process = Process()
        process.executableURL = CLI.executableURL
        process.arguments = ["get", "--service", "big", "--account", "a"] + store.storeArguments
        process.environment = CLI.environment(home: store.directory, extra: [:])
        return process
    }

    @Test("A reader that goes away ends the tool quietly, by SIGPIPE, as other Unix tools end")
    func closedPipe() throws {
        let store = try storeWithLargeSecret()
        let process = getLargeSecret(store)
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try output.fileHandleForReading.close()   // the reader is gone before the first byte
        try process.runWithCleanSignals()
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGPIPE,
                "\(process.terminationReason) \(process.terminationStatus)")
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(stderr.isEmpty, "\(stderr)")
    }

    @Test("A full disk is a message and status 1, never a crash", .enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func fullDisk() throws {
        let store = try storeWithLargeSecret()
        let process = getLargeSecret(store)
        process.standardOutput = try FileHandle(forWritingTo: URL(filePath: "/dev/full"))
        let errors = Pipe()
        process.standardError = errors
        try process.runWithCleanSignals()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == Exit.failure, "\(process.terminationStatus) \(stderr)")
        #expect(stderr.contains("Cannot write to standard output: No space left on device"), "\(stderr)")
        #expect(!stderr.contains("Fatal error"))
    }
}

/// Ctrl-C or SIGTERM while the tool writes a temporary file removes it.
@Suite("Interrupts") struct InterruptTests {
    @Test("SIGINT while create derives the passphrase key: no store, no temporary, death by SIGINT")
    func interruptedCreateLeavesNothing() throws {
        let store = try CLIStore()
        let passphrase = try store.passphraseFile()
        let process = Process()
        process.executableURL = CLI.executableURL
        // Slow enough Argon2id (a few seconds) to be interrupted while the store is half made.
        process.arguments = ["create", "--passphrase-file", passphrase, "--kdf-ops", "12", "--kdf-memory", "128M"]
            + store.storeArguments
        process.environment = CLI.environment(home: store.directory, extra: [:])
        process.standardError = FileHandle.nullDevice
        try process.runWithCleanSignals()
        let directory = store.storeURL.deletingLastPathComponent().path
        func temporaries() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.contains(".new-") }
        }
        let deadline = Date().addingTimeInterval(20)
        while temporaries().isEmpty && process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        try #require(!temporaries().isEmpty, "the temporary store never appeared")
        Thread.sleep(forTimeInterval: 0.2)   // inside Argon2id now
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT,
                "\(process.terminationReason) \(process.terminationStatus)")
        #expect(temporaries().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: store.storeURL.path))
    }
}

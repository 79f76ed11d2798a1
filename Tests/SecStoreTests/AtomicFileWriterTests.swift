import Foundation
import SecStoreTestSupport
import Testing
import SecStore

/// `AtomicFileWriter`, the one whole-file writer (backups, the device key, the identifier
/// mirror): private from the first byte, all or nothing, never through a planted link.
@Suite struct AtomicFileWriterTests {
    static func temporaries(in directory: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasSuffix(".tmp") }
    }

    /// The temporary is 0600 before its first byte and while it is being written, and so is
    /// the file it becomes. (The umask is process-wide, so it is left alone here.)
    @Test func fileIs0600FromTheFirstByte() throws {
        let directory = TemporaryDirectory()
        let destination = directory.url.appending(path: "out.bin")
        let writer = try AtomicFileWriter(destination: destination, describing: "the test file")
        #expect(try permissionBits(of: writer.temporary) == 0o600)
        try writer.write(Array("secret".utf8))
        #expect(try permissionBits(of: writer.temporary) == 0o600)
        try writer.commit(.replace)
        #expect(try permissionBits(of: destination) == 0o600)
        #expect(try Data(contentsOf: destination) == Data("secret".utf8))
        #expect(try Self.temporaries(in: directory).isEmpty)
    }

    /// Until the commit the old file is untouched; the commit swaps in a new inode in one
    /// step (a reader holding the old file keeps the old bytes), written in several pieces.
    @Test func replacesAtomically() throws {
        let directory = TemporaryDirectory()
        let destination = directory.url.appending(path: "out.bin")
        try Data("old".utf8).write(to: destination)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: destination.path)
        let oldReader = try FileHandle(forReadingFrom: destination)
        defer { try? oldReader.close() }

        let writer = try AtomicFileWriter(destination: destination, describing: "the test file")
        for chunk in ["n", "e", "w", " ", "contents"] {
            try writer.write(Array(chunk.utf8))
        }
        #expect(try Data(contentsOf: destination) == Data("old".utf8), "nothing is visible before the commit")
        #expect(try writer.commit(.replace))

        #expect(try Data(contentsOf: destination) == Data("new contents".utf8))
        #expect(try permissionBits(of: destination) == 0o600, "the replacement has the writer's mode, not the old file's")
        #expect(try oldReader.readToEnd() == Data("old".utf8), "the old inode is unchanged")
        #expect(try Self.temporaries(in: directory).isEmpty)

        try AtomicFileWriter.write(Array("third".utf8), to: destination, describing: "the test file")
        #expect(try Data(contentsOf: destination) == Data("third".utf8))
    }

    /// `createOnly` never replaces: it reports that another file won and keeps that file.
    @Test func createOnlyKeepsAnExistingFile() throws {
        let directory = TemporaryDirectory()
        let destination = directory.url.appending(path: "key")
        #expect(try AtomicFileWriter.write(Array("first".utf8), to: destination, describing: "the key", placement: .createOnly))
        #expect(try !AtomicFileWriter.write(Array("second".utf8), to: destination, describing: "the key", placement: .createOnly))
        #expect(try Data(contentsOf: destination) == Data("first".utf8))
        #expect(try Self.temporaries(in: directory).isEmpty)
    }

    /// A writer dropped before its commit, or whose commit fails, removes its temporary and
    /// leaves the destination as it was; the error is an `ioFailure` that names the file.
    @Test func temporaryIsRemovedOnFailure() throws {
        let directory = TemporaryDirectory()
        let destination = directory.url.appending(path: "out.bin")
        try Data("old".utf8).write(to: destination)
        do {
            let abandoned = try AtomicFileWriter(destination: destination, describing: "the test file")
            try abandoned.write(Array("half".utf8))
            #expect(FileManager.default.fileExists(atPath: abandoned.temporary.path))
        }
        #expect(try Self.temporaries(in: directory).isEmpty)
        #expect(try Data(contentsOf: destination) == Data("old".utf8))

        // rename(2) cannot replace a non-empty directory.
        let blocked = directory.url.appending(path: "blocked")
        try FileManager.default.createDirectory(at: blocked.appending(path: "inside"), withIntermediateDirectories: true)
        let writer = try AtomicFileWriter(destination: blocked, describing: "the test file")
        try writer.write(Array("data".utf8))
        let error = try #require(throws: SecStoreError.self) { try writer.commit(.replace) }
        #expect(error.code == .ioFailure)
        #expect(error.message.contains("the test file") && error.message.contains(blocked.path))
        #expect(!FileManager.default.fileExists(atPath: writer.temporary.path))
        #expect(try Self.temporaries(in: directory).isEmpty)
        // The writer is finished: it refuses to go on rather than crash.
        #expect(throws: SecStoreError.self) { try writer.write(Array("more".utf8)) }
    }

    /// A missing directory is reported, with the fix, before anything is written.
    @Test func missingDirectoryIsReported() throws {
        let directory = TemporaryDirectory()
        let destination = directory.url.appending(path: "absent/out.bin")
        let error = try #require(throws: SecStoreError.self) {
            try AtomicFileWriter(destination: destination, describing: "the test file")
        }
        #expect(error.code == .ioFailure)
        #expect(error.message.contains("Check that the directory exists and is writable"))
    }

    /// A symbolic link planted at the temporary path is not followed: the target keeps its
    /// bytes, the link stays (it is not the writer's to remove), and the error says what to do.
    @Test func refusesASymlinkedTemporaryPath() throws {
        let directory = TemporaryDirectory()
        let destination = directory.url.appending(path: "out.bin")
        let victim = directory.url.appending(path: "victim")
        try Data("victim".utf8).write(to: victim)
        let temporary = directory.url.appending(path: ".out.bin.planted.tmp")
        try FileManager.default.createSymbolicLink(at: temporary, withDestinationURL: victim)

        let error = try #require(throws: SecStoreError.self) {
            try AtomicFileWriter(destination: destination, temporary: temporary, describing: "the test file")
        }
        #expect(error.code == .ioFailure)
        #expect(error.message.contains(temporary.path) && error.message.contains("already exists"))
        #expect(try Data(contentsOf: victim) == Data("victim".utf8))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: temporary.path) == victim.path)
        #expect(!FileManager.default.fileExists(atPath: destination.path))

        // A dangling link is refused too (O_EXCL | O_NOFOLLOW): nothing is created at its target.
        let dangling = directory.url.appending(path: ".out.bin.dangling.tmp")
        let target = directory.url.appending(path: "would-be-created")
        try FileManager.default.createSymbolicLink(at: dangling, withDestinationURL: target)
        #expect(throws: SecStoreError.self) {
            try AtomicFileWriter(destination: destination, temporary: dangling, describing: "the test file")
        }
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    /// The backup export streams through the writer: a failing final step leaves neither a
    /// backup nor a temporary, and says why.
    @Test func failedExportLeavesNothingBehind() throws {
        let directory = TemporaryDirectory()
        let store = try SecretStore(at: directory.storeURL, options: .init(access: .owner, deviceKeyURL: directory.deviceKeyURL))
        try store.add(.genericPassword(service: "s", account: "1", accessGroup: "G"))
        let blocked = directory.url.appending(path: "backup.ssb")
        try FileManager.default.createDirectory(at: blocked.appending(path: "inside"), withIntermediateDirectories: true)
        let error = try #require(throws: SecStoreError.self) {
            try store.exportBackup(to: blocked, passphrase: "p", limits: .minimumForTesting)
        }
        #expect(error.code == .ioFailure)
        #expect(error.message.contains("the backup"))
        #expect(try Self.temporaries(in: directory).isEmpty)
    }
}

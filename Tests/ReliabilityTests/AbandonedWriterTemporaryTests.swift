import Foundation
import SecStoreTestSupport
import Testing
@testable import SecStore

/// A writer of one of SecStore's own files killed between creating its temporary and the
/// commit — kill -9, or a power cut that undoes the unlink after a link (the power-loss
/// model does both) — left `.<name>.<pid>.<random>.tmp` behind forever, holding a copy of the
/// contents: the device key's, a backup's. The next write of the same file removes those no
/// live writer holds and that are old enough, as `create` does for its store temporaries.
@Suite struct AbandonedWriterTemporaryTests {
    func leftover(in directory: URL, name: String, ageSeconds: TimeInterval) throws -> URL {
        let url = directory.appending(path: ".\(name).\(Int.random(in: 100...99_999)).\(UUID().uuidString.prefix(8)).tmp")
        #expect(FileManager.default.createFile(atPath: url.path, contents: Data("secstore-device-key-v1\nhalf".utf8),
                                               attributes: [.posixPermissions: 0o600]))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -ageSeconds)], ofItemAtPath: url.path)
        return url
    }

    func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    @Test func theNextWriteRemovesWhatAKilledWriterLeft() throws {
        let dir = TemporaryDirectory("secstore-abandoned-writer")
        let destination = dir.url.appending(path: "device-id")
        let abandoned = try leftover(in: dir.url, name: "device-id", ageSeconds: 7200)
        let fresh = try leftover(in: dir.url, name: "device-id", ageSeconds: 0)
        let other = try leftover(in: dir.url, name: "other-file", ageSeconds: 7200)
        let notOurs = dir.url.appending(path: ".device-id.settings")   // an application's own file
        #expect(FileManager.default.createFile(atPath: notOurs.path, contents: Data("x".utf8)))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: notOurs.path)
        // Before: anything `.device-id.*.tmp` old enough went, such as an editor's draft.
        let draft = dir.url.appending(path: ".device-id.draft.tmp")
        #expect(FileManager.default.createFile(atPath: draft.path, contents: Data("x".utf8)))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: draft.path)
        let heldURL = try leftover(in: dir.url, name: "device-id", ageSeconds: 7200)
        let held = open(heldURL.path, O_RDONLY)   // another process still writing holds its file
        #expect(flock(held, LOCK_EX) == 0)
        defer { close(held) }

        try AtomicFileWriter.write(Array("new\n".utf8), to: destination, describing: "the mirror")
        #expect(!exists(abandoned), "a killed writer's temporary stays after the next write")
        #expect(exists(fresh), "younger than a writer's window between creating and locking")
        #expect(exists(heldURL), "a live writer's temporary stays")
        #expect(exists(other), "another file's temporary is not this writer's")
        #expect(exists(notOurs), "a file that is not a writer's temporary stays")
        #expect(exists(draft), "a .tmp file that is not shaped as a writer's temporary stays")
        #expect(try String(contentsOf: destination, encoding: .utf8) == "new\n")
    }

    /// The mark that spares a live writer's temporary: it holds it while it writes, however
    /// long that takes.
    @Test func aWriterInProgressKeepsItsTemporary() throws {
        let dir = TemporaryDirectory("secstore-live-writer")
        let destination = dir.url.appending(path: "backup.ssb")
        let slow = try AtomicFileWriter(destination: destination, describing: "the backup")
        try slow.write(Array("first half".utf8))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: slow.temporary.path)

        try AtomicFileWriter.write(Array("other".utf8), to: destination, describing: "the backup")
        #expect(exists(slow.temporary), "a second writer removed the temporary of one still writing")
        try slow.write(Array(" and the rest".utf8))
        try slow.commit(.replace)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "first half and the rest")
    }
}

/// A committing writer keeps its temporary locked until the name is gone. Before, it released
/// the lock when it closed the file, before the rename: a writer stopped or suspended for longer
/// than the abandoned age (a laptop asleep in the middle of a DeviceIdentity reset) lost its
/// temporary to a sweep by another process at that moment (another writer of the file, or
/// `identifier()`), and its commit failed after the caller had acted on it. The sweep runs here
/// inside the rename and the link, through SecStore's `FileSystem` seam, for this test's
/// temporary only.
@Suite(.serialized) struct CommittingWriterTemporaryTests {
    @Test(arguments: [AtomicFileWriter.Placement.replace, .createOnly])
    func aSweepDuringTheCommitLeavesTheTemporary(placement: AtomicFileWriter.Placement) throws {
        let dir = TemporaryDirectory("secstore-committing-writer")
        let destination = dir.url.appending(path: "device-id")
        let writer = try AtomicFileWriter(destination: destination, describing: "the mirror")
        try writer.write(Array("new\n".utf8))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: writer.temporary.path)
        let temporary = writer.temporary.path
        let system = FileSystem.system
        var sweeping = system
        sweeping.renameEntry = { from, to in
            if from == temporary { AtomicFileWriter.removeAbandonedTemporaries(of: destination) }
            return system.renameEntry(from, to)
        }
        sweeping.linkEntry = { existing, new in
            if existing == temporary { AtomicFileWriter.removeAbandonedTemporaries(of: destination) }
            return system.linkEntry(existing, new)
        }
        FileSystem.current = sweeping
        defer { FileSystem.current = .system }
        try writer.commit(placement)
        #expect(try String(contentsOf: destination, encoding: .utf8) == "new\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["device-id"])
    }
}

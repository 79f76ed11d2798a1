import Foundation
import SecStore
import SecStoreTestSupport
import Testing
@testable import DeviceIdentity

/// The mirror copy is written through SecStore's `AtomicFileWriter`: private directories and
/// file, replaced in one step, no temporary left behind, typed errors.
@Suite struct MirrorFileTests {
    @Test func writesA0600FileInA0700DirectoryAndReplacesIt() throws {
        let directory = TemporaryDirectory()
        let url = directory.url.appending(path: "apps/one/device-id")
        let mirror = MirrorFile(url: url, group: "G")
        let first = UUID(), second = UUID()

        try mirror.write(first)
        #expect(mirror.read() == first)
        #expect(try permissionBits(of: url) == 0o600)
        #expect(try permissionBits(of: url.deletingLastPathComponent()) == 0o700)
        #expect(try permissionBits(of: directory.url.appending(path: "apps")) == 0o700)

        // A loosened existing file is replaced by a new private one, not rewritten in place.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        let oldReader = try FileHandle(forReadingFrom: url)
        defer { try? oldReader.close() }
        try mirror.write(second)
        #expect(mirror.read() == second)
        #expect(try permissionBits(of: url) == 0o600)
        #expect(try String(decoding: oldReader.readToEnd() ?? Data(), as: UTF8.self).hasPrefix(first.uuidString))
        #expect(try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path) == ["device-id"])
    }

    /// Before: the mirror was read whole, whatever its size (a 512 MiB file took 73 s and
    /// 1.6 GB on every `identifier()`, a 4 GiB one stopped the process). Now at most
    /// `maximumByteCount` bytes of a regular file are read; anything larger is no mirror.
    @Test func anOversizedMirrorIsNotReadWhole() throws {
        let directory = TemporaryDirectory()
        let url = directory.url.appending(path: "device-id")
        let mirror = MirrorFile(url: url, group: "G")
        let uuid = UUID()
        try mirror.write(uuid)
        #expect(mirror.read() == uuid)
        // The same valid line, padded past the limit with whitespace a parser would trim.
        let padded = Data("\(uuid.uuidString) G".utf8) + Data(repeating: 0x0A, count: MirrorFile.maximumByteCount)
        try padded.write(to: url)
        #expect(mirror.read() == nil)
        // A sparse file of 8 GiB: refused at once, without reading it.
        try Data().write(to: url)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 8 << 30)
        try handle.close()
        #expect(mirror.read() == nil)
    }

    /// Before: a mirror was read whatever its owner and mode, so anyone who could write it — the
    /// owner of a file left in a shared sticky directory such as /tmp, or anyone at all when its
    /// mode let them — chose the identifier a wiped store was restored to. Now only a file of
    /// this user that no one else may write is a mirror; one that others may only read still is.
    @Test func aMirrorSomeoneElseCouldHaveWrittenIsNoMirror() throws {
        let directory = TemporaryDirectory()
        let url = directory.url.appending(path: "device-id")
        let mirror = MirrorFile(url: url, group: "G")
        let uuid = UUID()
        try mirror.write(uuid)
        for mode in [0o620, 0o602, 0o666] {
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
            #expect(mirror.read() == nil, "mode \(String(mode, radix: 8))")
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        #expect(mirror.read() == uuid, "readable by others, writable by no one else")
        if geteuid() == 0 {
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
            #expect(chown(url.path, 65534, 65534) == 0)
            #expect(mirror.read() == nil, "another user's file")
        }
    }

    /// Before: the line was trimmed of whitespace before the group was compared, so a group
    /// that ends in whitespace (or holds a line break) never read back: every `identifier()`
    /// rewrote the mirror four times (four renames and fsyncs), and a wiped store got a new
    /// value instead of the mirrored one. The line is now read exactly as it is written.
    @Test(arguments: ["G ", "G\t", "two words ", "line\nbreak", " G"])
    func everyGroupReadsBack(group: String) throws {
        let directory = TemporaryDirectory()
        let mirror = MirrorFile(url: directory.url.appending(path: "device-id"), group: group)
        let uuid = UUID()
        try mirror.write(uuid)
        #expect(mirror.read() == uuid)
        let trimmed = group.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed != group { #expect(MirrorFile(url: mirror.url, group: trimmed).read() == nil, "another group's value") }
    }

    /// The machine id is read the same way: a regular file of a few bytes.
    @Test func anOversizedMachineIDIsRefused() throws {
        let directory = TemporaryDirectory()
        let url = directory.url.appending(path: "machine-id")
        let line = "0123456789abcdef0123456789abcdef"
        try Data((line + "\n").utf8).write(to: url)
        #expect(try MachineIDDerivation.readMachineID(url).count == 16)
        try (Data(line.utf8) + Data(repeating: 0x0A, count: 8192)).write(to: url)
        #expect(throws: SecStoreError.self) { try MachineIDDerivation.readMachineID(url) }
    }

    /// `identifier()` that cannot write the mirror says why. Before, every failure became
    /// "Check that its directory is writable", whatever it was: a full disk, a directory in the
    /// mirror's place (here), a directory others may write.
    @Test func aMirrorThatCannotBeWrittenSaysWhy() throws {
        let directory = TemporaryDirectory()
        let app = TestApp(appID: "ABCDE12345.com.example.app", directory: directory)
        try FileManager.default.createDirectory(at: app.mirrorURL.appending(path: "occupied"), withIntermediateDirectories: true)
        let error = try #require(throws: SecStoreError.self) { try app.identity().identifier() }
        #expect(error.code == .ioFailure)
        #expect(error.message.contains("is not a regular file") && error.message.contains(app.mirrorURL.path), "\(error.message)")
        #expect(!error.message.contains("Check that its directory is writable"), "\(error.message)")
    }

    /// A failure is a `SecStoreError` `ioFailure` naming the mirror, and leaves no temporary.
    @Test func failureIsTypedAndLeavesNoTemporary() throws {
        let directory = TemporaryDirectory()
        let url = directory.url.appending(path: "device-id")
        try FileManager.default.createDirectory(at: url.appending(path: "occupied"), withIntermediateDirectories: true)
        let error = try #require(throws: SecStoreError.self) { try MirrorFile(url: url, group: "G").write(UUID()) }
        #expect(error.code == .ioFailure)
        #expect(error.message.contains("mirror copy") && error.message.contains(url.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["device-id"])
    }
}

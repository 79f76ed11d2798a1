import Foundation
import SecStoreTestSupport
import Testing
@testable import SecStore

/// A `create` killed while it built the store under its temporary name (kill -9, a power
/// cut) left `.<name>.new-<UUID>` and its SQLite companions behind, forever. The next
/// `create` of that store removes such leftovers — only those no live process holds and
/// that are old enough that no writer can be between creating and locking its file.
@Suite struct AbandonedTemporaryTests {
    func leftover(_ dir: TemporaryDirectory, ageSeconds: TimeInterval) throws -> URL {
        let directory = dir.storeURL.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appending(path: ".\(dir.storeURL.lastPathComponent).new-\(UUID().uuidString)")
        for suffix in ["", "-wal"] {
            #expect(FileManager.default.createFile(atPath: url.path + suffix, contents: Data("half-built".utf8),
                                                   attributes: [.posixPermissions: 0o600]))
        }
        let when = Date(timeIntervalSinceNow: -ageSeconds)
        try FileManager.default.setAttributes([.modificationDate: when], ofItemAtPath: url.path)
        return url
    }

    func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    @Test func createRemovesWhatAKilledCreateLeftBehind() throws {
        let dir = TemporaryDirectory()
        let abandoned = try leftover(dir, ageSeconds: 7200)
        let fresh = try leftover(dir, ageSeconds: 0)
        let heldURL = try leftover(dir, ageSeconds: 7200)
        // Another process still building: it holds its file.
        let held = open(heldURL.path, O_RDONLY)
        #expect(flock(held, LOCK_EX) == 0)
        defer { close(held) }

        _ = try SecretStore.create(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL))
        #expect(!exists(abandoned) && !exists(URL(filePath: abandoned.path + "-wal")))
        #expect(exists(fresh), "younger than a writer's window between creating and locking")
        #expect(exists(heldURL), "a live writer's temporary stays")
        // The new store's own temporary is gone too.
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.storeURL.deletingLastPathComponent().path)
        #expect(names.filter { $0.contains(".new-") }.count == 4, "\(names)")   // fresh and held, each with its -wal
    }
}

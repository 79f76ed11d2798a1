import Foundation
import Testing
@testable import SecStore

/// A store's write-ahead log (`<store>-wal`) outlives the process that wrote it: a writer killed
/// with -9 leaves its commits there, and a process that read closes without checkpointing on
/// purpose (docs/reliability.md). When the store file alone is then moved or deleted, the log
/// stays at the old path, and SQLite, which cannot tell whose log it is, replays it into any
/// new store made at that path: the new store was damaged ("another device key") and the old
/// store's last commits, which lived only in that log, were checkpointed into it and lost.
@Suite struct OrphanedLogTests {
    @Test func aStoreIsNeverCreatedOverAnotherStoresLog() throws {
        let dir = TemporaryDirectory()
        _ = try dir.openStore()
        // A writer killed after its third acknowledged commit: those commits are in the log only.
        let writer = try helper.start(["ack-writer", "--store", dir.storeURL.path, "--device-key", dir.deviceKeyURL.path,
                                       "--app-id", "ABCDE12345.com.example.app", "--group", TestEntitlements.g1])
        #expect(writer.waitForLine("ack 2"))
        writer.kill()
        let log = dir.storeURL.path + "-wal"
        let logSize = try #require(FileManager.default.attributesOfItem(atPath: log)[.size] as? Int)
        #expect(logSize > 0)

        // The store file alone is moved away; its log and shared memory stay behind.
        let moved = dir.url.appending(path: "moved.secstore")
        try FileManager.default.moveItem(at: dir.storeURL, to: moved)
        let options = SecretStore.Options(access: .owner, deviceKeyURL: dir.deviceKeyURL)
        let refusal = expectError(.storeUnavailable) { try SecretStore.create(at: dir.storeURL, options: options) }
        #expect(refusal?.message.contains(log) == true, "\(refusal?.message ?? "")")
        expectError(.storeUnavailable) { try dir.openStore() }   // the implicit creation of an open
        #expect(!FileManager.default.fileExists(atPath: dir.storeURL.path))
        #expect(try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int == logSize, "the log is left as it was")

        // Back beside its log, the store has every acknowledged item and verifies.
        try FileManager.default.moveItem(at: moved, to: dir.storeURL)
        let store = try dir.openStore(access: .owner)
        let accounts = Set(try store.find(Query(service: "crash", limit: .all)).compactMap(\.attributes.account))
        #expect(accounts.isSuperset(of: ["a0", "a1", "a2"]), "\(accounts)")
        #expect(try store.verify().isIntact)
    }

    @Test func aLostRaceWithAnotherCreatorOpensItsStore() throws {
        // A log beside a store that is there is that store's own: creating is "already exists",
        // and an open with createIfMissing opens it.
        let dir = TemporaryDirectory()
        let first = try dir.openStore()
        try first.add(.genericPassword(service: "s", account: "a"))
        #expect(FileManager.default.fileExists(atPath: dir.storeURL.path + "-wal"))
        expectError(.duplicateItem) {
            try SecretStore.create(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL))
        }
        #expect(try dir.openStore().find(Query(service: "s", account: "a")).count == 1)
    }
}

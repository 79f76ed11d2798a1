import Foundation
import SecStore
import SecStoreTestSupport
import Testing

/// Opening a new store while another process holds the file's write lock — what several
/// processes creating one store at the same moment do to each other while one switches it
/// to WAL — waits within the busy timeout instead of failing with `storeBusy` at once
/// (SQLite answers the WAL switch with SQLITE_BUSY without calling the busy handler, since
/// waiting while holding a shared lock could deadlock).
@Suite struct FirstOpenContentionTests {
    @Test("Opening a new store waits out another process's write lock on the file")
    func openWaitsForTheJournalModeLock() throws {
        let dir = TemporaryDirectory()
        // The device key exists already (another store made it), as on a second app's launch.
        _ = try SecretStore(at: dir.url.appending(path: "data/other.secstore"),
                            options: .init(access: .entitled(TestEntitlements.app), deviceKeyURL: dir.deviceKeyURL))
        let holder = try helper.start(["hold-lock", "--store", dir.storeURL.path, "--seconds", "0.5"])
        defer { holder.kill() }
        #expect(holder.waitForLine("holding"))

        let started = Date()
        let store = try SecretStore(at: dir.storeURL, options: .init(access: .entitled(TestEntitlements.app), deviceKeyURL: dir.deviceKeyURL))
        #expect(Date().timeIntervalSince(started) >= 0.2, "the open waited for the lock")
        try store.add(.genericPassword(service: "s", account: "a", data: Data("pw".utf8)))
        #expect(try store.items(matching: Query(service: "s", account: "a", returning: .data)).first?.data == Data("pw".utf8))
        #expect(try holder.finish().status == 0)
    }
}

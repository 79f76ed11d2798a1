import Foundation
import GRDB
import Testing
import SecStoreTestSupport
@testable import SecStore

/// The sync journal (format 4): every local change to an item that syncs is queued in the
/// change's own transaction, and nothing else is; the journal's reads stay indexed.
@Suite struct SyncJournalTests {
    func item(_ account: String, sync: Bool, accessibility: Accessibility = .afterFirstUnlock) -> Item {
        var attributes: Attributes = [.service: "svc", .account: .string(account), .accessGroup: "group"]
        attributes.isSynchronizable = sync
        attributes.accessibility = accessibility
        return Item(itemClass: .genericPassword, attributes: attributes, data: Data("s".utf8))
    }

    @Test func onlyChangesToItemsThatSyncAreQueuedOnceTheStoreSyncs() throws {
        let directory = TemporaryDirectory()
        let store = try directory.openStore(access: .owner)
        try store.add(item("before-enabling", sync: true))
        #expect(try store.syncRead { try $0.pendingCount() } == 0)
        try store.syncWrite { try $0.enable() }
        #expect(try store.syncRead { try $0.outbox(limit: 10).count } == 1)
        try store.add(item("synced", sync: true))
        try store.add(item("local", sync: false))
        try store.add(item("pinned", sync: true, accessibility: .afterFirstUnlockThisDeviceOnly))
        #expect(try store.syncRead { try $0.outbox(limit: 10).count } == 2)
        // A rolled-back write queues nothing.
        #expect(throws: SecStoreError.self) {
            try store.write { transaction in
                try transaction.add(item("rolled-back", sync: true))
                throw SecStoreError.notFound
            }
        }
        #expect(try store.syncRead { try $0.outbox(limit: 10).count } == 2)
    }

    /// An item with access-control constraints never syncs, however it became synchronizable:
    /// an update that sets only `synchronizable` passes the given dictionary's check
    /// (`AccessControlRules.checkSynchronizable`) with no flags in it, and was queued.
    @Test func anItemWithAccessControlIsNeverQueued() throws {
        let directory = TemporaryDirectory()
        let store = try directory.openStore(access: .owner)
        try store.setPassphrase("store passphrase", limits: .minimumForTesting)
        try store.syncWrite { try $0.enable() }
        var constrained = item("constrained", sync: false)
        constrained.attributes.accessControlFlags = .userPresence
        try store.add(constrained)
        try store.unlock(passphrase: "store passphrase")   // the presence proof the update needs
        var changes = ItemChanges()
        changes.attributes.isSynchronizable = true
        let query = Query(itemClass: .genericPassword, attributes: [.account: "constrained"], synchronizable: .no)
        #expect(try store.update(matching: query, with: changes) == 1)
        #expect(try store.syncRead { try $0.outbox(limit: 10).count } == 0)
    }

    @Test func theJournalsReadsAreIndexed() throws {
        let directory = TemporaryDirectory()
        _ = try directory.openStore(access: .owner)
        let raw = RawStoreFile(url: directory.storeURL)
        func plan(_ sql: String) throws -> String {
            // The statement's parameters bound to 1: the plan does not depend on their values.
            let arguments = StatementArguments(Array(repeating: 1, count: sql.filter { $0 == "?" }.count))
            return try raw.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }.joined(separator: "; ")
            }
        }
        #expect(try plan(SyncJournal.outboxSQL).contains("sync_outbox_by_sequence"))
        #expect(try plan(SyncJournal.pendingDeletionsSQL).contains("sync_records_pending"))
        #expect(try plan(SyncJournal.tombstonesSQL).contains("sync_records_tombstones"))
    }
}

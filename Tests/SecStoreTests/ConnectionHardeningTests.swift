import Foundation
import GRDB
import Testing
@testable import SecStore

/// Every connection to a store is opened for a file someone else may have written
/// (``SQLiteRows/hardenForUntrustedFile(_:)``): SQLite's hardening for untrusted files is in
/// force, and a trigger or view planted while a program has the store open never runs. The
/// check at open (`SchemaDamageTests`) cannot see what is planted after it.
@Suite struct ConnectionHardeningTests {
    func ownerStore(_ dir: TemporaryDirectory) throws -> SecretStore {
        try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL))
    }

    /// Before: the triggers put the deleted row back, and the old blobs of the updated one,
    /// with the items digest as it was: `delete` and `update` returned, the old secrets stayed,
    /// and `verify` found the store intact.
    @Test func triggersPlantedWhileTheStoreIsOpenNeverRun() throws {
        let dir = TemporaryDirectory()
        let store = try ownerStore(dir)
        try store.add(.genericPassword(service: "s", account: "deleted", data: Data("d".utf8), accessGroup: "G"))
        try store.add(.genericPassword(service: "s", account: "updated", data: Data("old".utf8), accessGroup: "G"))
        try RawStoreFile(url: dir.storeURL).write { db in
            try db.execute(sql: PlantedSchema.undoDeletes + PlantedSchema.undoUpdates)
        }

        try store.delete(matching: Query(service: "s", account: "deleted"))
        try store.update(matching: Query(service: "s", account: "updated"), with: ItemChanges(data: Data("new".utf8)))

        expectError(.itemNotFound) { try store.items(matching: Query(service: "s", account: "deleted")) }
        #expect(try store.items(matching: Query(service: "s", account: "updated", returning: .data)).first?.data == Data("new".utf8))
        #expect(try RawStoreFile(url: dir.storeURL).items().count == 1)
        #expect(try store.verify().isIntact)
    }

    /// Before: with `items` made a view of a renamed table while the store was open, reads
    /// went through the view as if it were the table.
    @Test func aViewPlantedWhileTheStoreIsOpenIsNeverRead() throws {
        let dir = TemporaryDirectory()
        let store = try ownerStore(dir)
        try store.add(.genericPassword(service: "s", account: "a", data: Data("a".utf8), accessGroup: "G"))
        try RawStoreFile(url: dir.storeURL).write { db in
            try db.execute(sql: "ALTER TABLE items RENAME TO items_real; CREATE VIEW items AS SELECT * FROM items_real")
        }
        expectError(.corruptData) { try store.items(matching: Query(service: "s", account: "a", returning: .data)) }
    }

    /// Before: GRDB turned foreign keys on, and a foreign key's action runs like a trigger
    /// (turning triggers off does not stop it). `store` rebuilt, while the store was open, with
    /// its singleton referencing `items(id) ON DELETE CASCADE`: deleting item 1 returned
    /// success and deleted the store row, whose store id every key is bound to.
    @Test func aForeignKeyPlantedWhileTheStoreIsOpenNeverActs() throws {
        let dir = TemporaryDirectory()
        let store = try ownerStore(dir)
        try store.add(.genericPassword(service: "s", account: "first", data: Data("1".utf8), accessGroup: "G"))
        try store.add(.genericPassword(service: "s", account: "second", data: Data("2".utf8), accessGroup: "G"))
        let queue = try DatabaseQueue(path: dir.storeURL.path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.inTransaction {
                try db.execute(sql: """
                    CREATE TABLE store_new (
                        singleton INTEGER PRIMARY KEY CHECK (singleton = 1) REFERENCES items(id) ON DELETE CASCADE,
                        storeID BLOB NOT NULL, keyEpoch INTEGER NOT NULL DEFAULT 0, passphraseSalt BLOB,
                        passphraseOperations INTEGER, passphraseMemory INTEGER, itemsDigest BLOB);
                    INSERT INTO store_new SELECT * FROM store;
                    DROP TABLE store;
                    ALTER TABLE store_new RENAME TO store;
                    """)
                return .commit
            }
        }
        try queue.close()

        try store.delete(matching: Query(service: "s", account: "first"))
        #expect(try RawStoreFile(url: dir.storeURL).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM store") } == 1)
        #expect(try store.items(matching: Query(service: "s", account: "second", returning: .data)).first?.data == Data("2".utf8))
    }

    /// Before: a unique index or a `CHECK` planted while the store was open made the next add
    /// fail as `duplicateItem` ("already exists": the caller's to resolve) though no item had
    /// its primary key (a real duplicate is still `duplicateItem`: `DuplicateTests`).
    @Test(arguments: [
        "CREATE UNIQUE INDEX unique_group ON items(group_tag)",
        SchemaDamageTests.rebuildingItems("CREATE TABLE items_new (\(SchemaDamageTests.itemColumnDefinitions), CHECK (id < 2))"),
    ])
    func aConstraintPlantedWhileTheStoreIsOpenIsDamageNotADuplicate(_ planting: String) throws {
        let dir = TemporaryDirectory()
        let store = try ownerStore(dir)
        try store.add(.genericPassword(service: "s", account: "first", data: Data("1".utf8), accessGroup: "G"))
        try RawStoreFile(url: dir.storeURL).write { try $0.execute(sql: planting) }
        expectError(.corruptData) { try store.add(.genericPassword(service: "s", account: "second", data: Data("2".utf8), accessGroup: "G")) }
        #expect(try RawStoreFile(url: dir.storeURL).items().count == 1)
    }

    /// SQLite names a planted CHECK constraint by the name the file gives it, which may hold a
    /// terminal's escape sequences. Before: the message carried it raw.
    @Test func aPlantedConstraintsNameIsEscapedInTheMessage() throws {
        let dir = TemporaryDirectory()
        let store = try ownerStore(dir)
        try store.add(.genericPassword(service: "s", account: "first", data: Data("1".utf8), accessGroup: "G"))
        let planting = SchemaDamageTests.rebuildingItems(
            "CREATE TABLE items_new (\(SchemaDamageTests.itemColumnDefinitions), CONSTRAINT \"clear\u{1b}[2J\" CHECK (id < 2))")
        try RawStoreFile(url: dir.storeURL).write { try $0.execute(sql: planting) }
        let error = try #require(throws: SecStoreError.self) {
            try store.add(.genericPassword(service: "s", account: "second", data: Data("2".utf8), accessGroup: "G"))
        }
        #expect(error.code == .corruptData)
        #expect(!error.message.unicodeScalars.contains("\u{1b}") && error.message.contains("clear\\u{1b}[2J"), "\(error.message)")
    }

    /// SQLite's settings for untrusted database files (https://www.sqlite.org/security.html),
    /// on a writer's and a reader's connection. Before: trusted schema and no cell size check
    /// (SQLite's defaults), and `writable_schema` could be turned on.
    @Test(arguments: [false, true]) func everyConnectionIsHardened(readOnly: Bool) throws {
        let dir = TemporaryDirectory()
        _ = try ownerStore(dir)
        var configuration = Configuration.storeReader(busyTimeout: 1, label: "test")
        configuration.readonly = readOnly
        let connection = try DatabaseFile(path: dir.storeURL.path).connect(configuration)
        try connection.inDatabase { db in
            #expect(try Int.fetchOne(db, sql: "PRAGMA trusted_schema") == 0)
            #expect(try Int.fetchOne(db, sql: "PRAGMA cell_size_check") == 1)
            #expect(try Int.fetchOne(db, sql: "PRAGMA mmap_size") == 0)
            #expect(try Int.fetchOne(db, sql: "PRAGMA foreign_keys") == 0)
            // Defensive mode: `sqlite_master` stays read-only, `writable_schema` or not.
            try db.execute(sql: "PRAGMA writable_schema = ON")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "UPDATE sqlite_master SET sql = sql WHERE 0") }
        }
        try connection.close()
    }
}

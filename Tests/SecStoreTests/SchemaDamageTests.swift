import Foundation
import GRDB
import Testing
@testable import SecStore

/// A store whose format version or tables were damaged, or whose schema holds objects its
/// version does not define, opens with `corruptData`, never a trap, never a raw SQLite failure
/// (`ioFailure`, the tool's status 1), and never runs what was planted.
@Suite struct SchemaDamageTests {
    func makeStore(_ dir: TemporaryDirectory) throws {
        let store = try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL))
        try store.add(.genericPassword(service: "s", account: "a", data: Data("a".utf8), accessGroup: "G"))
    }

    func open(_ dir: TemporaryDirectory) throws -> SecretStore {
        try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL))
    }

    func isCorrupt(_ error: any Error) -> Bool { (error as? SecStoreError)?.code == .corruptData }

    /// Before: one flipped byte of the header (offset 60, `user_version`) made the version
    /// negative, and opening indexed the migration steps with it ("Index out of range").
    @Test func aNegativeFormatVersionIsDamage() throws {
        let dir = TemporaryDirectory()
        try makeStore(dir)
        try RawStoreFile(url: dir.storeURL).write { try $0.execute(sql: "PRAGMA user_version = -1") }
        #expect { try open(dir) } throws: { isCorrupt($0) }
    }

    /// Before: a store whose format version was set to 0 was called "empty or has no SecStore
    /// tables", which it is not; the message now says the version was lost.
    @Test func aFormatVersionOfZeroOverTablesSaysSo() throws {
        let dir = TemporaryDirectory()
        try makeStore(dir)
        try RawStoreFile(url: dir.storeURL).write { try $0.execute(sql: "PRAGMA user_version = 0") }
        let error = try #require(throws: SecStoreError.self) { try open(dir) }
        #expect(error.code == .corruptData && error.message.contains("holds tables but its format version reads 0"), "\(error)")
    }

    /// Before: a version-4 file whose header says version 2 failed with "table item_attributes
    /// already exists" as an I/O failure.
    @Test func aFormatVersionBelowItsTablesIsDamage() throws {
        let dir = TemporaryDirectory()
        try makeStore(dir)
        try RawStoreFile(url: dir.storeURL).write { try $0.execute(sql: "PRAGMA user_version = 2") }
        #expect { try open(dir) } throws: { isCorrupt($0) }
    }

    /// Before: a column renamed inside `sqlite_master` (what a flipped byte there does) failed
    /// every statement that names it with "no such column" as an I/O failure.
    @Test func aDamagedTableDefinitionIsDamage() throws {
        let dir = TemporaryDirectory()
        try makeStore(dir)
        try RawStoreFile(url: dir.storeURL).write { db in
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try db.execute(sql: "UPDATE sqlite_master SET sql = replace(sql, 'secret BLOB NOT NULL', 'secrex BLOB NOT NULL') WHERE name = 'items'")
            try db.execute(sql: "PRAGMA writable_schema = OFF")
        }
        #expect {
            let store = try open(dir)
            _ = try store.items(matching: Query(service: "s", account: "a", returning: .data))
        } throws: { isCorrupt($0) }
    }

    /// A change made to a store's schema inside the file, and a fragment of the message that
    /// must name it.
    struct Planting: Sendable, CustomTestStringConvertible {
        let label: String
        let named: String
        let sql: String
        var testDescription: String { label }
    }

    static let itemColumns = PlantedSchema.itemColumns
    static let itemColumnDefinitions = "id INTEGER PRIMARY KEY, ref BLOB NOT NULL, class INTEGER NOT NULL, accessibility INTEGER NOT NULL, pk_tag BLOB NOT NULL UNIQUE, name_tag BLOB, account_tag BLOB NOT NULL, group_tag BLOB NOT NULL, metadata BLOB NOT NULL, secret BLOB NOT NULL, format INTEGER NOT NULL DEFAULT 1"

    /// `items` made again from `definition` (a `CREATE TABLE items_new …`), rows and indexes kept.
    static func rebuildingItems(_ definition: String) -> String {
        """
        \(definition);
        INSERT INTO items_new (\(itemColumns)) SELECT \(itemColumns) FROM items;
        DROP TABLE items;
        ALTER TABLE items_new RENAME TO items;
        CREATE INDEX items_by_name ON items(name_tag, account_tag);
        CREATE INDEX items_by_account ON items(account_tag);
        CREATE INDEX items_by_group ON items(group_tag);
        CREATE INDEX items_of_version1 ON items(accessibility) WHERE format = 1;
        """
    }

    /// Each found by hand with the `secstore` tool and the sqlite3 tool (docs/reliability.md);
    /// the triggers are ``PlantedSchema``'s.
    static let plantings: [Planting] = [
        Planting(label: "a trigger that undoes deletes, and one that keeps the digest", named: "trigger “keep” on items",
                 sql: PlantedSchema.undoDeletes),
        Planting(label: "a trigger that undoes updates", named: "trigger “revert” on items", sql: PlantedSchema.undoUpdates),
        // `add` never returned, and held the store's write lock all the while.
        Planting(label: "a trigger that never ends", named: "trigger “spin” on items", sql: """
            CREATE TRIGGER spin AFTER INSERT ON items BEGIN
                SELECT count(*) FROM (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c);
            END;
            """),
        // Every sealed row ever added kept in a table of its own; `verify` said intact.
        Planting(label: "a table and a trigger filling it", named: "table “loot”", sql: """
            CREATE TABLE loot (metadata BLOB, secret BLOB);
            CREATE TRIGGER steal AFTER INSERT ON items BEGIN INSERT INTO loot VALUES (new.metadata, new.secret); END;
            """),
        // Reads went through the view; deletes did nothing ("a SecStore defect", status 8).
        Planting(label: "a view in place of items", named: "view “items”", sql: """
            ALTER TABLE items RENAME TO items_real;
            CREATE VIEW items AS SELECT * FROM items_real;
            """),
        // The second add of the group was refused as a duplicate item (status 4).
        Planting(label: "a unique partial index", named: "index “unique_group”", sql: "CREATE UNIQUE INDEX unique_group ON items(group_tag) WHERE id > 1"),
        // Every write computes the expression (here a blob of 100 KB per row).
        Planting(label: "an expression index", named: "index “expression”", sql: "CREATE INDEX expression ON items(length(zeroblob(class * 100000)))"),
        // With the counts edited, every lookup became a scan of the whole table.
        Planting(label: "planner statistics", named: "table “sqlite_stat1”", sql: """
            ANALYZE;
            UPDATE sqlite_stat1 SET stat = '1000000 1000000' WHERE idx = 'sqlite_autoindex_items_1';
            """),
        Planting(label: "a dropped index", named: "missing: index “items_by_name”", sql: "DROP INDEX items_by_name"),
        // Unnoticed.
        Planting(label: "items WITHOUT ROWID", named: "table “items”", sql: rebuildingItems("CREATE TABLE items_new (\(itemColumnDefinitions)) WITHOUT ROWID")),
        // The second add was refused as a duplicate item (status 4).
        Planting(label: "a CHECK constraint", named: "table “items”", sql: rebuildingItems("CREATE TABLE items_new (\(itemColumnDefinitions), CHECK (id < 2))")),
        // A stored generated column: every write stored 10,000 times the secret's size.
        Planting(label: "a stored generated column", named: "table “items”", sql: rebuildingItems("CREATE TABLE items_new (\(itemColumnDefinitions), padding BLOB GENERATED ALWAYS AS (zeroblob(length(secret) * 10000)) STORED)")),
        // An index by a collation SecStore does not define: reads worked, writes failed.
        Planting(label: "an index by an unknown collation", named: "changed: index “items_by_account”", sql: """
            PRAGMA writable_schema = ON;
            UPDATE sqlite_master SET sql = replace(sql, 'items(account_tag)', 'items(account_tag COLLATE nosuch)') WHERE name = 'items_by_account';
            PRAGMA writable_schema = OFF;
            """),
    ]

    /// Before: each of these opened, and did what its comment says. Now the open refuses the
    /// file with `corruptData` naming what differs, and changes nothing in it.
    @Test(arguments: plantings)
    func schemaObjectsTheVersionDoesNotDefineAreRefusedAtOpen(_ planting: Planting) throws {
        let dir = TemporaryDirectory()
        try makeStore(dir)
        try RawStoreFile(url: dir.storeURL).write { try $0.execute(sql: planting.sql) }
        let rowsBefore = try RawStoreFile(url: dir.storeURL).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM items") }
        let error = expectError(.corruptData) {
            let store = try open(dir)
            try store.delete(matching: Query(service: "s", account: "a"))
        }
        #expect(error?.message.contains(planting.named) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("format version 4") == true, "\(error?.message ?? "")")
        #expect(try RawStoreFile(url: dir.storeURL).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM items") } == rowsBefore)
    }

    /// A name from the file reaches the message escaped: a terminal shows it, never obeys it.
    @Test func aPlantedNameCannotDriveTheTerminal() throws {
        let dir = TemporaryDirectory()
        try makeStore(dir)
        try RawStoreFile(url: dir.storeURL).write { try $0.execute(sql: "CREATE TABLE \"a\u{1B}[2Jb\" (x)") }
        let error = expectError(.corruptData) { try open(dir) }
        #expect(error?.message.contains("a\\u{1b}[2Jb") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("\u{1B}") == false)
    }

    /// A file of an older version (each older fixture) is checked against its version's
    /// objects before it is migrated: a planted trigger is refused, and the file stays at its version.
    @Test(arguments: FixtureTests.fixtures.filter { $0.version < Schema.currentVersion })
    func anOlderVersionIsCheckedBeforeItIsMigrated(_ fixture: StoreFixture) throws {
        let copy = try FixtureTests.copyFixture(fixture)
        try RawStoreFile(url: copy.storeURL).write { db in
            try db.execute(sql: "CREATE TRIGGER keep AFTER DELETE ON items BEGIN SELECT 1; END")
        }
        let error = expectError(.corruptData) { try copy.openStore(access: .owner, createIfMissing: false) }
        #expect(error?.message.contains("format version \(fixture.version)") == true, "\(error?.message ?? "")")
        #expect(try FixtureTests.version(of: copy) == fixture.version)
    }

    /// `VACUUM` (the sqlite3 tool's, an owner compacting the file) writes `sqlite_master` again
    /// in another order: tables first, then indexes. The objects are the same, so it opens.
    @Test func aStoreItsOwnerVacuumedStillOpens() throws {
        let dir = TemporaryDirectory()
        try makeStore(dir)
        let queue = try DatabaseQueue(path: dir.storeURL.path)
        try queue.writeWithoutTransaction { try $0.execute(sql: "VACUUM") }
        try queue.close()
        #expect(try open(dir).items(matching: Query(service: "s", account: "a", returning: .data)).first?.data == Data("a".utf8))
    }

    /// The written-out objects of the current version are what its migrations make, in the
    /// order the check reads them, and what a new store holds.
    @Test func theCurrentObjectsAreWhatTheMigrationsMake() throws {
        let made = try DatabaseQueue().write { db in
            for step in 0..<Schema.currentVersion { try Schema.migrations[step](db) }
            return try Schema.objects(in: db)
        }
        #expect(made == Schema.currentObjects)
        let dir = TemporaryDirectory()
        try makeStore(dir)
        #expect(try RawStoreFile(url: dir.storeURL).read { try Schema.objects(in: $0) } == Schema.currentObjects)
    }
}

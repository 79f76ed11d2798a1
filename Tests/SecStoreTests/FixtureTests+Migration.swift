import Foundation
import GRDB
import Testing
@testable import SecStore

/// What opening a fixture of an earlier format does to the file: it is checked against its
/// version's schema objects, migrated in place to the current version in one transaction
/// (nothing at all when that transaction fails), and left as it is by every later open.
extension FixtureTests {
    /// Opening migrates the file to the current version in place, in one transaction:
    /// - from version 1: key rows bound to the passphrase state and the digest over the rows
    ///   recorded (version 2), and every row (all readable: that fixture has no passphrase)
    ///   sealed again in the current format, with the same contents;
    /// - from every version: the free-form attribute index (version 3) and the sync journal
    ///   (version 4) created where missing, and nothing else changed: rows written in format 2
    ///   are kept byte for byte, and the free-form attribute index as it was.
    ///
    /// The file then holds exactly the current version's schema objects, `verify` finds every
    /// item intact and matching the digest, and a new item with free-form attributes is found.
    @Test(arguments: fixtures) func migratesToTheCurrentVersion(_ fixture: StoreFixture) throws {
        let copy = try Self.copyFixture(fixture)
        let raw = RawStoreFile(url: copy.storeURL)
        let before = try raw.snapshot()
        let owner = try Self.open(copy, fixture)
        let after = try raw.snapshot()
        #expect(after.version == Schema.currentVersion)
        #expect(try raw.read { try Schema.objects(in: $0) } == Schema.currentObjects)
        #expect(try raw.read { try Int.fetchOne($0, sql: "SELECT (SELECT count(*) FROM sync_state) + (SELECT count(*) FROM sync_outbox) + (SELECT count(*) FROM sync_records)") } == 0)
        #expect(try raw.read { try Int.fetchAll($0, sql: "SELECT format FROM items") } == Array(repeating: 2, count: fixture.entries.count))
        let pairs = fixture.entries.reduce(0) { $0 + $1.expectedAttributes.custom.count }
        #expect(after.tables["item_attributes"]?.count == pairs)
        let itemsBefore = try #require(before.tables["items"])
        let itemsAfter = try #require(after.tables["items"])
        #expect(itemsAfter.map { $0["ref"] as Data } == itemsBefore.map { $0["ref"] as Data })
        if fixture.version == 1 {
            #expect(try raw.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM keys WHERE name LIKE 'class.%' AND length(binding) = 32") } == 6)
            #expect(zip(itemsAfter, itemsBefore).allSatisfy { $0["secret"] as Data != $1["secret"] as Data && $0["metadata"] as Data != $1["metadata"] as Data })
        } else {
            // Only tables were added: every table the file had holds exactly what it held.
            for (name, rows) in before.tables {
                #expect(after.tables[name] == rows, "\(fixture): table \(name) changed")
            }
        }

        let report = try owner.verify()
        #expect(report.isIntact, "\(fixture): \(report)")
        #expect(report.itemsMatchDigest, "\(fixture): \(report)")
        #expect(report.verifiedItems == fixture.entries.count && report.lockedItems.isEmpty, "\(fixture): \(report)")

        var item = Item.genericPassword(service: "fixture.custom-after", account: "c", data: Data("c".utf8),
                                        accessGroup: StoreFixture.shared)
        item.attributes.custom = ["xdg:schema": "org.example.Test"]
        try owner.add(item)
        var query = Query(itemClass: .genericPassword, returning: .data)
        query.attributes.custom = ["xdg:schema": "org.example.Test"]
        #expect(try owner.items(matching: query).map(\.data) == [Data("c".utf8)])
        #expect(try owner.verify().isIntact)
    }

    /// The migration is one transaction: when it cannot finish (here: the wrong device key,
    /// found after the tables were altered), the file is left exactly as it was: its version,
    /// schema and every row. The right key then migrates it. (A current-version file has
    /// nothing to migrate, and the wrong key changes nothing either.) Version 2 and 3 files
    /// were left migrated to version 4 by the refused open before the key was checked inside
    /// the migration (StoreOpener).
    @Test(arguments: fixtures) func aMigrationThatFailsLeavesTheFileAsItWas(_ fixture: StoreFixture) throws {
        let copy = try Self.copyFixture(fixture)
        let raw = RawStoreFile(url: copy.storeURL)
        let before = try raw.snapshot()
        let otherKey = TemporaryDirectory()
        _ = try otherKey.openStore()   // makes a different device key
        expectError(.wrongDeviceKey) {
            _ = try SecretStore(at: copy.storeURL, options: .init(access: .owner, deviceKeyURL: otherKey.deviceKeyURL, createIfMissing: false))
        }
        #expect(try raw.snapshot() == before)
        #expect(try Self.version(of: copy) == fixture.version)
        // And the right key still migrates it.
        _ = try Self.open(copy, fixture)
        #expect(try Self.version(of: copy) == Schema.currentVersion)
    }

    /// Opening the store again, once migrated, changes nothing in the file, and finds it as
    /// intact as the first open left it.
    @Test(arguments: fixtures) func openingAgainChangesNothing(_ fixture: StoreFixture) throws {
        let copy = try Self.copyFixture(fixture)
        let raw = RawStoreFile(url: copy.storeURL)
        do {
            let store = try Self.open(copy, fixture)
            #expect(try Self.allItems(store).count == fixture.entries.count)
        }
        let migrated = try raw.snapshot()
        #expect(migrated.version == Schema.currentVersion)
        do {
            let store = try Self.open(copy, fixture)
            #expect(try Self.allItems(store).count == fixture.entries.count)
            #expect(try store.verify().isIntact)
        }
        #expect(try raw.snapshot() == migrated)
    }
}

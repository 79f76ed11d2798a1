import Foundation
import GRDB
import Testing
import SecStore

/// Store files written by earlier format versions keep opening (DESIGN.md: "the format is
/// versioned from day one, with a migration path; `Fixtures/` keeps store files written by
/// earlier format versions and the tests open them").
@Suite(.serialized) struct FixtureTests {
    /// The repository's `Fixtures/format-v1`, found from this source file's path.
    static let fixtureDirectory = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Fixtures/\(FormatV1Fixture.directoryName)", directoryHint: .isDirectory)

    static let writing = ProcessInfo.processInfo.environment["SECSTORE_WRITE_FIXTURES"] == "1"

    /// Regenerates the fixture. Runs only with `SECSTORE_WRITE_FIXTURES=1`.
    @Test(.enabled(if: writing)) func writeFormatV1Fixture() throws {
        let scratch = TemporaryDirectory()
        do {
            let store = try scratch.openStore(access: .entitled(FormatV1Fixture.entitlements))
            try FormatV1Fixture.populate(store)
        }
        // The handle is gone; fold the WAL into the file so the fixture is one file.
        try RawStoreFile(url: scratch.storeURL).checkpoint()
        let wal = URL(filePath: scratch.storeURL.path + "-wal")
        #expect(((try? Data(contentsOf: wal)) ?? Data()).isEmpty)

        let target = Self.fixtureDirectory
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try Self.replace(target.appending(path: FormatV1Fixture.storeFileName), with: try Data(contentsOf: scratch.storeURL))
        try Self.replace(target.appending(path: FormatV1Fixture.deviceKeyFileName), with: try Data(contentsOf: scratch.deviceKeyURL))
        try Self.replace(target.appending(path: "README.md"), with: Data(FormatV1Fixture.readme().utf8))
    }

    /// Copies the fixture into a temporary directory (so the repository's copy is never
    /// touched) and gives its key the mode SecStore demands.
    static func copyFixture() throws -> TemporaryDirectory {
        let copy = TemporaryDirectory()
        try FileManager.default.createDirectory(at: copy.storeURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: copy.deviceKeyURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fixtureDirectory.appending(path: FormatV1Fixture.storeFileName), to: copy.storeURL)
        try FileManager.default.copyItem(at: fixtureDirectory.appending(path: FormatV1Fixture.deviceKeyFileName), to: copy.deviceKeyURL)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: copy.deviceKeyURL.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: copy.storeURL.path)
        return copy
    }

    /// Every item of the fixture reads back exactly, and nothing else is there.
    @Test func formatV1FixtureReadsBackExactly() throws {
        let copy = try Self.copyFixture()
        let raw = RawStoreFile(url: copy.storeURL)
        #expect(try raw.read { try Int.fetchOne($0, sql: "PRAGMA user_version") } == 1)
        #expect(try raw.read { try Int32.fetchOne($0, sql: "PRAGMA application_id") } == 0x5353_7431)
        #expect(try raw.items().count == FormatV1Fixture.entries.count)

        let owner = try copy.openStore(access: .owner, createIfMissing: false)
        var found: [Item] = []
        for itemClass in ItemClass.allCases {
            let query = Query(itemClass: itemClass, synchronizable: .any, limit: .all, returning: [.attributes, .data, .persistentReference])
            found += try owner.items(matching: query)
        }
        #expect(found.count == FormatV1Fixture.entries.count)

        var creationDates: [Date] = []
        for entry in FormatV1Fixture.entries {
            let matches = found.filter { $0.itemClass == entry.item.itemClass && $0.attributes[.account] == entry.expectedAttributes[.account] }
            try #require(matches.count == 1, "\(entry.name)")
            let item = matches[0]
            #expect(ReturnShapeTests.withoutDates(item.attributes) == entry.expectedAttributes, "\(entry.name)")
            #expect(item.data == entry.expectedData, "\(entry.name)")
            let created = try #require(item.attributes.creationDate, "\(entry.name)")
            let modified = try #require(item.attributes.modificationDate, "\(entry.name)")
            if entry.update == nil {
                #expect(modified == created, "\(entry.name)")
            } else {
                #expect(modified > created, "\(entry.name)")
            }
            creationDates.append(created)
            let reference = try #require(item.persistentReference)
            #expect(try owner.items(matching: Query(persistentReference: reference, returning: .data)).map(\.data) == [entry.expectedData])
        }
        // Written in one short run.
        #expect(creationDates.max()!.timeIntervalSince(creationDates.min()!) < 60)
        #expect(creationDates.max()! < Date())
    }

    /// The fixture opens for an entitled app too, and stays usable: new writes work and
    /// survive reopening. Opening migrates it to format version 2 in place.
    @Test func formatV1FixtureStaysUsable() throws {
        let copy = try Self.copyFixture()
        let access = StoreAccess.entitled(FormatV1Fixture.entitlements)
        do {
            let store = try copy.openStore(access: access, createIfMissing: false)
            #expect(try store.string(forAccount: "alice", service: "fixture.api") == "alice-secret-v1")
            expectError(.duplicateItem) { try store.add(FormatV1Fixture.entries[0].item) }
            expectError(.itemNotFound) { try store.items(matching: Query(service: "fixture.deleted")) }
            try store.add(.genericPassword(service: "fixture.new", account: "new", data: Data("new-secret".utf8)))
            try store.update(matching: Query(service: "fixture.api", account: "alice"), with: ItemChanges(data: Data("rotated".utf8)))
            #expect(try store.count(Query(itemClass: .genericPassword, synchronizable: .any)) == 7)
        }
        let reopened = try copy.openStore(access: access, createIfMissing: false)
        #expect(try reopened.string(forAccount: "new", service: "fixture.new") == "new-secret")
        #expect(try reopened.string(forAccount: "alice", service: "fixture.api") == "rotated")
        #expect(try RawStoreFile(url: copy.storeURL).read { try Int.fetchOne($0, sql: "PRAGMA user_version") } == 3)
    }

    /// Opening a version-1 file migrates it to the current version (3) in place, in one
    /// transaction: key rows bound to the passphrase state and the digest over the rows
    /// recorded (version 2), the free-form attribute index created (version 3), and every row
    /// (all readable: the fixture has no passphrase) sealed again in the current format, with
    /// the same contents.
    @Test func formatV1FixtureMigratesToTheCurrentVersion() throws {
        let copy = try Self.copyFixture()
        let raw = RawStoreFile(url: copy.storeURL)
        let before = try raw.items()
        let owner = try copy.openStore(access: .owner, createIfMissing: false)
        #expect(try raw.read { try Int.fetchOne($0, sql: "PRAGMA user_version") } == 3)
        #expect(try raw.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item_attributes") } == 0)
        #expect(try raw.read { try Int.fetchAll($0, sql: "SELECT format FROM items") } == Array(repeating: 2, count: before.count))
        #expect(try raw.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM keys WHERE name LIKE 'class.%' AND length(binding) = 32") } == 6)
        let after = try raw.items()
        #expect(after.map(\.ref) == before.map(\.ref))
        #expect(zip(after, before).allSatisfy { $0.secret != $1.secret && $0.metadata != $1.metadata })
        let report = try owner.verify()
        #expect(report.isIntact, "\(report)")
        #expect(report.verifiedItems == FormatV1Fixture.entries.count)
        // Every item reads back exactly as before the migration.
        for entry in FormatV1Fixture.entries {
            let query = Query(itemClass: entry.item.itemClass, attributes: [.account: entry.expectedAttributes[.account]!],
                              synchronizable: .any, returning: [.attributes, .data])
            let items = try owner.items(matching: query)
            #expect(items.count == 1, "\(entry.name)")
            #expect(items.first.map { ReturnShapeTests.withoutDates($0.attributes) } == entry.expectedAttributes, "\(entry.name)")
            #expect(items.first?.data == entry.expectedData, "\(entry.name)")
        }
        // Version 3's free-form attributes work on the migrated store.
        var item = Item.genericPassword(service: "fixture.custom", account: "c", data: Data("c".utf8), accessGroup: "fixture.group")
        item.attributes.custom = ["xdg:schema": "org.example.Test"]
        try owner.add(item)
        var query = Query(itemClass: .genericPassword, returning: .data)
        query.attributes.custom = ["xdg:schema": "org.example.Test"]
        #expect(try owner.items(matching: query).map(\.data) == [Data("c".utf8)])
    }

    /// The migration is one transaction: when it cannot finish (here: the wrong device key,
    /// found after the tables were altered), the file is left exactly at version 1.
    @Test func aMigrationThatFailsLeavesTheFileAtVersion1() throws {
        let copy = try Self.copyFixture()
        let raw = RawStoreFile(url: copy.storeURL)
        let itemsBefore = try raw.items()
        let otherKey = TemporaryDirectory()
        _ = try otherKey.openStore()   // makes a different device key
        expectError(.wrongDeviceKey) {
            _ = try SecretStore(at: copy.storeURL, options: .init(access: .owner, deviceKeyURL: otherKey.deviceKeyURL, createIfMissing: false))
        }
        #expect(try raw.read { try Int.fetchOne($0, sql: "PRAGMA user_version") } == 1)
        #expect(try raw.read { try Row.fetchAll($0, sql: "PRAGMA table_info(items)") }.count == 10)
        #expect(try raw.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'item_attributes'") } == 0)
        #expect(try raw.items() == itemsBefore)
        // And the right key still migrates it.
        _ = try copy.openStore(access: .owner, createIfMissing: false)
        #expect(try raw.read { try Int.fetchOne($0, sql: "PRAGMA user_version") } == 3)
    }

    /// The committed fixture is one self-contained file with no plaintext secrets or names.
    @Test func formatV1FixtureIsSelfContainedAndSealed() throws {
        let directory = Self.fixtureDirectory
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        #expect(names == [FormatV1Fixture.storeFileName, FormatV1Fixture.deviceKeyFileName, "README.md"])
        let bytes = try Data(contentsOf: directory.appending(path: FormatV1Fixture.storeFileName))
        #expect(bytes.prefix(16) == Data("SQLite format 3\0".utf8))
        for entry in FormatV1Fixture.entries {
            if entry.expectedData.count >= 8 {
                #expect(!bytes.containsBytes(entry.expectedData), "\(entry.name)'s secret is in plaintext")
            }
            for (key, value) in entry.expectedAttributes {
                guard let text = value.stringValue, text.utf8.count >= 8 else { continue }
                #expect(!bytes.containsBytes(Data(text.utf8)), "\(entry.name)'s \(key) is in plaintext")
            }
        }
        #expect(!bytes.containsBytes(Data("deleted-secret".utf8)))
    }

    static func replace(_ url: URL, with data: Data) throws {
        try data.write(to: url, options: .atomic)
    }
}

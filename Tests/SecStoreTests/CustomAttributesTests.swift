import Foundation
import GRDB
import Testing
@testable import SecStore
import SecStoreTestSupport

/// Free-form attributes (format version 3, issue 17): arbitrary name/value pairs sealed with
/// an item's metadata and found by exact pair through blind-index tags, never stored in
/// the clear; what the Secret Service provider's `a{ss}` attributes become.
@Suite struct CustomAttributesTests {
    func ownerStore(_ dir: TemporaryDirectory) throws -> SecretStore {
        try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL, firstUnlockCache: .processMemory))
    }

    func item(_ account: String, _ custom: [String: String], service: String = "mail") -> Item {
        var item = Item.genericPassword(service: service, account: account, data: Data("secret-\(account)".utf8))
        item.attributes.accessGroup = "com.example.mail"
        item.attributes.custom = custom
        return item
    }

    func search(_ store: SecretStore, _ custom: [String: String], synchronizable: SynchronizableMatch = .no) throws -> [String] {
        var query = Query(itemClass: .genericPassword, synchronizable: synchronizable, limit: .all, returning: .attributes)
        query.attributes.custom = custom
        do {
            return try store.items(matching: query).compactMap(\.attributes.account).sorted()
        } catch let error as SecStoreError where error.code == .itemNotFound {
            return []
        }
    }

    @Test func pairsRoundTripAndEveryGivenPairMustMatch() throws {
        let dir = TemporaryDirectory()
        let store = try ownerStore(dir)
        try store.add(item("alice", ["xdg:schema": "org.example.Mail", "user": "alice", "server": "imap.example.com"]))
        try store.add(item("bob", ["xdg:schema": "org.example.Mail", "user": "bob", "server": "imap.example.com"]))
        try store.add(item("carol", [:]))

        let found = try store.items(matching: Query(service: "mail", account: "alice", returning: [.attributes, .data]))
        #expect(found.first?.attributes.custom == ["xdg:schema": "org.example.Mail", "user": "alice", "server": "imap.example.com"])
        #expect(found.first?.data == Data("secret-alice".utf8))

        #expect(try search(store, ["xdg:schema": "org.example.Mail"]) == ["alice", "bob"])
        #expect(try search(store, ["xdg:schema": "org.example.Mail", "user": "bob"]) == ["bob"])
        #expect(try search(store, ["user": "bob", "server": "pop.example.com"]) == [])
        #expect(try search(store, ["user": "dave"]) == [])
        // With a standard filter too.
        var query = Query(service: "mail", limit: .all, returning: .attributes)
        query.attributes.custom = ["user": "alice"]
        #expect(try store.items(matching: query).map(\.attributes.account) == ["alice"])
    }

    /// Exact bytes: no case folding (even with kSecMatchCaseInsensitive), no Unicode
    /// normalization (a composed and a decomposed "é" are different values).
    @Test func matchingIsByteExact() throws {
        let dir = TemporaryDirectory()
        let store = try ownerStore(dir)
        try store.add(item("composed", ["name": "caf\u{E9}"]))
        try store.add(item("decomposed", ["name": "cafe\u{301}"]))
        #expect(try search(store, ["name": "caf\u{E9}"]) == ["composed"])
        #expect(try search(store, ["name": "cafe\u{301}"]) == ["decomposed"])
        #expect(try search(store, ["name": "CAF\u{C9}"]) == [])
        var query = Query(itemClass: .genericPassword, limit: .all, caseInsensitive: true, returning: .attributes)
        query.attributes.custom = ["Name": "caf\u{E9}"]
        expectError(.itemNotFound) { try store.items(matching: query) }
    }

    /// Neither names nor values reach the file: only keyed tags and sealed metadata do.
    @Test func namesAndValuesNeverReachTheFile() throws {
        let dir = TemporaryDirectory()
        let store = try ownerStore(dir)
        try store.add(item("a", ["marker-name-7f3a9c": "marker-value-b81e22"]))
        _ = try search(store, ["marker-name-7f3a9c": "marker-value-b81e22"])
        for suffix in ["", "-wal"] {
            let path = dir.storeURL.path + suffix
            guard let bytes = FileManager.default.contents(atPath: path) else { continue }
            for marker in ["marker-name-7f3a9c", "marker-value-b81e22"] {
                #expect(bytes.range(of: Data(marker.utf8)) == nil, "\(marker) in \(path)")
            }
        }
        let tags = try RawStoreFile(url: dir.storeURL).read { try Data.fetchAll($0, sql: "SELECT tag FROM item_attributes") }
        #expect(tags.count == 1 && tags[0].count == ItemTags.tagByteCount)
    }

    @Test func updatesReplaceOrRemoveThePairs() throws {
        let dir = TemporaryDirectory()
        let store = try ownerStore(dir)
        try store.add(item("alice", ["user": "alice", "old": "1"]))
        try store.update(matching: Query(service: "mail", account: "alice"),
                         with: ItemChanges(customAttributes: ["user": "alice", "new": "2"]))
        #expect(try search(store, ["old": "1"]) == [])
        #expect(try search(store, ["new": "2"]) == ["alice"])
        // A change of the secret alone keeps them.
        try store.update(matching: Query(service: "mail", account: "alice"), with: ItemChanges(data: Data("rotated".utf8)))
        #expect(try search(store, ["new": "2", "user": "alice"]) == ["alice"])
        // Moving the item to synchronizable retags it (tags name `sync`).
        try store.update(matching: Query(service: "mail", account: "alice"), with: ItemChanges(attributes: [.synchronizable: true]))
        #expect(try search(store, ["new": "2"]) == [])
        #expect(try search(store, ["new": "2"], synchronizable: .yes) == ["alice"])
        #expect(try search(store, ["new": "2"], synchronizable: .any) == ["alice"])
        var synced = Query(service: "mail", account: "alice")
        synced.synchronizable = .yes
        try store.update(matching: synced, with: ItemChanges(customAttributes: [:]))
        #expect(try search(store, ["new": "2"], synchronizable: .any) == [])
        synced.synchronizable = .any
        synced.returning = .attributes
        #expect(try store.items(matching: synced).first?.attributes.custom == [:])
        #expect(try store.verify().isIntact)
        #expect(try RawStoreFile(url: dir.storeURL).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item_attributes") } == 0)
    }

    @Test func deletingAnItemRemovesItsTags() throws {
        let dir = TemporaryDirectory()
        let store = try ownerStore(dir)
        try store.add(item("alice", ["user": "alice"]))
        try store.add(item("bob", ["user": "bob"]))
        let reference = try store.items(matching: Query(service: "mail", account: "bob", returning: .persistentReference))[0]
            .persistentReference!
        try store.delete(matching: Query(service: "mail", account: "alice"))
        try store.delete(matching: Query(persistentReference: reference))
        #expect(try RawStoreFile(url: dir.storeURL).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item_attributes") } == 0)
        #expect(try store.verify().isIntact)
    }

    /// A tag row copied onto another item makes it a candidate, never a match: the pairs in
    /// its sealed metadata decide. `verify` reports both the moved and the missing tag.
    @Test func tamperedTagsNeverMakeAWrongItemMatch() throws {
        let dir = TemporaryDirectory()
        let store = try ownerStore(dir)
        try store.add(item("alice", ["role": "admin"]))
        try store.add(item("bob", ["role": "user"]))
        try RawStoreFile(url: dir.storeURL).write { db in
            let bob = try Int64.fetchOne(db, sql: "SELECT item_id FROM item_attributes ORDER BY item_id DESC LIMIT 1")!
            try db.execute(sql: "UPDATE item_attributes SET item_id = ? WHERE item_id <> ?", arguments: [bob, bob])
        }
        #expect(try search(store, ["role": "admin"]) == [])
        #expect(try search(store, ["role": "user"]) == ["bob"])
        let report = try store.verify()
        #expect(!report.isIntact)
        #expect(report.damagedItems.count == 2)
        #expect(report.damagedItems.allSatisfy { $0.problem.contains("free-form attribute index") })
    }

    @Test func orphanTagsAreReported() throws {
        let dir = TemporaryDirectory()
        let store = try ownerStore(dir)
        try store.add(item("alice", ["role": "admin"]))
        try RawStoreFile(url: dir.storeURL).write { db in
            try db.execute(sql: "INSERT INTO item_attributes (tag, item_id) VALUES (?, 999)", arguments: [Data(count: 16)])
        }
        let report = try store.verify()
        #expect(report.databaseProblems.contains("1 free-form attribute index entries name no item"))
    }

    /// Each case by number (its dictionaries are too large to print as test arguments).
    static let overLimits: [([String: String], SecStoreError.Code)] = [
        (["": "v"], .invalidParameter),
        ([String(repeating: "n", count: 257): "v"], .dataTooLarge),
        (["n": String(repeating: "v", count: 4097)], .dataTooLarge),
        (Dictionary(uniqueKeysWithValues: (0..<65).map { ("n\($0)", "v") }), .dataTooLarge),
        (Dictionary(uniqueKeysWithValues: (0..<5).map { ("n\($0)", String(repeating: "v", count: 4000)) }), .dataTooLarge),
    ]

    @Test(arguments: overLimits.indices)
    func limitsAreTypedErrors(overLimit: Int) throws {
        let (custom, code) = Self.overLimits[overLimit]
        let dir = TemporaryDirectory()
        let store = try ownerStore(dir)
        expectError(code) { try store.add(item("alice", custom)) }
        try store.add(item("alice", [:]))
        expectError(code) {
            try store.update(matching: Query(service: "mail", account: "alice"), with: ItemChanges(customAttributes: custom))
        }
        expectError(code) { try search(store, custom) }
        #expect(try store.items(matching: Query(service: "mail", account: "alice", returning: .attributes))[0].attributes.custom == [:])
    }

    @Test func anUpdateNamesNewPairsInCustomAttributesOnly() throws {
        let dir = TemporaryDirectory()
        let store = try ownerStore(dir)
        try store.add(item("alice", ["user": "alice"]))
        var attributes = Attributes()
        attributes.custom = ["user": "mallory"]
        expectError(.invalidParameter) {
            try store.update(matching: Query(service: "mail", account: "alice"), with: ItemChanges(attributes: attributes))
        }
        #expect(try search(store, ["user": "alice"]) == ["alice"])
    }

    @Test func backupsCarryThePairsAndTheImportIndexesThem() throws {
        let dir = TemporaryDirectory()
        let store = try ownerStore(dir)
        try store.add(item("alice", ["xdg:schema": "org.example.Mail", "user": "alice"]))
        let backup = dir.url.appending(path: "backup.ssb")
        _ = try store.exportBackup(to: backup, passphrase: "backup pass", limits: .minimumForTesting)
        let other = TemporaryDirectory()
        let restored = try ownerStore(other)
        #expect(try restored.importBackup(from: backup, passphrase: "backup pass").added == 1)
        #expect(try search(restored, ["user": "alice"]) == ["alice"])
        #expect(try restored.verify().isIntact)
    }

    @Test func descriptionsShowPairsSortedByName() {
        var attributes: Attributes = [.account: "alice"]
        attributes.custom = ["b": "2", "a": "1"]
        #expect(attributes.description == #"[acct: "alice", custom: [a: 1, b: 2]]"#)
        #expect(ItemChanges(customAttributes: ["x": "y"]).description.hasSuffix(", custom: [x: y])"))
    }
}

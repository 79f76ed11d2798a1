import Foundation
import GRDB
import Testing
@testable import SecStore

/// Store files written by earlier format versions keep opening (DESIGN.md: "the format is
/// versioned from day one, with a migration path; `Fixtures/` keeps store files written by
/// earlier format versions and the tests open them"). `Fixtures/format-v<n>` holds a store
/// written by the SecStore of a commit whose format was `n` (``StoreFixture``; its README names
/// the commit); every test works on a copy, never on the committed file. This file checks what
/// the fixtures hold; `FixtureTests+Migration.swift` what opening them does to the file.
@Suite(.serialized) struct FixtureTests {
    /// One fixture per format version, the current one included.
    static let fixtures: [StoreFixture] = [.formatV1, .formatV2, .formatV3, .formatV4]
    static let passphraseFixtures = fixtures.filter { $0.passphrase != nil }

    /// The repository's `Fixtures`, found from this source file's path.
    static let fixturesDirectory = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Fixtures", directoryHint: .isDirectory)

    static func directory(of fixture: StoreFixture) -> URL {
        fixturesDirectory.appending(path: fixture.directoryName, directoryHint: .isDirectory)
    }

    /// Copies the fixture into a temporary directory (so the repository's copy is never
    /// touched) and gives its files the modes SecStore demands.
    static func copyFixture(_ fixture: StoreFixture = .formatV1) throws -> TemporaryDirectory {
        let copy = TemporaryDirectory()
        let source = directory(of: fixture)
        try FileManager.default.createDirectory(at: copy.storeURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: copy.deviceKeyURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: source.appending(path: StoreFixture.storeFileName), to: copy.storeURL)
        try FileManager.default.copyItem(at: source.appending(path: StoreFixture.deviceKeyFileName), to: copy.deviceKeyURL)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: copy.deviceKeyURL.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: copy.storeURL.path)
        return copy
    }

    /// Opens a copy of `fixture` (its AfterFirstUnlock keys in this process only, so the
    /// kernel keyring keeps nothing), unlocked with the fixture's passphrase unless `locked`.
    static func open(_ copy: TemporaryDirectory, _ fixture: StoreFixture, access: StoreAccess = .owner,
                     locked: Bool = false) throws -> SecretStore {
        let store = try SecretStore(at: copy.storeURL, options: .init(access: access, deviceKeyURL: copy.deviceKeyURL,
                                                                      createIfMissing: false, firstUnlockCache: .processMemory))
        if !locked, let passphrase = fixture.passphrase {
            try store.unlock(passphrase: passphrase)
        }
        return store
    }

    static func version(of copy: TemporaryDirectory) throws -> Int {
        try RawStoreFile(url: copy.storeURL).read { try Int.fetchOne($0, sql: "PRAGMA user_version") } ?? 0
    }

    /// Every item of a store, of both classes, synchronizable or not.
    static func allItems(_ store: SecretStore) throws -> [Item] {
        try ItemClass.allCases.flatMap { itemClass in
            try store.items(matching: Query(itemClass: itemClass, synchronizable: .any, limit: .all,
                                            returning: [.attributes, .data, .persistentReference]))
        }
    }

    /// The names of the entries among `items` (matched by class and account, unique in every fixture).
    static func names(of items: [Item], in fixture: StoreFixture) -> Set<String> {
        Set(items.compactMap { item in
            fixture.entries.first { $0.item.itemClass == item.itemClass && $0.expectedAttributes[.account] == item.attributes[.account] }?.name
        })
    }

    /// The names of the entries `query` finds; none when it finds nothing (`itemNotFound`).
    static func found(_ store: SecretStore, _ query: Query, in fixture: StoreFixture) throws -> Set<String> {
        do {
            return names(of: try store.items(matching: query), in: fixture)
        } catch let error as SecStoreError where error.code == .itemNotFound {
            return []
        }
    }

    @Test func everyFormatVersionHasAFixture() {
        #expect(Self.fixtures.map(\.version) == Array(1...Schema.currentVersion))
    }

    /// Only a SecStore that writes a fixture's own format may write it: today's refuses the
    /// older ones and writes nothing (the tests would otherwise silently stop testing them), and
    /// writes the current one as its description says.
    @Test func onlyTheSecStoreOfAFixturesFormatWritesIt() throws {
        let scratch = TemporaryDirectory()
        for fixture in Self.fixtures.dropLast() {
            let target = scratch.url.appending(path: fixture.directoryName)
            #expect(throws: FixtureWriter.Refusal.self, "\(fixture)") {
                try FixtureWriter.write(fixture, to: target, commit: "test")
            }
            #expect(!FileManager.default.fileExists(atPath: target.path), "\(fixture)")
        }
        let current = try #require(Self.fixtures.last)
        let target = scratch.url.appending(path: current.directoryName)
        try FixtureWriter.write(current, to: target, commit: "test")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: target.path)) == current.fileNames)
    }

    /// Every item of the fixture reads back exactly (attributes with their types, secret,
    /// dates, persistent reference), and nothing else is there.
    @Test(arguments: fixtures) func readsBackExactly(_ fixture: StoreFixture) throws {
        let copy = try Self.copyFixture(fixture)
        let raw = RawStoreFile(url: copy.storeURL)
        #expect(try Self.version(of: copy) == fixture.version)
        #expect(try raw.read { try Int32.fetchOne($0, sql: "PRAGMA application_id") } == 0x5353_7431)
        #expect(try raw.items().count == fixture.entries.count)

        let owner = try Self.open(copy, fixture)
        let found = try Self.allItems(owner)
        #expect(found.count == fixture.entries.count)

        var creationDates: [Date] = []
        for entry in fixture.entries {
            let matches = found.filter { $0.itemClass == entry.item.itemClass && $0.attributes[.account] == entry.expectedAttributes[.account] }
            try #require(matches.count == 1, "\(fixture) \(entry.name)")
            let item = matches[0]
            #expect(ReturnShapeTests.withoutDates(item.attributes) == entry.expectedAttributes, "\(fixture) \(entry.name)")
            #expect(item.data == entry.expectedData, "\(fixture) \(entry.name)")
            let created = try #require(item.attributes.creationDate, "\(fixture) \(entry.name)")
            let modified = try #require(item.attributes.modificationDate, "\(fixture) \(entry.name)")
            if entry.update == nil {
                #expect(modified == created, "\(fixture) \(entry.name)")
            } else {
                #expect(modified > created, "\(fixture) \(entry.name)")
            }
            creationDates.append(created)
            let reference = try #require(item.persistentReference)
            #expect(try owner.items(matching: Query(persistentReference: reference, returning: .data)).map(\.data) == [entry.expectedData])
        }
        // Written in one short run.
        #expect(creationDates.max()!.timeIntervalSince(creationDates.min()!) < 60)
        #expect(creationDates.max()! < Date())
    }

    /// Searches find every item by its primary key (service or server, and account), by
    /// service alone, by group and by each free-form attribute, and find no pair an update
    /// replaced.
    @Test(arguments: fixtures) func searchesFindEveryItem(_ fixture: StoreFixture) throws {
        let copy = try Self.copyFixture(fixture)
        let owner = try Self.open(copy, fixture)
        for entry in fixture.entries {
            var query = StoreFixture.primaryKeyQuery(of: entry.item)
            query.returning = [.attributes, .data]
            let items = try owner.items(matching: query)
            #expect(Self.names(of: items, in: fixture) == [entry.name] && items.count == 1, "\(fixture) \(entry.name)")
            #expect(items.first?.data == entry.expectedData, "\(fixture) \(entry.name)")
        }
        for service in Set(fixture.entries.compactMap { $0.expectedAttributes.service }) {
            let expected = Set(fixture.entries.filter { $0.expectedAttributes.service == service }.map(\.name))
            let query = Query(itemClass: .genericPassword, attributes: [.service: .string(service)], synchronizable: .any, limit: .all)
            #expect(try Self.found(owner, query, in: fixture) == expected, "\(fixture) service \(service)")
        }
        for group in fixture.accessGroups {
            let expected = Set(fixture.entries.filter { $0.expectedAttributes.accessGroup == group }.map(\.name))
            var found: Set<String> = []
            for itemClass in ItemClass.allCases {
                let query = Query(itemClass: itemClass, attributes: [.accessGroup: .string(group)], synchronizable: .any, limit: .all)
                found.formUnion(try Self.found(owner, query, in: fixture))
            }
            #expect(!expected.isEmpty && found == expected, "\(fixture) group \(group)")
        }
        for entry in fixture.entries {
            for (name, value) in entry.item.attributes.custom {
                var query = Query(itemClass: entry.item.itemClass, synchronizable: .any, limit: .all)
                query.attributes.custom = [name: value]
                let expected = Set(fixture.entries.filter {
                    $0.item.itemClass == entry.item.itemClass && $0.expectedAttributes.custom[name] == value
                }.map(\.name))
                #expect(try Self.found(owner, query, in: fixture) == expected, "\(fixture) \(entry.name) \(name)=\(value)")
            }
        }
    }

    /// The passphrase still guards what it guarded: before the unlock only `dk` and `dku`
    /// items are readable (every other class answers `interactionNotAllowed`), a wrong
    /// passphrase is refused, the right one opens them all, `akpu` included.
    @Test(arguments: passphraseFixtures) func thePassphraseStillGuardsItsClasses(_ fixture: StoreFixture) throws {
        let copy = try Self.copyFixture(fixture)
        let owner = try Self.open(copy, fixture, locked: true)
        // Copies of a fixture share its store id: forget what an earlier test's unlock left
        // in this process's AfterFirstUnlock cache.
        owner.lock(forgettingFirstUnlock: true)
        #expect(try owner.lockState == .locked)
        for entry in fixture.entries {
            var query = StoreFixture.primaryKeyQuery(of: entry.item)
            query.returning = .data
            if ["dk", "dku"].contains(entry.expectedAttributes.accessibility?.rawValue) {
                #expect(try owner.items(matching: query).map(\.data) == [entry.expectedData], "\(fixture) \(entry.name)")
            } else {
                expectError(.interactionNotAllowed) { try owner.items(matching: query) }
            }
        }
        expectError(.authenticationFailed) { try owner.unlock(passphrase: "not the passphrase") }
        try owner.unlock(passphrase: try #require(fixture.passphrase))
        #expect(try Self.allItems(owner).count == fixture.entries.count)
        #expect(fixture.entries.contains { $0.expectedAttributes.accessibility == .whenPasscodeSetThisDeviceOnly })
    }

    /// The fixture opens for an entitled app too, and stays usable: new writes work and
    /// survive reopening, which finds the file at the current version.
    @Test(arguments: fixtures) func staysUsable(_ fixture: StoreFixture) throws {
        let copy = try Self.copyFixture(fixture)
        let access = StoreAccess.entitled(fixture.entitlements)
        let first = try #require(fixture.entries.first)
        let genericPasswords = fixture.entries.filter { $0.item.itemClass == .genericPassword }.count
        do {
            let store = try Self.open(copy, fixture, access: access)
            #expect(try store.string(forAccount: "alice", service: "fixture.api") == "alice-secret-v1")
            expectError(.duplicateItem) { try store.add(first.item) }
            expectError(.itemNotFound) { try store.items(matching: Query(service: "fixture.deleted")) }
            try store.add(.genericPassword(service: "fixture.new", account: "new", data: Data("new-secret".utf8)))
            try store.update(matching: Query(service: "fixture.api", account: "alice"), with: ItemChanges(data: Data("rotated".utf8)))
            if fixture.passphrase != nil {
                try store.add(.genericPassword(service: "fixture.new", account: "passcode", data: Data("new-passcode".utf8),
                                               accessibility: .whenPasscodeSetThisDeviceOnly))
            }
            #expect(try store.count(Query(itemClass: .genericPassword, synchronizable: .any))
                == genericPasswords + (fixture.passphrase == nil ? 1 : 2))
        }
        let reopened = try Self.open(copy, fixture, access: access)
        #expect(try reopened.string(forAccount: "new", service: "fixture.new") == "new-secret")
        #expect(try reopened.string(forAccount: "alice", service: "fixture.api") == "rotated")
        if fixture.passphrase != nil {
            #expect(try reopened.string(forAccount: "passcode", service: "fixture.new") == "new-passcode")
        }
        #expect(try Self.open(copy, fixture).verify().isIntact)
        #expect(try Self.version(of: copy) == Schema.currentVersion)
    }

    /// The committed fixture is one self-contained file (no `-wal` or `-shm` beside it), of its
    /// format version, with no plaintext secrets, names or passphrase.
    @Test(arguments: fixtures) func isSelfContainedAndSealed(_ fixture: StoreFixture) throws {
        let directory = Self.directory(of: fixture)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: directory.path)) == fixture.fileNames)
        let bytes = try Data(contentsOf: directory.appending(path: StoreFixture.storeFileName))
        #expect(bytes.prefix(16) == Data("SQLite format 3\0".utf8))
        // The header's user_version (offset 60, big-endian), read without SQLite.
        #expect(bytes.dropFirst(60).prefix(4).reduce(0) { $0 << 8 | Int($1) } == fixture.version)
        var plaintexts: [(String, Data)] = [("deleted-secret", Data("deleted-secret".utf8))]
        if let passphrase = fixture.passphrase {
            plaintexts.append(("the passphrase", Data(passphrase.utf8)))
            #expect(try String(contentsOf: directory.appending(path: StoreFixture.passphraseFileName), encoding: .utf8) == passphrase + "\n")
        }
        for entry in fixture.entries {
            plaintexts.append(("\(entry.name)'s secret", entry.expectedData))
            for (key, value) in entry.expectedAttributes {
                switch value {
                case .string(let text): plaintexts.append(("\(entry.name)'s \(key)", Data(text.utf8)))
                case .data(let data): plaintexts.append(("\(entry.name)'s \(key)", data))
                default: break
                }
            }
            for (name, value) in entry.expectedAttributes.custom {
                plaintexts.append(("\(entry.name)'s free-form \(name)", Data(name.utf8)))
                plaintexts.append(("\(entry.name)'s free-form \(name) value", Data(value.utf8)))
            }
        }
        for (what, plaintext) in plaintexts where plaintext.count >= 8 {
            #expect(!bytes.containsBytes(plaintext), "\(fixture): \(what) is in plaintext")
        }
    }
}

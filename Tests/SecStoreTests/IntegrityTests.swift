import Foundation
import GRDB
import Testing
import SecStore

/// Tampering with the store file is detected and reported as corruption (errSecDecode),
/// never returned as data (DESIGN.md "Keys"; ItemSealing's associated data).
@Suite struct IntegrityTests {
    static let secrets = ["alpha": "secret-of-alpha-7Qx9", "beta": "secret-of-beta-Lm3v", "gamma": "secret-of-gamma-Pz8k"]

    /// Three items; "alpha" (group G2) is the one tampered with, "beta" and "gamma" must
    /// stay readable.
    struct Scene {
        let harness: StoreHarness
        let owner: SecretStore
        let raw: RawStoreFile
        let references: [String: PersistentReference]

        init() throws {
            harness = try StoreHarness()
            var references: [String: PersistentReference] = [:]
            let items: [(String, String?, Accessibility)] = [
                ("alpha", TestEntitlements.g2, .whenUnlocked), ("beta", nil, .whenUnlocked), ("gamma", nil, .afterFirstUnlock),
            ]
            for (name, group, accessibility) in items {
                let item = Item.genericPassword(service: name, account: "acct-" + name, data: IntegrityTests.secrets[name]!.utf8Data,
                                                accessGroup: group, accessibility: accessibility, label: "label-" + name)
                references[name] = try harness.store.add(item, returning: .persistentReference).persistentReference
            }
            self.references = references
            owner = try harness.open(as: .owner)
            raw = RawStoreFile(url: harness.directory.storeURL)
        }

        func record(_ name: String) throws -> RawStoreFile.ItemRecord {
            try raw.item(ref: references[name]!.rowRef)
        }

        func query(_ name: String, returning: ReturnOptions) -> Query {
            Query(service: name, account: "acct-" + name, returning: returning)
        }

        /// The other items read back exactly.
        func expectOthersIntact(sourceLocation: SourceLocation = #_sourceLocation) throws {
            for name in ["beta", "gamma"] {
                let found = try harness.store.items(matching: query(name, returning: [.attributes, .data]))
                #expect(found.map(\.data) == [IntegrityTests.secrets[name]!.utf8Data], sourceLocation: sourceLocation)
                #expect(found.first?.attributes.label == "label-" + name, sourceLocation: sourceLocation)
            }
        }
    }

    static func expectCorrupt<T>(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T) {
        guard let error = expectError(.corruptData, sourceLocation: sourceLocation, body) else { return }
        #expect(error.status == OSStatusValue.decode, sourceLocation: sourceLocation)
        for secret in secrets.values {
            #expect(!error.description.contains(secret), "message shows a secret", sourceLocation: sourceLocation)
        }
    }

    /// One way of altering the row of "alpha".
    enum Tamper: CustomTestStringConvertible, Sendable {
        case flipMetadata(at: Int)
        case flipSecret(at: Int)
        case metadataFromOtherRow, secretFromOtherRow
        case metadataFromSecretColumn, secretFromMetadataColumn
        case nameTagOfOtherRow, accountTagOfOtherRow, groupTagOfOtherRow, randomPrimaryKeyTag
        case accessibilityColumn
        case truncatedSecret

        var testDescription: String { "\(self)" }

        /// Whether the row still sits under alpha's service, account and group tags, so
        /// that a query by those attributes reaches it.
        var keepsIndexTags: Bool {
            switch self {
            case .nameTagOfOtherRow, .accountTagOfOtherRow, .groupTagOfOtherRow: false
            default: true
            }
        }

        func apply(_ scene: Scene) throws {
            let alpha = try scene.record("alpha")
            let beta = try scene.record("beta")
            switch self {
            case .flipMetadata(let offset): try scene.raw.set("metadata", of: alpha.id, to: alpha.metadata.flippingByte(at: offset))
            case .flipSecret(let offset): try scene.raw.set("secret", of: alpha.id, to: alpha.secret.flippingByte(at: offset))
            case .metadataFromOtherRow: try scene.raw.set("metadata", of: alpha.id, to: beta.metadata)
            case .secretFromOtherRow: try scene.raw.set("secret", of: alpha.id, to: beta.secret)
            case .metadataFromSecretColumn: try scene.raw.set("metadata", of: alpha.id, to: alpha.secret)
            case .secretFromMetadataColumn: try scene.raw.set("secret", of: alpha.id, to: alpha.metadata)
            case .nameTagOfOtherRow: try scene.raw.set("name_tag", of: alpha.id, to: beta.nameTag)
            case .accountTagOfOtherRow: try scene.raw.set("account_tag", of: alpha.id, to: beta.accountTag)
            case .groupTagOfOtherRow: try scene.raw.set("group_tag", of: alpha.id, to: beta.groupTag)
            case .randomPrimaryKeyTag: try scene.raw.set("pk_tag", of: alpha.id, to: Data((0..<32).map { _ in UInt8.random(in: 0...255) }))
            case .accessibilityColumn: try scene.raw.set("accessibility", of: alpha.id, to: Int64(7))  // ak (6) → ck (7)
            case .truncatedSecret: try scene.raw.set("secret", of: alpha.id, to: alpha.secret.prefix(30))
            }
        }
    }

    /// Nonce (first and last byte), ciphertext (first byte, middle) and tag (first and last byte).
    static let positions = [0, 23, 24, 30, -16, -1]
    static let tampers: [Tamper] = positions.map { .flipMetadata(at: $0) } + positions.map { .flipSecret(at: $0) } + [
        .metadataFromOtherRow, .secretFromOtherRow, .metadataFromSecretColumn, .secretFromMetadataColumn,
        .nameTagOfOtherRow, .accountTagOfOtherRow, .groupTagOfOtherRow, .randomPrimaryKeyTag, .accessibilityColumn,
        .truncatedSecret,
    ]

    @Test(arguments: tampers)
    func tamperedItemIsCorruptAndOthersStayReadable(tamper: Tamper) throws {
        let scene = try Scene()
        try tamper.apply(scene)

        // By reference, as the owner (sees every group): attributes and secret together.
        Self.expectCorrupt { try scene.owner.items(matching: Query(persistentReference: scene.references["alpha"]!, returning: [.attributes, .data])) }
        // Any query whose matches include the row fails as a whole.
        Self.expectCorrupt { try scene.owner.items(matching: Query(itemClass: .genericPassword, limit: .all, returning: [.attributes, .data])) }
        if tamper.keepsIndexTags {
            Self.expectCorrupt { try scene.harness.store.items(matching: scene.query("alpha", returning: [.attributes, .data])) }
        }
        try scene.expectOthersIntact()
        try scene.harness.settle(.reopened)
        try scene.expectOthersIntact()
    }

    /// Damaged attributes fail every read of the item, status-only included, and block
    /// update and delete (a damaged item is reported, never silently removed).
    @Test(arguments: [Tamper.flipMetadata(at: 0), .flipMetadata(at: -1), .metadataFromOtherRow])
    func damagedAttributesFailReadsUpdatesAndDeletes(tamper: Tamper) throws {
        let scene = try Scene()
        try tamper.apply(scene)
        for returning in [ReturnOptions(), .attributes, .persistentReference, [.attributes, .data]] {
            Self.expectCorrupt { try scene.harness.store.items(matching: scene.query("alpha", returning: returning)) }
        }
        Self.expectCorrupt { try scene.harness.store.update(matching: scene.query("alpha", returning: []), with: ItemChanges(data: Data([1]))) }
        Self.expectCorrupt { try scene.harness.store.delete(matching: scene.query("alpha", returning: [])) }
        #expect(try scene.raw.items().count == 3)
        try scene.expectOthersIntact()
    }

    /// A damaged secret fails every read that returns the secret.
    @Test(arguments: [Tamper.flipSecret(at: 0), .flipSecret(at: 30), .flipSecret(at: -1), .secretFromOtherRow])
    func damagedSecretFailsDataReads(tamper: Tamper) throws {
        let scene = try Scene()
        try tamper.apply(scene)
        Self.expectCorrupt { try scene.harness.store.items(matching: scene.query("alpha", returning: .data)) }
        Self.expectCorrupt { try scene.harness.store.data(forAccount: "acct-alpha", service: "alpha") }
        Self.expectCorrupt { try scene.harness.store.items(matching: Query(persistentReference: scene.references["alpha"]!, returning: .data)) }
        try scene.expectOthersIntact()
    }

    /// Damaged attributes also fail a read that asks only for the secret: the item is
    /// damaged, so the call that targets it reports errSecDecode (reference exception 3).
    @Test(arguments: [Tamper.flipMetadata(at: 30), .metadataFromOtherRow])
    func damagedAttributesFailDataOnlyReads(tamper: Tamper) throws {
        let scene = try Scene()
        try tamper.apply(scene)
        Self.expectCorrupt { try scene.harness.store.items(matching: scene.query("alpha", returning: .data)) }
        Self.expectCorrupt { try scene.harness.store.data(forAccount: "acct-alpha", service: "alpha") }
    }

    /// A row copied from another store (same layout, other store id and keys) fails to open.
    @Test func rowFromAnotherStoreIsCorrupt() throws {
        let scene = try Scene()
        let other = try StoreHarness()
        try other.store.add(.genericPassword(service: "intruder", account: "x", data: "intruder-secret".utf8Data))
        let intruder = try #require(try RawStoreFile(url: other.directory.storeURL).items().first)
        try scene.raw.write { db in
            try db.execute(sql: """
                INSERT INTO items (ref, class, accessibility, pk_tag, name_tag, account_tag, group_tag, metadata, secret)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [intruder.ref, intruder.itemClass, intruder.accessibility, intruder.pkTag, intruder.nameTag,
                                 intruder.accountTag, intruder.groupTag, intruder.metadata, intruder.secret])
        }
        Self.expectCorrupt { try scene.owner.items(matching: Query(itemClass: .genericPassword, limit: .all, returning: .data)) }
        try scene.expectOthersIntact()
    }

    /// Altered key records: the master key reads as the wrong device key at open; a class
    /// key makes that class's items corrupt, without closing the store to `verify` and to the
    /// other classes (KeyRowDamageTests).
    @Test(arguments: ["master", "class.ak"])
    func alteredKeyRecordIsRefused(name: String) throws {
        let scene = try Scene()
        try scene.raw.write { db in
            let sealed = try #require(try Data.fetchOne(db, sql: "SELECT sealed FROM keys WHERE name = ?", arguments: [name]))
            try db.execute(sql: "UPDATE keys SET sealed = ? WHERE name = ?", arguments: [sealed.flippingByte(at: 30), name])
        }
        if name == "master" {
            expectError(.wrongDeviceKey) { try scene.harness.open(as: .entitled(TestEntitlements.app)) }
        } else {
            let store = try scene.harness.open(as: .entitled(TestEntitlements.app))
            Self.expectCorrupt { try store.items(matching: Query(itemClass: .genericPassword, limit: .all, returning: .data)) }
        }
    }
}

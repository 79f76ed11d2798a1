import Foundation
import Testing
@testable import SecStore

/// What an update decrypts: a secret is opened only where it is sealed again without a new
/// one. An update of attributes alone once decrypted every match's secret, only to drop it.
@Suite struct UpdateSecretHandlingTests {
    private func changes(_ attributes: Attributes, data: Data? = nil, rebindsRow: Bool) -> ItemEngine.PreparedChanges {
        ItemEngine.PreparedChanges(attributes: attributes, data: data, customAttributes: nil, rebindsRow: rebindsRow)
    }

    /// The rows an update of `query` with `changes` opens, through the engine's own call.
    private func found(_ store: SecretStore, _ query: Query, _ changes: ItemEngine.PreparedChanges) throws -> [ItemEngine.Found] {
        let engine = store.engine
        let valid = try RequestRules.validate(ItemRequest(.copyMatching, query: query), access: engine.rules, now: Date())
        return try engine.database.read { db in try engine.matchesForUpdate(engine.planner.plan(for: valid), changes, in: db) }
    }

    @Test("an update of attributes alone opens no secret; a rebinding one opens the old secret; a new secret opens none")
    func updatesOpenOnlyTheSecretsTheySealAgain() throws {
        let harness = try StoreHarness()
        try harness.store.add(.genericPassword(service: "s", account: "a", data: Data("kept".utf8)))
        let query = Query(service: "s", account: "a")

        let labelOnly = changes([.label: "new label"], rebindsRow: false)
        let opened = try found(harness.store, query, labelOnly)
        #expect(opened.count == 1)
        #expect(opened.first?.attributes != nil, "the attributes are merged, so they are opened")
        #expect(opened.first?.secret == nil, "a current-format row keeps its sealed secret")
        #expect(opened.allSatisfy { !ItemEngine.resealsSecret(of: $0.item, labelOnly) })

        let newAccount = changes([.account: "b"], rebindsRow: true)
        #expect(try found(harness.store, query, newAccount).first?.secret == Data("kept".utf8),
                "a new primary key is named by the secret's associated data: the old secret is sealed again")

        let newSecret = changes([:], data: Data("new".utf8), rebindsRow: false)
        #expect(try found(harness.store, query, newSecret).first?.secret == nil)
    }

    /// The two halves of one rule: find opens a row's secret exactly when the update seals
    /// that old secret again, for rows of every format (a version-1 row, kept when its class
    /// was locked at migration, is sealed again whole) and every kind of change.
    @Test("the secrets an update opens are exactly the old secrets it seals again, for every format and change")
    func opensExactlyWhatItSealsAgain() throws {
        let harness = try StoreHarness()
        try harness.store.add(.genericPassword(service: "s", account: "a", data: Data("kept".utf8)))
        let current = try #require(try found(harness.store, Query(service: "s", account: "a"), changes([:], rebindsRow: false)).first?.item)
        var older = current
        older.format = .version1
        let kinds = [
            changes([.label: "l"], rebindsRow: false), changes([.account: "b"], rebindsRow: true),
            changes([:], data: Data("new".utf8), rebindsRow: false), changes([.account: "b"], data: Data("new".utf8), rebindsRow: true),
        ]
        for item in [current, older] {
            for change in kinds {
                let opens = ItemEngine.needs(forUpdating: change).opensSecret(of: item)
                #expect(opens == (change.data == nil && ItemEngine.resealsSecret(of: item, change)), "\(item.format) \(change.attributes)")
            }
        }
        #expect(ItemEngine.needs(forUpdating: kinds[0]).opensSecret(of: older), "a label change on a version-1 row opens its secret")
        #expect(!ItemEngine.needs(forUpdating: kinds[0]).opensSecret(of: current))
    }

    @Test("updates through the API keep or replace the secret as asked")
    func secretsSurviveEveryKindOfUpdate() throws {
        let harness = try StoreHarness()
        try harness.store.add(.genericPassword(service: "s", account: "a", data: Data("kept".utf8)))
        try harness.store.update(matching: Query(service: "s", account: "a"), with: ItemChanges(attributes: [.label: "l"]))
        #expect(try harness.store.secret(Query(service: "s", account: "a")) == Data("kept".utf8))
        try harness.store.update(matching: Query(service: "s", account: "a"), with: ItemChanges(attributes: [.account: "b"]))
        #expect(try harness.store.secret(Query(service: "s", account: "b")) == Data("kept".utf8))
        try harness.store.update(matching: Query(service: "s", account: "b"),
                                 with: ItemChanges(attributes: [.accessible: .string("ck")]))
        #expect(try harness.store.secret(Query(service: "s", account: "b")) == Data("kept".utf8))
        try harness.store.update(matching: Query(service: "s", account: "b"), with: ItemChanges(data: Data("new".utf8)))
        #expect(try harness.store.secret(Query(service: "s", account: "b")) == Data("new".utf8))
    }
}

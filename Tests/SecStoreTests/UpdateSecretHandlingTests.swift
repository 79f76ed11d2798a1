import Foundation
import Testing
@testable import SecStore

/// What an update decrypts: a secret is opened only where it is sealed again without a new
/// one. An update of attributes alone once decrypted every match's secret, only to drop it.
@Suite struct UpdateSecretHandlingTests {
    private func changes(_ attributes: Attributes, data: Data? = nil, rebindsRow: Bool) -> ItemEngine.PreparedChanges {
        ItemEngine.PreparedChanges(attributes: attributes, data: data, customAttributes: nil, rebindsRow: rebindsRow)
    }

    /// The rows `store`'s engine finds for `query`, opened with `needs`.
    private func found(_ store: SecretStore, _ query: Query, _ needs: ItemEngine.Needs) throws -> [ItemEngine.Found] {
        let engine = store.engine
        let valid = try RequestRules.validate(ItemRequest(.copyMatching, query: query), access: engine.rules, now: Date())
        return try engine.database.read { db in try engine.find(engine.planner.plan(for: valid), in: db, needs: needs, limit: nil) }
    }

    @Test("an update of attributes alone opens no secret; a rebinding one opens the old secret; a new secret opens none")
    func updatesOpenOnlyTheSecretsTheySealAgain() throws {
        let harness = try StoreHarness()
        try harness.store.add(.genericPassword(service: "s", account: "a", data: Data("kept".utf8)))
        let query = Query(service: "s", account: "a")

        let labelOnly = changes([.label: "new label"], rebindsRow: false)
        let opened = try found(harness.store, query, ItemEngine.needs(forUpdating: labelOnly))
        #expect(opened.count == 1)
        #expect(opened.first?.attributes != nil, "the attributes are merged, so they are opened")
        #expect(opened.first?.secret == nil, "a current-format row keeps its sealed secret")
        #expect(opened.allSatisfy { !ItemEngine.resealsSecret(of: $0.item, labelOnly) })

        let newAccount = changes([.account: "b"], rebindsRow: true)
        #expect(try found(harness.store, query, ItemEngine.needs(forUpdating: newAccount)).first?.secret == Data("kept".utf8),
                "a new primary key is named by the secret's associated data: the old secret is sealed again")

        let newSecret = changes([:], data: Data("new".utf8), rebindsRow: false)
        #expect(try found(harness.store, query, ItemEngine.needs(forUpdating: newSecret)).first?.secret == nil)
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

import Foundation
import GRDB

/// The machinery behind ``SecretStore``: it owns the database, the keys and the caller's
/// access, and runs every item operation inside one SQLite statement or transaction.
final class ItemEngine: Sendable {
    let database: StoreDatabase
    let vault: KeyVault
    let access: StoreAccess
    let planner: QueryPlanner

    init(database: StoreDatabase, vault: KeyVault, access: StoreAccess) {
        self.database = database
        self.vault = vault
        self.access = access
        let groupTags = GroupTagCache(indexer: vault.indexer, groups: access.visibleGroups ?? [])
        planner = QueryPlanner(indexer: vault.indexer, access: access, groupTags: groupTags)
    }

    /// An item a query matched, opened as far as the caller needs.
    struct Found {
        var row: ItemRow
        var attributes: Attributes?
        var secret: Data?
    }

    /// What to open of each matched row.
    struct Needs {
        var attributes = false
        var secret = false
    }

    /// Runs `plan` and opens each row. Both blobs of every matched row are authenticated,
    /// whatever the caller asked for, so a damaged item never answers a query: it fails the
    /// call with `corruptData`. Rows whose class is locked fail it with
    /// `interactionNotAllowed`, as on Apple systems.
    func find(_ plan: QueryPlan, in db: Database, needs: Needs, limit: Int?) throws -> [Found] {
        let decodeAttributes = needs.attributes || plan.needsAttributes
        let statement = try db.cachedStatement(sql: plan.sql(limit: limit))
        let cursor = try Row.fetchCursor(statement, arguments: StatementArguments(plan.arguments))
        var found: [Found] = []
        while let raw = try cursor.next() {
            var row = try ItemRow(raw, path: database.path)
            let binding = row.binding(storeID: vault.storeID)
            var keys = try vault.itemKeys(for: row.accessibility, in: db)
            var metadata = try open(row.metadata ?? Data(), .metadata, binding: binding, keys: &keys, in: db)
            defer { Wipe.data(&metadata) }
            var secret = try open(row.secret ?? Data(), .secret, binding: binding, keys: &keys, in: db)
            var attributes: Attributes?
            if decodeAttributes {
                let decoded = try MetadataCodec.decode(metadata)
                guard Self.satisfies(decoded, plan) else {
                    Wipe.data(&secret)
                    continue
                }
                attributes = decoded
            }
            if !needs.secret { Wipe.data(&secret) }
            row.metadata = nil
            row.secret = nil
            found.append(Found(row: row, attributes: attributes, secret: needs.secret ? secret : nil))
            if let limit, found.count >= limit { break }
        }
        return found
    }

    /// Opens a blob; when that fails because another process replaced this class's key
    /// (the key rows changed since this handle read them), reloads the keys and tries again.
    private func open(_ sealed: Data, _ column: ItemSealing.Column, binding: ItemSealing.Binding,
                      keys: inout ItemKeys, in db: Database) throws -> Data {
        do {
            return try ItemSealing.open(sealed, column, binding: binding, keys: keys)
        } catch {
            guard try vault.reloadIfChanged(db) else { throw error }
            keys = try vault.itemKeys(for: binding.accessibility, in: db)
            return try ItemSealing.open(sealed, column, binding: binding, keys: keys)
        }
    }

    private static func satisfies(_ attributes: Attributes, _ plan: QueryPlan) -> Bool {
        if let syncs = plan.syncFilter, !syncs.contains(attributes[.synchronizable]?.boolValue ?? false) {
            return false
        }
        if let host = plan.hostOrSubdomain, !AttributeRules.isHostOrSubdomain(attributes[.server], of: host) {
            return false
        }
        for (key, wanted) in plan.attributeFilters {
            let caseInsensitive = plan.caseInsensitive && key != .accessGroup
            if !AttributeRules.matches(attributes[key], wanted, key: key, caseInsensitive: caseInsensitive) {
                return false
            }
        }
        return true
    }
}

import Foundation
import GRDB

/// How a query runs: the SQL conditions that use the blind indexes, and the filters that
/// need the decrypted attributes of the rows SQL returns.
struct QueryPlan {
    var conditions: [String] = []
    var arguments: [any DatabaseValueConvertible] = []
    /// Equality filters checked against decrypted attributes.
    var attributeFilters = Attributes()
    var caseInsensitive = false
    /// Set when no tag condition already restricts `sync`.
    var syncFilter: [Bool]?
    var hostOrSubdomain: String?

    var needsAttributes: Bool { !attributeFilters.isEmpty || syncFilter != nil || hostOrSubdomain != nil }

    func sql(limit: Int?) -> String {
        var sql = "SELECT \(ItemRow.columns) FROM items"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " ORDER BY id"
        if let limit, !needsAttributes { sql += " LIMIT \(limit)" }
        return sql
    }

    mutating func require(_ column: String, in values: [[UInt8]]) {
        conditions.append(values.count == 1 ? "\(column) = ?" : "\(column) IN (\(Array(repeating: "?", count: values.count).joined(separator: ", ")))")
        arguments.append(contentsOf: values.map { Data($0) })
    }
}

/// Turns a validated ``Query`` into a ``QueryPlan`` for this store and caller.
struct QueryPlanner {
    let indexer: BlindIndexer
    let access: StoreAccess
    let groupTags: GroupTagCache

    /// - Parameter persistentReferenceAllowsAttributes: delete ANDs a persistent reference
    ///   with other attributes; copy-matching refuses the combination (reference §4.3, §4.5).
    func plan(for query: Query, persistentReferenceAllowsAttributes: Bool = false) throws -> (ItemClass?, QueryPlan) {
        try access.checkEntitled()
        var itemClass = query.itemClass
        if let reference = query.persistentReference {
            if let itemClass, itemClass != reference.itemClass {
                throw SecStoreError(.noSuchClass, "The persistent reference names a \(reference.itemClass) item but the query's class is \(itemClass).")
            }
            if !persistentReferenceAllowsAttributes && !query.attributes.isEmpty {
                throw SecStoreError.invalid("A persistent reference cannot be combined with attributes in a search. Query by the reference alone.")
            }
            itemClass = reference.itemClass
        }
        guard let itemClass else {
            throw SecStoreError.invalid("The query names no item class. Set its class (kSecClass).")
        }
        if query.attributes[.synchronizable] != nil {
            throw SecStoreError.invalid("Put the synchronizable filter in Query.synchronizable, not in its attributes.")
        }
        if query.hostOrSubdomain != nil && itemClass != .internetPassword {
            throw SecStoreError(.unsupported, "Matching a host or subdomain applies to internet passwords only.")
        }
        if case .count(let count) = query.limit, count < 1 {
            throw SecStoreError.invalid("A match limit must be at least 1.")
        }
        var filters = try AttributeRules.normalize(query.attributes, for: itemClass)
        let syncs = query.persistentReference != nil ? [false, true] : query.synchronizable.values

        var plan = QueryPlan()
        plan.caseInsensitive = query.caseInsensitive
        plan.hostOrSubdomain = query.hostOrSubdomain
        plan.conditions.append("class = ?")
        plan.arguments.append(Int64(itemClass.code))
        if let reference = query.persistentReference {
            plan.conditions.append("ref = ?")
            plan.arguments.append(Data(reference.id))
        }
        var syncEnforced = false
        if let group = filters[.accessGroup]?.stringValue {
            try access.checkEntitled(toGroup: group)
            plan.require("group_tag", in: syncs.map { groupTags.tag(itemClass, group: group, sync: $0) })
            filters[.accessGroup] = nil
            syncEnforced = true
        } else if let visible = access.visibleGroups {
            plan.require("group_tag", in: syncs.flatMap { sync in visible.map { groupTags.tag(itemClass, group: $0, sync: sync) } })
            syncEnforced = true
        }
        if !query.caseInsensitive {
            for (column, key) in [(BlindIndexer.Column.name, itemClass.nameKey), (.account, .account)] {
                guard let value = filters[key] else { continue }
                plan.require(column == .name ? "name_tag" : "account_tag",
                             in: syncs.map { indexer.tag(column, itemClass: itemClass, sync: $0, value: value) })
                filters[key] = nil
                syncEnforced = true
            }
        }
        plan.attributeFilters = filters
        plan.syncFilter = syncEnforced ? nil : syncs
        return (itemClass, plan)
    }
}

/// Group tags of the caller's entitled groups, computed once per store handle because
/// every query needs them.
final class GroupTagCache: Sendable {
    private let indexer: BlindIndexer
    private let cached: [String: [UInt8]]

    init(indexer: BlindIndexer, groups: [String]) {
        self.indexer = indexer
        var cached: [String: [UInt8]] = [:]
        for itemClass in ItemClass.allCases {
            for group in groups {
                for sync in [false, true] {
                    cached[Self.key(itemClass, group, sync)] = indexer.tag(.group, itemClass: itemClass, sync: sync, value: .string(group))
                }
            }
        }
        self.cached = cached
    }

    func tag(_ itemClass: ItemClass, group: String, sync: Bool) -> [UInt8] {
        cached[Self.key(itemClass, group, sync)]
            ?? indexer.tag(.group, itemClass: itemClass, sync: sync, value: .string(group))
    }

    private static func key(_ itemClass: ItemClass, _ group: String, _ sync: Bool) -> String {
        "\(itemClass.code)\(sync ? 1 : 0)\(group)"
    }
}

import Foundation
import Synchronization

/// How a query runs: the SQL conditions that use the blind indexes, and the filters that
/// need the decrypted attributes of the rows SQL returns.
struct QueryPlan {
    /// Which conditions the SQL has; with the limit, all the SQL text depends on.
    struct Shape: Hashable {
        var byReference = false
        var primaryKeyTags = 0
        var groupTags = 0
        var nameTags = 0
        var accountTags = 0
        /// Free-form pairs (``Attributes/custom``) the SQL finds through their tags, and the
        /// tags per pair (one per `sync` value searched).
        var customPairs = 0
        var customTagsPerPair = 0
        var limit: Int?
        /// Every row is wanted (no match limit at all): SQL returns them in index order and
        /// the engine sorts them by id, instead of SQLite copying whole rows, blobs and all,
        /// into a temporary B-tree for `ORDER BY id`.
        var unordered = false

        /// The shape packed into one integer, the key of a connection's prepared statements;
        /// `nil` for the rare shape that does not fit (its statement is then found by SQL text).
        var key: Int? {
            guard groupTags <= 0xFFF, primaryKeyTags <= 0xF, nameTags <= 7, accountTags <= 7, customPairs == 0 else { return nil }
            var limitPart = 0
            if let limit {
                guard limit >= 0, limit < 1 << 30 else { return nil }
                limitPart = limit + 1
            }
            let counts = groupTags << 12 | primaryKeyTags << 8 | nameTags << 5 | accountTags << 2
            return limitPart << 24 | counts | (unordered ? 2 : 0) | (byReference ? 1 : 0)
        }
    }

    var shape = Shape()
    /// In condition order: class, id and ref, primary-key tags, group tags, name tags,
    /// account tags, free-form pairs' tags.
    var arguments: [SQLiteRows.Argument] = []
    /// Equality filters checked against decrypted attributes. Free-form pairs always are
    /// (their tags only narrow the rows SQL returns; ``ItemTags/custom`` says why).
    var attributeFilters = Attributes()
    var caseInsensitive = false
    /// Set when no tag condition already restricts `sync`.
    var syncFilter: [Bool]?
    var hostOrSubdomain: String?

    var needsAttributes: Bool {
        !attributeFilters.isEmpty || !attributeFilters.custom.isEmpty || syncFilter != nil || hostOrSubdomain != nil
    }
}

/// Turns a validated ``Query`` into a ``QueryPlan`` for this store and caller.
struct QueryPlanner: Sendable {
    let indexer: BlindIndexer
    let rules: AccessRules
    let groupTags: GroupTagCache
    private let statements = SQLTextCache()

    init(indexer: BlindIndexer, rules: AccessRules) {
        self.indexer = indexer
        self.rules = rules
        groupTags = GroupTagCache(indexer: indexer, groups: rules.visibleGroups)
    }

    /// The plan of a validated request: which conditions SQL checks through the blind
    /// indexes, and which filters wait for the decrypted attributes.
    func plan(for request: ValidRequest) -> QueryPlan {
        var plan = planStandard(request)
        appendCustomTags(to: &plan, request)
        return plan
    }

    /// One condition per free-form pair: the pair's tag for each `sync` value searched. The
    /// pairs stay in ``QueryPlan/attributeFilters`` to be checked on the decrypted metadata.
    private func appendCustomTags(to plan: inout QueryPlan, _ request: ValidRequest) {
        let custom = request.attributes.custom
        guard !custom.isEmpty else { return }
        let syncValues = request.synchronizable.values
        plan.shape.customPairs = custom.count
        plan.shape.customTagsPerPair = syncValues.count
        for (name, value) in custom {
            for sync in syncValues {
                plan.arguments.append(.blob(indexer.customTag(itemClass: request.itemClass, sync: sync, name: name, value: value)))
            }
        }
        plan.attributeFilters.custom = custom
    }

    private func planStandard(_ request: ValidRequest) -> QueryPlan {
        let itemClass = request.itemClass
        var filters = request.attributes
        filters.custom = [:]
        let synchronizable = request.synchronizable

        var plan = QueryPlan()
        plan.arguments.reserveCapacity(8)
        plan.caseInsensitive = request.caseInsensitive
        plan.hostOrSubdomain = request.hostOrSubdomain
        plan.arguments.append(.integer(Int64(itemClass.code)))
        if let reference = request.persistentReference {
            plan.shape.byReference = true
            plan.arguments += [.integer(StoredItem.rowID(of: reference)), .blob(reference.id)]
        }
        if let count = appendPrimaryKeyLookup(to: &plan.arguments, itemClass, filters, synchronizable, caseInsensitive: request.caseInsensitive) {
            plan.shape.primaryKeyTags = count
            // Any attribute beyond service, account and group is still checked after decryption.
            if filters.count > (filters[.accessGroup] == nil ? 2 : 3) {
                for key in itemClass.primaryKey { filters[key] = nil }
                plan.attributeFilters = filters
            }
            return plan
        }
        var syncEnforced = false
        let groupArguments: [SQLiteRows.Argument]?
        if let group = filters[.accessGroup]?.stringValue {
            groupArguments = synchronizable.values.map { .blob(self.groupTags.tag(itemClass, group: group, sync: $0)) }
            filters[.accessGroup] = nil
        } else {
            groupArguments = groupTags.visibleArguments(itemClass, synchronizable)
        }
        if let groupArguments {
            plan.shape.groupTags = groupArguments.count
            plan.arguments += groupArguments
            syncEnforced = true
        }
        if !request.caseInsensitive {
            for (column, key) in [(BlindIndexer.Column.name, itemClass.nameKey), (.account, .account)] {
                guard let value = filters[key] else { continue }
                let tags = synchronizable.values.map { indexer.tag(column, itemClass: itemClass, sync: $0, value: value) }
                if column == .name { plan.shape.nameTags = tags.count } else { plan.shape.accountTags = tags.count }
                plan.arguments += tags.map(SQLiteRows.Argument.blob)
                filters[key] = nil
                syncEnforced = true
            }
        }
        plan.attributeFilters = filters
        plan.syncFilter = syncEnforced ? nil : synchronizable.values
        return plan
    }

    /// When a query names every primary-key attribute but the group (a generic password by
    /// service and account) and the caller has few groups, the whole primary key is known
    /// for each group it may see: one keyed hash per group finds the row through the unique
    /// `pk_tag` index, instead of a name tag and an account tag.
    /// Returns how many tags it appended, or `nil` when the query does not qualify.
    private func appendPrimaryKeyLookup(to arguments: inout [SQLiteRows.Argument], _ itemClass: ItemClass, _ filters: Attributes,
                                        _ synchronizable: SynchronizableMatch, caseInsensitive: Bool) -> Int? {
        guard itemClass == .genericPassword, !caseInsensitive,
              filters[.account] != nil, filters[.service] != nil
        else { return nil }
        let groups = filters[.accessGroup]?.stringValue.map { [$0] } ?? rules.visibleGroups
        guard let groups, let account = filters[.account], let service = filters[.service],
              groups.count * synchronizable.values.count <= 2
        else { return nil }
        for sync in synchronizable.values {
            for group in groups {
                arguments.append(.blob(indexer.genericPasswordPrimaryKeyTag(account: account, service: service, group: group, sync: sync)))
            }
        }
        return groups.count * synchronizable.values.count
    }

    /// The shape of `plan`'s statement with at most `limit` rows.
    func shape(of plan: QueryPlan, limit: Int?) -> QueryPlan.Shape {
        var shape = plan.shape
        shape.limit = plan.needsAttributes ? nil : limit
        shape.unordered = limit == nil
        return shape
    }

    /// The SQL of a statement shape, built once per shape.
    func sql(for shape: QueryPlan.Shape) -> String {
        statements.text(for: shape)
    }
}

/// SQL text by plan shape: a handful of shapes cover every query, so each is built once.
final class SQLTextCache: Sendable {
    private let texts = Mutex<[QueryPlan.Shape: String]>([:])

    func text(for shape: QueryPlan.Shape) -> String {
        if let text = texts.withLock({ $0[shape] }) { return text }
        let text = ItemsTable.selectText(shape)
        texts.withLock { $0[shape] = text }
        return text
    }
}

/// The tags of the caller's entitled groups, computed once per store handle because every
/// query and every add needs them.
final class GroupTagCache: Sendable {
    private let indexer: BlindIndexer
    /// Keyed by class code and the group's UTF-8 bytes (never by `String`, whose equality
    /// merges canonically equivalent spellings).
    private let byGroup: [[UInt8]: [[UInt8]]]
    /// Per class code, per `SynchronizableMatch`: the tags of every visible group, as
    /// statement arguments.
    private let visible: [UInt8: [SynchronizableMatch: [SQLiteRows.Argument]]]
    private let restricted: Bool

    /// - Parameter groups: the groups a query without a group may see; `nil` for all (owner).
    init(indexer: BlindIndexer, groups: [String]?) {
        self.indexer = indexer
        restricted = groups != nil
        var byGroup: [[UInt8]: [[UInt8]]] = [:]
        var visible: [UInt8: [SynchronizableMatch: [SQLiteRows.Argument]]] = [:]
        for itemClass in ItemClass.allCases {
            for group in groups ?? [] {
                byGroup[Self.key(itemClass, group)] = [false, true].map {
                    indexer.tag(.group, itemClass: itemClass, sync: $0, value: .string(group))
                }
            }
            for match in [SynchronizableMatch.no, .yes, .any] {
                visible[itemClass.code, default: [:]][match] = match.values.flatMap { sync in
                    (groups ?? []).map { .blob(byGroup[Self.key(itemClass, $0)]![sync ? 1 : 0]) }
                }
            }
        }
        self.byGroup = byGroup
        self.visible = visible
    }

    /// The tags of every group a query without a group sees; `nil` when it sees all (owner).
    func visibleArguments(_ itemClass: ItemClass, _ match: SynchronizableMatch) -> [SQLiteRows.Argument]? {
        restricted ? visible[itemClass.code]?[match] : nil
    }

    func tag(_ itemClass: ItemClass, group: String, sync: Bool) -> [UInt8] {
        byGroup[Self.key(itemClass, group)]?[sync ? 1 : 0]
            ?? indexer.tag(.group, itemClass: itemClass, sync: sync, value: .string(group))
    }

    /// An item's tags, reusing the cached group tag.
    func tags(for itemClass: ItemClass, attributes: Attributes) -> ItemTags {
        let cached = byGroup[Self.key(itemClass, attributes.accessGroup ?? "")]?[(attributes.isSynchronizable ?? false) ? 1 : 0]
        return indexer.tags(for: itemClass, attributes: attributes, groupTag: cached)
    }

    private static func key(_ itemClass: ItemClass, _ group: String) -> [UInt8] {
        [itemClass.code] + Array(group.utf8)
    }
}

import SecStore

/// Finds the items named by ``ItemOptions`` in one class or in both, treating "nothing
/// matched" as an empty result rather than an error.
///
/// ```swift
/// let items = try ItemSearch.find(itemOptions, in: store, classes: [.genericPassword],
///                                 returning: [.attributes, .persistentReference])
/// ```
enum ItemSearch {
    static func find(_ options: ItemOptions, in store: SecretStore, classes: [ItemClass],
                     returning: ReturnOptions) throws -> [Item] {
        var found: [Item] = []
        for itemClass in classes {
            found += try store.find(options.query(for: itemClass, returning: returning))
        }
        return found
    }

    /// What a search that reports damage found: the intact items, the references of damaged
    /// items (failing authentication, or in a malformed row whose reference is readable), and
    /// how many malformed rows could not be named.
    struct DamageReport {
        var items: [Item] = []
        var damaged: [PersistentReference] = []
        var malformedRows = 0

        /// Whether anything was left out.
        var isPartial: Bool { !damaged.isEmpty || malformedRows > 0 }
    }

    /// The same, carrying on past items that fail authentication and malformed rows: they are
    /// reported beside the intact items (`list`, plaintext export).
    static func findReportingDamage(_ options: ItemOptions, in store: SecretStore, classes: [ItemClass],
                                    returning: ReturnOptions) throws -> DamageReport {
        var report = DamageReport()
        for itemClass in classes {
            let found = try store.findReportingDamage(options.query(for: itemClass, returning: returning))
            report.items += found.items
            report.damaged += found.damaged
            report.malformedRows += found.malformedRows
        }
        return report
    }

    /// The classes to search: the one the options name, else `defaultClass`, else both.
    static func classes(_ options: ItemOptions, default defaultClass: ItemClass?) -> [ItemClass] {
        options.resolvedClass(default: defaultClass).map { [$0] } ?? ItemClass.allCases
    }

    /// Sorted for display: by class, name, account, group.
    static func sorted(_ items: [Item]) -> [Item] {
        // Each item's key is computed once, not in every comparison (20,000 items make about
        // 300,000), and the sort moves indices rather than whole items.
        let keys = items.map(SortKey.init)
        return keys.withUnsafeBufferPointer { keys in
            items.indices.sorted { keys[$0] < keys[$1] }.map { items[$0] }
        }
    }

    /// What ``sorted(_:)`` orders by, compared field by field.
    private struct SortKey: Comparable {
        let itemClass: String, name: String, account: String, group: String

        init(_ item: Item) {
            itemClass = item.itemClass.rawValue
            name = ItemRendering.name(item)
            account = item.attributes.account ?? ""
            group = item.attributes.accessGroup ?? ""
        }

        static func < (left: SortKey, right: SortKey) -> Bool {
            if left.itemClass != right.itemClass { return left.itemClass < right.itemClass }
            if left.name != right.name { return left.name < right.name }
            if left.account != right.account { return left.account < right.account }
            return left.group < right.group
        }
    }

    static func notFound(_ options: ItemOptions) -> CLIError {
        CLIError(.notFound, "No item matches \(options.summary). Check the names with `secstore list`.",
                 name: SecStoreError.Code.itemNotFound.name)
    }

    static func ambiguous(_ count: Int, _ options: ItemOptions, fix: String) -> CLIError {
        CLIError.usage("\(count) items match \(options.summary). \(fix)")
    }

    /// Inside `transaction`, fails with "not found" when `query` matches nothing, and with a
    /// usage error when it matches several items and `all` was not given.
    ///
    /// ```swift
    /// try ItemSearch.requireMatches(of: query, in: transaction, options: item, all: all, verb: "delete")
    /// ```
    static func requireMatches(of query: Query, in transaction: StoreTransaction, options: ItemOptions,
                               all: Bool, verb: String) throws {
        try requireMatches(of: [query], in: transaction, options: options, all: all, verb: verb)
    }

    /// The same over several queries (one per item class), counted together.
    static func requireMatches(of queries: [Query], in transaction: StoreTransaction, options: ItemOptions,
                               all: Bool, verb: String) throws {
        let matches = try queries.reduce(0) { $0 + (try transaction.find($1).count) }
        if matches == 0 { throw notFound(options) }
        if matches > 1 && !all {
            throw ambiguous(matches, options, fix: "Pass --all to \(verb) every one, or narrow the query.")
        }
    }
}

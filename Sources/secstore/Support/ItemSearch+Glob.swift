import SecStore

/// ``ItemSearch`` for the commands with `--glob` (`list`, `delete`): the same searches, with
/// `--service` and `--account` read as patterns when `glob` is set.
///
/// ```swift
/// let items = try ItemSearch.find(options, in: store, classes: classes, returning: [.attributes], glob: true)
/// ```
extension ItemSearch {
    static func find(_ options: ItemOptions, in store: SecretStore, classes: [ItemClass],
                     returning: ReturnOptions, glob: Bool) throws -> [Item] {
        guard glob else { return try find(options, in: store, classes: classes, returning: returning) }
        var found: [Item] = []
        for itemClass in classes {
            let (query, filter) = options.globQuery(for: itemClass, returning: returning)
            found += try store.find(query).filter(filter.matches)
        }
        return found
    }

    static func findReportingDamage(_ options: ItemOptions, in store: SecretStore, classes: [ItemClass],
                                    returning: ReturnOptions, glob: Bool) throws -> DamageReport {
        guard glob else { return try findReportingDamage(options, in: store, classes: classes, returning: returning) }
        var report = DamageReport()
        for itemClass in classes {
            let (query, filter) = options.globQuery(for: itemClass, returning: returning)
            let found = try store.findReportingDamage(query)
            report.items += found.items.filter(filter.matches)
            report.damaged += found.damaged
            report.malformedRows += found.malformedRows
        }
        return report
    }

    /// Inside a transaction: the references of the items a `--glob` search matches.
    static func references(_ options: ItemOptions, in transaction: StoreTransaction, classes: [ItemClass]) throws -> [PersistentReference] {
        var references: [PersistentReference] = []
        for itemClass in classes {
            let (query, filter) = options.globQuery(for: itemClass, returning: [.attributes, .persistentReference])
            references += try transaction.find(query).filter(filter.matches).compactMap(\.persistentReference)
        }
        return references
    }
}

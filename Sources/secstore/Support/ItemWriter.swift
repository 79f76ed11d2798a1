import SecStore

/// Adds an item, or with `replacing` (`add --update`, `generate --update`) replaces the one it
/// would collide with: the item with the same primary key (class, names, group; Apple's
/// `UNIQUE` constraint, ``ItemClass/primaryKey``). Both happen in one transaction, so another
/// process never sees the item missing or half changed.
///
/// ```swift
/// let (item, replaced) = try ItemWriter.add(newItem, replacing: true, in: session.store)
/// ```
///
/// A replaced item keeps its creation date and persistent reference; it gets the new secret
/// and every attribute the new item sets (label, accessibility, comment, description).
enum ItemWriter {
    static func add(_ newItem: Item, replacing: Bool, in store: SecretStore) throws -> (item: Item, replaced: Bool) {
        let returning: ReturnOptions = [.attributes, .persistentReference]
        guard replacing else { return (try store.add(newItem, returning: returning), false) }
        return try store.write { transaction in
            guard let existing = try collision(with: newItem, in: transaction) else {
                return (try transaction.add(newItem, returning: returning), false)
            }
            try replace(existing, with: newItem, in: transaction)
            return (try transaction.items(matching: Query(persistentReference: existing, returning: returning))[0], true)
        }
    }

    /// Gives the stored item `existing` the secret and the non-key attributes of `newItem`.
    static func replace(_ existing: PersistentReference, with newItem: Item, in transaction: StoreTransaction) throws {
        var changes = Attributes()
        for (key, value) in newItem.attributes where !newItem.itemClass.primaryKey.contains(key) {
            changes[key] = value
        }
        try transaction.update(matching: Query(persistentReference: existing), with: ItemChanges(attributes: changes, data: newItem.data))
    }

    /// The stored item with `item`'s primary key, if any. The query names the primary-key
    /// attributes the new item sets; among its matches, the collision is the one whose
    /// other primary-key attributes have the value an omitted attribute gets (empty text, 0,
    /// false; reference §2).
    static func collision(with item: Item, in transaction: StoreTransaction) throws -> PersistentReference? {
        try collidingItem(with: item, in: transaction)?.persistentReference
    }

    /// The same, with the stored item's attributes (its accessibility decides whether an
    /// import may replace it, ``ImportRules``).
    static func collidingItem(with item: Item, in transaction: StoreTransaction) throws -> Item? {
        var attributes = Attributes()
        for key in item.itemClass.primaryKey where key != .synchronizable {
            if let value = item.attributes[key] { attributes[key] = value }
        }
        let synchronizable: SynchronizableMatch = item.attributes.isSynchronizable == true ? .yes : .no
        let candidates = try transaction.find(Query(itemClass: item.itemClass, attributes: attributes, synchronizable: synchronizable,
                                                    limit: .all, returning: [.attributes, .persistentReference]))
        let omitted = item.itemClass.primaryKey.filter { $0 != .synchronizable && item.attributes[$0] == nil }
        return candidates.first { candidate in
            omitted.allSatisfy { key in candidate.attributes[key].map(isOmittedValue) ?? true }
        }
    }

    private static func isOmittedValue(_ value: AttributeValue) -> Bool {
        switch value {
        case .string(let text): text.isEmpty
        case .data(let data): data.isEmpty
        case .number(let number): number == 0
        case .date: false
        }
    }
}

import Foundation
import GRDB

/// Several operations in one transaction: all of them commit, or none does.
///
/// ```swift
/// try store.write { transaction in
///     for (account, token) in tokens {
///         try transaction.add(.genericPassword(service: "api", account: account, data: token))
///     }
/// }
/// ```
///
/// A transaction is valid only inside the closure it was given to. Throwing from the
/// closure rolls everything back.
public struct StoreTransaction {
    let engine: ItemEngine
    let db: Database
    let now: Date

    /// Adds an item; see ``SecretStore/add(_:returning:)``.
    @discardableResult
    public func add(_ item: Item, returning: ReturnOptions = []) throws -> Item {
        let prepared = try engine.add(item, now: now, in: db)
        return SecretStore.result(prepared.row.stored, attributes: prepared.attributes, data: item.data ?? Data(), returning: returning)
    }

    /// Finds items, seeing this transaction's own writes; see ``SecretStore/items(matching:)``.
    public func items(matching query: Query) throws -> [Item] {
        let (_, plan) = try engine.planner.plan(for: query)
        let needs = ItemEngine.Needs(attributes: query.returning.contains(.attributes), secret: query.returning.contains(.data))
        let found = try engine.find(plan, in: db, needs: needs, limit: query.limit.maximum)
        guard !found.isEmpty else { throw SecStoreError.notFound }
        return found.map { SecretStore.result($0.item, attributes: $0.attributes, data: $0.secret, returning: query.returning) }
    }

    /// Updates items; see ``SecretStore/update(matching:with:)``.
    @discardableResult
    public func update(matching query: Query, with changes: ItemChanges) throws -> Int {
        let (itemClass, plan) = try engine.planner.plan(for: query)
        return try engine.update(plan, itemClass: itemClass, with: changes, in: db, now: now)
    }

    /// Deletes items; see ``SecretStore/delete(matching:)``.
    @discardableResult
    public func delete(matching query: Query) throws -> Int {
        let (_, plan) = try engine.planner.plan(for: query, persistentReferenceAllowsAttributes: true)
        return try engine.delete(plan, in: db)
    }
}

extension SecretStore {
    /// Runs `body` in one `BEGIN IMMEDIATE` transaction. Use it for bulk work (one fsync
    /// for the whole batch) and for read-modify-write sequences that must be atomic.
    ///
    /// ```swift
    /// let count = try store.write { transaction in
    ///     try transaction.delete(matching: Query(service: "old"))
    /// }
    /// ```
    public func write<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        try engine.database.write { db in
            try engine.beginWrite(db)
            return try body(StoreTransaction(engine: engine, db: db, now: Date()))
        }
    }
}

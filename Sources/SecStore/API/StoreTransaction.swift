import Foundation
internal import GRDB
import Synchronization

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
/// A transaction is valid only inside the closure it was given to, on the thread running it:
/// kept and used afterwards, or from another thread, its methods throw
/// ``SecStoreError/Code/invalidParameter``. Throwing from the closure rolls everything back.
public struct StoreTransaction {
    let engine: ItemEngine
    let db: Database
    let now: Date
    let scope: TransactionScope

    /// Adds an item; see ``SecretStore/add(_:returning:)``.
    ///
    /// ```swift
    /// try store.write { transaction in
    ///     try transaction.add(.genericPassword(service: "api", account: "alice", data: token))
    /// }
    /// ```
    @discardableResult
    public func add(_ item: Item, returning: ReturnOptions = []) throws -> Item {
        try perform(ItemRequest(adding: item, returning: returning)).items[0]
    }

    /// Finds items, seeing this transaction's own writes; see ``SecretStore/items(matching:)``.
    ///
    /// ```swift
    /// try store.write { transaction in
    ///     let current = try transaction.items(matching: Query(service: "api", account: "alice", returning: .data))
    ///     try transaction.add(.genericPassword(service: "api", account: "alice.backup", data: current[0].data!))
    /// }
    /// ```
    public func items(matching query: Query) throws -> [Item] {
        let found = try find(query)
        guard !found.isEmpty else { throw SecStoreError.notFound }
        return found
    }

    /// Updates items; see ``SecretStore/update(matching:with:)``.
    ///
    /// ```swift
    /// try store.write { transaction in
    ///     try transaction.update(matching: Query(service: "api", account: "alice"), with: ItemChanges(data: newToken))
    /// }
    /// ```
    @discardableResult
    public func update(matching query: Query, with changes: ItemChanges) throws -> Int {
        try SecretStore.requireMatch(try updateAll(matching: query, with: changes))
    }

    /// Deletes items; see ``SecretStore/delete(matching:)``.
    ///
    /// ```swift
    /// try store.write { transaction in
    ///     try transaction.delete(matching: Query(service: "api", account: "alice.backup"))
    /// }
    /// ```
    @discardableResult
    public func delete(matching query: Query) throws -> Int {
        try SecretStore.requireMatch(try deleteAll(matching: query))
    }

    /// The items that match `query` in this transaction, or none (not an error here).
    package func find(_ query: Query) throws -> [Item] {
        try perform(ItemRequest(.copyMatching, query: query)).items
    }

    /// Changes every item that matches `query` and returns how many: 0 when none did.
    package func updateAll(matching query: Query, with changes: ItemChanges) throws -> Int {
        try perform(ItemRequest(.update, query: query, changes: changes)).count
    }

    /// Deletes every item that matches `query` and returns how many: 0 when none did (not
    /// an error here; ``delete(matching:)`` keeps Apple's `itemNotFound`).
    package func deleteAll(matching query: Query) throws -> Int {
        try perform(ItemRequest(.delete, query: query)).count
    }

    /// Runs a request inside this transaction; only ``SecStoreError`` leaves it.
    private func perform(_ request: ItemRequest) throws -> ItemResponse {
        try scope.checkInside()
        return try SecStoreError.catching(path: engine.database.path) { try engine.perform(request, in: db, now: now) }
    }
}

/// Where a ``StoreTransaction`` may be used: inside its closure, on the thread running it.
/// Outside, its connection belongs to no one it could safely serve (GRDB stops the program
/// when a connection is used off its queue), so the transaction's methods throw instead.
final class TransactionScope: Sendable {
    private let thread = ThreadIdentity.current
    private let isOpen = Atomic<Bool>(true)

    /// Throws unless the calling thread is the closure's and the closure has not returned.
    func checkInside() throws {
        guard isOpen.load(ordering: .relaxed), ThreadIdentity.current == thread else {
            throw SecStoreError.transactionOutsideItsClosure
        }
    }

    /// The closure returned or threw: the transaction may not be used again.
    func end() {
        isOpen.store(false, ordering: .relaxed)
    }
}

extension SecretStore {
    /// Runs `body` in one `BEGIN IMMEDIATE` transaction. Use it for bulk work (one fsync
    /// for the whole batch) and for read-modify-write sequences that must be atomic.
    ///
    /// Inside `body`, write through the transaction: the store's own writing methods, called
    /// there, throw ``SecStoreError/Code/invalidParameter`` (the transaction holds the
    /// writer) and leave the transaction as it was.
    ///
    /// ```swift
    /// let count = try store.write { transaction in
    ///     try transaction.delete(matching: Query(service: "old"))
    /// }
    /// ```
    public func write<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        try engine.database.write { db in
            try engine.beginWrite(db)
            let scope = TransactionScope()
            defer { scope.end() }
            return try body(StoreTransaction(engine: engine, db: db, now: Date(), scope: scope))
        }
    }
}

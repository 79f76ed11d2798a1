import Foundation

extension SecretStore {
    /// Adds an item (`SecItemAdd`).
    ///
    /// ```swift
    /// try store.add(.genericPassword(service: "api", account: "alice", data: Data("pw".utf8)))
    /// ```
    ///
    /// The item goes into its ``Attributes/accessGroup`` or the caller's default group, with
    /// accessibility ``Accessibility/whenUnlocked`` unless another is given. Creation and
    /// modification dates are set to now.
    ///
    /// - Parameter returning: parts of the stored item to return (attributes include the
    ///   defaults the store filled in).
    /// - Throws: ``SecStoreError`` — `duplicateItem` when an item with the same primary key
    ///   exists (nothing is written), `missingEntitlement`, `noSuchAttribute`, `invalidParameter`.
    @discardableResult
    public func add(_ item: Item, returning: ReturnOptions = []) throws -> Item {
        let prepared = try engine.database.write { db in
            try engine.beginWrite(db)
            return try engine.add(item, now: Date(), in: db)
        }
        return Self.result(prepared.row.stored, attributes: prepared.attributes, data: item.data ?? Data(), returning: returning)
    }

    /// The items that match `query` (`SecItemCopyMatching`), with the parts
    /// ``Query/returning`` asks for.
    ///
    /// ```swift
    /// let found = try store.items(matching: Query(service: "api", account: "alice", returning: .data))
    /// let password = found[0].data
    /// ```
    ///
    /// - Throws: ``SecStoreError`` — `itemNotFound` when nothing matches,
    ///   `interactionNotAllowed` when a matching item's class is locked, `corruptData` when a
    ///   matching item fails authentication.
    public func items(matching query: Query) throws -> [Item] {
        let (_, plan) = try engine.planner.plan(for: query)
        let needs = ItemEngine.Needs(attributes: query.returning.contains(.attributes), secret: query.returning.contains(.data))
        let found = try engine.database.readStatement { db, statements in
            try engine.find(plan, in: db, statements: statements, needs: needs, limit: query.limit.maximum)
        }
        guard !found.isEmpty else { throw SecStoreError.notFound }
        return found.map { Self.result($0.item, attributes: $0.attributes, data: $0.secret, returning: query.returning) }
    }

    /// Changes every item that matches `query` (`SecItemUpdate`), in one transaction.
    ///
    /// ```swift
    /// try store.update(matching: Query(service: "api", account: "alice"),
    ///                  with: ItemChanges(data: Data("new".utf8)))
    /// ```
    ///
    /// - Returns: how many items changed.
    /// - Throws: ``SecStoreError`` — `itemNotFound` when nothing matches, `duplicateItem`
    ///   when a change would give two items one primary key (nothing changes).
    @discardableResult
    public func update(matching query: Query, with changes: ItemChanges) throws -> Int {
        let (itemClass, plan) = try engine.planner.plan(for: query)
        return try engine.database.write { db in
            try engine.beginWrite(db)
            return try engine.update(plan, itemClass: itemClass, with: changes, in: db, now: Date())
        }
    }

    /// Deletes every item that matches `query` (`SecItemDelete`), in one transaction.
    ///
    /// ```swift
    /// try store.delete(matching: Query(service: "api"))   // every account of "api"
    /// ```
    ///
    /// - Returns: how many items were deleted.
    /// - Throws: ``SecStoreError`` — `itemNotFound` when nothing matches.
    @discardableResult
    public func delete(matching query: Query) throws -> Int {
        let (_, plan) = try engine.planner.plan(for: query, persistentReferenceAllowsAttributes: true)
        return try engine.database.write { db in
            try engine.beginWrite(db)
            return try engine.delete(plan, in: db)
        }
    }

    static func result(_ row: StoredItem, attributes: Attributes?, data: Data?, returning: ReturnOptions) -> Item {
        var item = Item(itemClass: row.itemClass)
        if returning.contains(.attributes) { item.attributes = attributes ?? [:] }
        if returning.contains(.data) { item.data = data ?? Data() }
        if returning.contains(.persistentReference) { item.persistentReference = row.persistentReference }
        return item
    }
}

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
    /// - Parameters:
    ///   - item: the item to add: its class, attributes and secret.
    ///   - returning: parts of the stored item to return (attributes include the
    ///     defaults the store filled in).
    /// - Throws: ``SecStoreError`` — `duplicateItem` when an item with the same primary key
    ///   exists (nothing is written), `missingEntitlement`, `noSuchAttribute`, `invalidParameter`.
    @discardableResult
    public func add(_ item: Item, returning: ReturnOptions = []) throws -> Item {
        try perform(ItemRequest(adding: item, returning: returning)).items[0]
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
        let found = try find(query)
        guard !found.isEmpty else { throw SecStoreError.notFound }
        return found
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
        try SecretStore.requireMatch(try updateAll(matching: query, with: changes))
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
        try SecretStore.requireMatch(try deleteAll(matching: query))
    }

    /// The items that match `query`, or none: finding nothing is not an error here. The
    /// convenience API, the `secstore` tool and DeviceIdentity use it;
    /// ``items(matching:)`` keeps Apple's `itemNotFound` at the public edge.
    package func find(_ query: Query) throws -> [Item] {
        try perform(ItemRequest(.copyMatching, query: query)).items
    }

    /// The items that match `query`, and the references of matching items that failed
    /// authentication or whose row is malformed (an unknown accessibility or format byte, bad
    /// tags), instead of failing the whole search; `malformedRows` counts the malformed rows
    /// too damaged to name. For the `secstore` tool's `list` and plaintext export, which show
    /// or write the rest and report the damage.
    package func findReportingDamage(_ query: Query) throws -> (items: [Item], damaged: [PersistentReference], malformedRows: Int) {
        var request = ItemRequest(.copyMatching, query: query)
        request.reportsDamage = true
        let response = try perform(request)
        return (response.items, response.damaged, response.malformedRows)
    }

    /// Changes every item that matches `query` and returns how many: 0 when none did.
    package func updateAll(matching query: Query, with changes: ItemChanges) throws -> Int {
        try perform(ItemRequest(.update, query: query, changes: changes)).count
    }

    /// Deletes every item that matches `query` and returns how many: 0 when none did.
    package func deleteAll(matching query: Query) throws -> Int {
        try perform(ItemRequest(.delete, query: query)).count
    }

    /// Runs a request built by a front end (the typed API, `KeychainServices`, the `secstore`
    /// tool): one validation, one engine call, and only ``SecStoreError`` leaves it.
    package func perform(_ request: ItemRequest) throws -> ItemResponse {
        try guarded { try engine.perform(request) }
    }

    /// Apple's entitlement rule on its own, for a front end that must apply it before
    /// reading a request: a caller with no group at all, or naming a `group` it is not
    /// entitled to, gets `missingEntitlement`.
    package func checkEntitled(toGroup group: String?) throws {
        if let group {
            try engine.rules.checkEntitled(toGroup: group)
        } else {
            try engine.rules.checkEntitled()
        }
    }

    /// Apple's contract for update and delete: touching nothing is `itemNotFound`.
    static func requireMatch(_ count: Int) throws -> Int {
        guard count > 0 else { throw SecStoreError.notFound }
        return count
    }
}

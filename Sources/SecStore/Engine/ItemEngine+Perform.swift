import Foundation
internal import GRDB

extension ItemEngine {
    /// Validates `request` once (``RequestRules``) and runs it: a search on a reader
    /// connection, a write in its own `BEGIN IMMEDIATE` transaction.
    func perform(_ request: ItemRequest, now: Date = Date()) throws -> ItemResponse {
        let valid = try RequestRules.validate(request, access: rules, now: now)
        if valid.operation == .copyMatching {
            // The closure captures only what the read needs, not the whole request.
            let plan = planner.plan(for: valid), needs = Needs(valid), limit = valid.limit, returns = valid.returns
            return try database.readStatement { connection in
                try search(plan, needs: needs, limit: limit, returning: returns, on: connection)
            }
        }
        return try database.write { db in
            try beginWrite(db)
            return try run(valid, in: db, now: now)
        }
    }

    /// Validates and runs `request` inside the caller's transaction (``StoreTransaction``),
    /// seeing its earlier writes.
    func perform(_ request: ItemRequest, in db: Database, now: Date) throws -> ItemResponse {
        try run(try RequestRules.validate(request, access: rules, now: now), in: db, now: now)
    }

    private func run(_ valid: ValidRequest, in db: Database, now: Date) throws -> ItemResponse {
        switch valid.operation {
        case .add:
            let prepared = try sealNewRow(valid.itemClass, attributes: valid.attributes, secret: valid.data, in: db)
            try insert(prepared, in: db)
            let item = Self.item(Found(item: prepared.row.stored, attributes: prepared.attributes, secret: valid.data),
                                 returning: valid.returns)
            return ItemResponse(items: [item], count: 1)
        case .copyMatching:
            return try search(planner.plan(for: valid), needs: Needs(valid), limit: valid.limit, returning: valid.returns,
                              on: SearchConnection(onQueue: db))
        case .update:
            let changes = try bind(valid.changes ?? ItemChanges(), of: valid.itemClass, in: db)
            return ItemResponse(items: [], count: try update(planner.plan(for: valid), with: changes, in: db, now: now))
        case .delete:
            return ItemResponse(items: [], count: try delete(planner.plan(for: valid), in: db))
        }
    }

    /// Runs a validated search on `connection`: its matches as items, or, for a search that
    /// reports damage, the items and the references of damaged and malformed rows.
    private func search(_ plan: QueryPlan, needs: Needs, limit: Int?, returning returns: ReturnOptions,
                        on connection: SearchConnection) throws -> ItemResponse {
        guard needs.reportsDamage else {
            // No match is damaged (a damaged row fails the search): each becomes its item at once.
            let items = try find(plan, on: connection, needs: needs, limit: limit) { Self.item($0, returning: returns) }
            return ItemResponse(items: items, count: items.count)
        }
        var malformed: [PersistentReference?] = []
        var found = try find(plan, on: connection, needs: needs, limit: limit, malformed: { malformed.append($0) })
        var response = Self.response(&found, returning: returns)
        response.damaged += malformed.compactMap { $0 }
        response.malformedRows = malformed.filter { $0 == nil }.count
        return response
    }

    /// The items and damaged references of a search that reports damage. The short secrets
    /// `found` holds inline are zeroed once the items have their copies.
    private static func response(_ found: inout [Found], returning returns: ReturnOptions) -> ItemResponse {
        var items: [Item] = []
        items.reserveCapacity(found.count)
        var damaged: [PersistentReference] = []
        for entry in found {
            if entry.isDamaged {
                damaged.append(entry.item.persistentReference)
            } else {
                items.append(item(entry, returning: returns))
            }
        }
        found.zeroInlineSecrets()
        return ItemResponse(items: items, count: items.count, damaged: damaged)
    }

    /// A found or added item with the parts `returning` asks for. Its attributes and secret
    /// are moved out of `found`, not copied.
    static func item(_ found: consuming Found, returning: ReturnOptions) -> Item {
        var item = Item(itemClass: found.item.itemClass)
        if returning.contains(.attributes) { item.attributes = found.attributes.take() ?? [:] }
        if returning.contains(.data) { item.data = found.secret.take() ?? Data() }
        if returning.contains(.persistentReference) { item.persistentReference = found.item.persistentReference }
        return item
    }
}

extension ItemEngine.Needs {
    /// What to open of each row for a validated search.
    init(_ valid: ValidRequest) {
        self.init(attributes: valid.returns.contains(.attributes), secret: valid.returns.contains(.data),
                  reportsDamage: valid.reportsDamage)
    }
}

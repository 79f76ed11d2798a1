import Foundation
internal import GRDB

extension ItemEngine {
    /// Validates `request` once (``RequestRules``) and runs it: a search on a reader
    /// connection, a write in its own `BEGIN IMMEDIATE` transaction.
    func perform(_ request: ItemRequest, now: Date = Date()) throws -> ItemResponse {
        let valid = try RequestRules.validate(request, access: rules, now: now)
        if valid.operation == .copyMatching {
            // The closure captures only what the read needs, not the whole request.
            let plan = planner.plan(for: valid), needs = Needs(valid), limit = valid.limit
            guard needs.reportsDamage else {
                let found = try database.readStatement { connection in
                    try find(plan, on: connection, needs: needs, limit: limit)
                }
                return Self.response(found, returning: valid.returns)
            }
            // A search that reports damage reports malformed rows too, and goes on.
            var malformed: [PersistentReference?] = []
            let found = try database.readStatement { connection in
                malformed = []
                return try find(plan, on: connection, needs: needs, limit: limit) { malformed.append($0) }
            }
            var response = Self.response(found, returning: valid.returns)
            response.damaged += malformed.compactMap { $0 }
            response.malformedRows = malformed.filter { $0 == nil }.count
            return response
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
            let item = Self.item(prepared.row.stored, attributes: prepared.attributes, data: valid.data, returning: valid.returns)
            return ItemResponse(items: [item], count: 1)
        case .copyMatching:
            let found = try find(planner.plan(for: valid), in: db, needs: Needs(valid), limit: valid.limit)
            return Self.response(found, returning: valid.returns)
        case .update:
            let changes = try bind(valid.changes ?? ItemChanges(), of: valid.itemClass, in: db)
            return ItemResponse(items: [], count: try update(planner.plan(for: valid), with: changes, in: db, now: now))
        case .delete:
            return ItemResponse(items: [], count: try delete(planner.plan(for: valid), in: db))
        }
    }

    private static func response(_ found: [Found], returning returns: ReturnOptions) -> ItemResponse {
        // One pass, one array: every search answers through here.
        var items: [Item] = []
        items.reserveCapacity(found.count)
        var damaged: [PersistentReference] = []
        for entry in found {
            if entry.isDamaged {
                damaged.append(entry.item.persistentReference)
            } else {
                items.append(item(entry.item, attributes: entry.attributes, data: entry.secret, returning: returns))
            }
        }
        return ItemResponse(items: items, count: items.count, damaged: damaged)
    }

    /// A found or added item with the parts `returning` asks for.
    static func item(_ row: StoredItem, attributes: Attributes?, data: Data?, returning: ReturnOptions) -> Item {
        var item = Item(itemClass: row.itemClass)
        if returning.contains(.attributes) { item.attributes = attributes ?? [:] }
        if returning.contains(.data) { item.data = data ?? Data() }
        if returning.contains(.persistentReference) { item.persistentReference = row.persistentReference }
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

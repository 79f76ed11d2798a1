import Foundation
import GRDB

extension ItemEngine {
    /// A row ready to insert: validated, defaulted, tagged and sealed.
    struct PreparedItem {
        var row: ItemRow
        var attributes: Attributes
        var metadata: Data
        var secret: Data
    }

    /// Applies Apple's add rules: class attributes only, values converted by kind, the
    /// caller's default group, `WhenUnlocked` by default, `sync` false by default, and
    /// creation and modification dates set to now whatever the caller gave.
    func prepare(_ item: Item, now: Date, in db: Database) throws -> PreparedItem {
        try rules.checkEntitled()
        var attributes = try AttributeRules.normalize(item.attributes, for: item.itemClass)
        attributes[.accessGroup] = .string(try rules.groupForNewItem(explicit: attributes[.accessGroup]?.stringValue))
        attributes.accessibility = attributes.accessibility ?? .whenUnlocked
        attributes[.synchronizable] = .bool(attributes[.synchronizable]?.boolValue ?? false)
        attributes[.creationDate] = .date(now)
        attributes[.modificationDate] = .date(now)
        return try sealNewRow(item.itemClass, attributes: attributes, secret: item.data ?? Data(), in: db)
    }

    /// Seals a new row for complete attributes (group, accessibility, `sync` and dates set).
    func sealNewRow(_ itemClass: ItemClass, attributes: Attributes, secret: Data, in db: Database) throws -> PreparedItem {
        let attributes = AttributeRules.fillingPrimaryKeyDefaults(attributes, for: itemClass)
        let accessibility = attributes.accessibility ?? .whenUnlocked
        let keys = try vault.itemKeys(for: accessibility, in: db)
        try vault.checkClassExists(accessibility, in: db)
        let stored = StoredItem(id: 0, ref: try SecureRandom.bytes(PersistentReference.idByteCount), itemClass: itemClass,
                                accessibility: accessibility)
        let row = ItemRow(stored: stored, tags: planner.groupTags.tags(for: itemClass, attributes: attributes))
        return try seal(row: row, attributes: attributes, secret: secret, keys: keys)
    }

    func seal(row: ItemRow, attributes: Attributes, secret: Data, keys: ItemKeys) throws -> PreparedItem {
        PreparedItem(row: row, attributes: attributes,
                     metadata: sealMetadata(attributes, row: row, keys: keys),
                     secret: ItemSealing.seal(secret, .secret, binding: row.binding(storeID: vault.storeID), keys: keys))
    }

    func sealMetadata(_ attributes: Attributes, row: ItemRow, keys: ItemKeys) -> Data {
        var plain = MetadataCodec.encode(attributes)
        defer { Wipe.bytes(&plain) }
        return ItemSealing.seal(plain, .metadata, binding: row.binding(storeID: vault.storeID), keys: keys)
    }

    /// Validates, seals and inserts `item` in the caller's transaction.
    func add(_ item: Item, now: Date, in db: Database) throws -> PreparedItem {
        let prepared = try prepare(item, now: now, in: db)
        try insert(prepared, in: db)
        return prepared
    }

    /// Inserts a prepared item. A primary-key collision is `duplicateItem` and writes nothing.
    func insert(_ prepared: PreparedItem, in db: Database) throws {
        let row = prepared.row
        do {
            try db.cachedStatement(sql: """
                INSERT INTO items (ref, class, accessibility, pk_tag, name_tag, account_tag, group_tag, metadata, secret)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [
                    Data(row.ref), Int64(row.itemClass.code), Int64(row.accessibility.code),
                    Data(row.tags.primaryKey), Data(row.tags.name), Data(row.tags.account), Data(row.tags.group),
                    prepared.metadata, prepared.secret,
                ])
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw Self.duplicate(row.itemClass)
        }
    }

    static func duplicate(_ itemClass: ItemClass) -> SecStoreError {
        let key = itemClass.primaryKey.map(\.rawValue).joined(separator: ", ")
        return SecStoreError(.duplicateItem, "An item with the same primary key (\(itemClass): \(key)) already exists. Update it instead, or change one of those attributes.")
    }
}

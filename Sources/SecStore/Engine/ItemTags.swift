/// The blind indexes of one item row: keyed BLAKE2b digests that SQLite compares instead
/// of the attribute values, which never reach the file.
///
/// Each digest covers a domain label, the class and the `sync` flag, then the value, each
/// part length-prefixed, so no two different inputs share an encoding. Folding `sync` into
/// every tag keeps it out of the file too: a query for non-synchronizable items simply
/// asks for the `sync = 0` tags.
struct ItemTags: Sendable, Equatable {
    /// Over the whole primary key; `UNIQUE` in SQL, so the database itself refuses duplicates.
    var primaryKey: [UInt8]
    /// Over the service (generic passwords) or the server (internet passwords).
    var name: [UInt8]
    var account: [UInt8]
    var group: [UInt8]
    /// One per free-form attribute (``Attributes/custom``), in the `item_attributes` table.
    /// Not part of the sealed blobs' associated data: the sealed metadata holds the pairs
    /// themselves, and every search checks them after decryption, so a tag row added,
    /// moved or removed in the file can hide an item from a search but never make a wrong
    /// item match (docs/design.md, "Free-form attributes").
    var custom: [[UInt8]] = []

    static let primaryKeyByteCount = 32
    static let tagByteCount = 16

    /// Whether stored tags have the lengths SecStore writes; anything else is a damaged row.
    static func haveValidLengths(primaryKey: Int, name: Int, account: Int, group: Int) -> Bool {
        primaryKey == primaryKeyByteCount && name == tagByteCount && account == tagByteCount && group == tagByteCount
    }
}

extension ItemClass {
    /// The attribute behind the `name_tag` column.
    var nameKey: AttributeKey {
        switch self {
        case .genericPassword: .service
        case .internetPassword: .server
        }
    }
}

extension BlindIndexer {
    /// The tags of an item whose attributes are normalized and complete (primary-key
    /// defaults filled, access group and `sync` set). `groupTag`, when given, is the group
    /// tag already computed for this class, group and `sync`.
    func tags(for itemClass: ItemClass, attributes: Attributes, groupTag: [UInt8]? = nil) -> ItemTags {
        let sync = attributes[.synchronizable]?.boolValue ?? false
        return ItemTags(
            primaryKey: primaryKeyTag(for: itemClass, attributes: attributes),
            name: tag(.name, itemClass: itemClass, sync: sync, value: attributes[itemClass.nameKey] ?? .string("")),
            account: tag(.account, itemClass: itemClass, sync: sync, value: attributes[.account] ?? .string("")),
            group: groupTag ?? tag(.group, itemClass: itemClass, sync: sync, value: attributes[.accessGroup] ?? .string("")),
            custom: customTags(for: itemClass, attributes: attributes))
    }

    /// The tags of an item's free-form attributes (``Attributes/custom``), one per pair: what
    /// `item_attributes` holds for it, and what `verify` expects there.
    func customTags(for itemClass: ItemClass, attributes: Attributes) -> [[UInt8]] {
        let sync = attributes[.synchronizable]?.boolValue ?? false
        return attributes.custom.map { customTag(itemClass: itemClass, sync: sync, name: $0.key, value: $0.value) }
    }

    /// The tag of one free-form attribute of an item of `itemClass` and `sync`: the name
    /// and the value, each length-prefixed, so no two pairs share an encoding.
    func customTag(itemClass: ItemClass, sync: Bool, name: String, value: String) -> [UInt8] {
        digest(byteCount: ItemTags.tagByteCount) { message in
            message.append(contentsOf: Self.customPrefix)
            message.append(itemClass.code)
            message.append(sync ? 1 : 0)
            AttributeRules.appendCanonicalBytes(.string(name), kind: .blob, lengthPrefixed: true, to: &message)
            AttributeRules.appendCanonicalBytes(.string(value), kind: .blob, lengthPrefixed: true, to: &message)
        }
    }

    /// The `pk_tag` of an item with these primary-key attributes (omitted ones take their
    /// defaults).
    package func primaryKeyTag(for itemClass: ItemClass, attributes: Attributes) -> [UInt8] {
        digest(byteCount: ItemTags.primaryKeyByteCount) { message in
            message.append(contentsOf: Self.primaryKeyPrefix)
            message.append(itemClass.code)
            for key in itemClass.primaryKey {
                let value = attributes[key] ?? AttributeRules.defaultValue(for: key) ?? .string("")
                message.append(key.code)
                AttributeRules.appendCanonicalBytes(value, kind: key.kind, lengthPrefixed: true, to: &message)
            }
        }
    }

    /// ``primaryKeyTag(for:attributes:)`` of a generic password, without building its
    /// attributes: the hot lookup by service and account.
    func genericPasswordPrimaryKeyTag(account: AttributeValue, service: AttributeValue, group: String, sync: Bool) -> [UInt8] {
        digest(byteCount: ItemTags.primaryKeyByteCount) { message in
            message.append(contentsOf: Self.primaryKeyPrefix)
            message.append(ItemClass.genericPassword.code)
            // The class's own primary key, in its order: the same bytes primaryKeyTag(for:attributes:) hashes.
            for key in ItemClass.genericPassword.primaryKey {
                let value: AttributeValue = switch key {
                case .account: account
                case .service: service
                case .accessGroup: .string(group)
                case .synchronizable: .bool(sync)
                default: AttributeRules.defaultValue(for: key) ?? .string("")
                }
                message.append(key.code)
                AttributeRules.appendCanonicalBytes(value, kind: key.kind, lengthPrefixed: true, to: &message)
            }
        }
    }

    enum Column: String, CaseIterable {
        case name, account, group
    }

    /// The tag a row has in `column` when the attribute behind it equals `value`.
    func tag(_ column: Column, itemClass: ItemClass, sync: Bool, value: AttributeValue) -> [UInt8] {
        digest(byteCount: ItemTags.tagByteCount) { message in
            message.append(contentsOf: Self.prefix(of: column))
            message.append(itemClass.code)
            message.append(sync ? 1 : 0)
            AttributeRules.appendCanonicalBytes(value, kind: column == .group ? .string : .blob, lengthPrefixed: true, to: &message)
        }
    }

    /// `"secstore/tag/v1/" ‖ len ‖ domain` for each domain, built once (constants rather
    /// than a dictionary: the primary-key tag is computed on every read).
    private static let primaryKeyPrefix = prefix(domain: "pk")
    private static let namePrefix = prefix(domain: Column.name.rawValue)
    private static let accountPrefix = prefix(domain: Column.account.rawValue)
    private static let groupPrefix = prefix(domain: Column.group.rawValue)
    private static let customPrefix = prefix(domain: "custom")

    private static func prefix(of column: Column) -> [UInt8] {
        switch column {
        case .name: namePrefix
        case .account: accountPrefix
        case .group: groupPrefix
        }
    }

    private static func prefix(domain: String) -> [UInt8] {
        var prefix = Array("secstore/tag/v1/".utf8)
        prefix.append(bigEndian: UInt32(domain.utf8.count))
        prefix.append(utf8: domain)
        return prefix
    }
}

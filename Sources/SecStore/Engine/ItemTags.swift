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

    static let primaryKeyByteCount = 32
    static let tagByteCount = 16
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
    /// defaults filled, access group and `sync` set).
    func tags(for itemClass: ItemClass, attributes: Attributes) -> ItemTags {
        let sync = attributes[.synchronizable]?.boolValue ?? false
        var message = Self.prefix("pk", itemClass: itemClass, sync: nil)
        for key in itemClass.primaryKey {
            let value = attributes[key] ?? AttributeRules.defaultValue(for: key) ?? .string("")
            message.append(key.code)
            Self.appendLengthPrefixed(AttributeRules.canonicalBytes(value, kind: key.kind), to: &message)
        }
        return ItemTags(
            primaryKey: digest(message, byteCount: ItemTags.primaryKeyByteCount),
            name: tag(.name, itemClass: itemClass, sync: sync, value: attributes[itemClass.nameKey] ?? .string("")),
            account: tag(.account, itemClass: itemClass, sync: sync, value: attributes[.account] ?? .string("")),
            group: tag(.group, itemClass: itemClass, sync: sync, value: attributes[.accessGroup] ?? .string("")))
    }

    enum Column: String {
        case name, account, group
    }

    /// The tag a row has in `column` when the attribute behind it equals `value`.
    func tag(_ column: Column, itemClass: ItemClass, sync: Bool, value: AttributeValue) -> [UInt8] {
        let kind: AttributeKind = column == .group ? .string : .blob
        var message = Self.prefix(column.rawValue, itemClass: itemClass, sync: sync)
        Self.appendLengthPrefixed(AttributeRules.canonicalBytes(value, kind: kind), to: &message)
        return digest(message, byteCount: ItemTags.tagByteCount)
    }

    private static func prefix(_ domain: String, itemClass: ItemClass, sync: Bool?) -> [UInt8] {
        var message = Array("secstore/tag/v1/".utf8)
        appendLengthPrefixed(Array(domain.utf8), to: &message)
        message.append(itemClass.code)
        if let sync { message.append(sync ? 1 : 0) }
        return message
    }

    private static func appendLengthPrefixed(_ bytes: [UInt8], to message: inout [UInt8]) {
        let length = UInt32(bytes.count).bigEndian
        withUnsafeBytes(of: length) { message.append(contentsOf: $0) }
        message.append(contentsOf: bytes)
    }
}

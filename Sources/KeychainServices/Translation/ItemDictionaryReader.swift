import Foundation
import SecStore

/// Reads the dictionary given to `SecItemAdd`, `SecItemCopyMatching`, `SecItemDelete`, or
/// the query of `SecItemUpdate` into the engine's one request type. It checks what only a
/// dictionary can get wrong — key spellings, CF value types, which keys each function takes
/// (reference §4.0) — and leaves every keychain rule to the engine, which validates the
/// request once.
struct ItemDictionaryReader {
    let operation: ItemRequest.Operation

    func read(_ dictionary: NSDictionary) throws -> ItemRequest {
        let entries = try DictionaryEntries(dictionary)
        try AttributeReader.checkAccessKeys(entries)
        var request = ItemRequest(operation, itemClass: try itemClass(in: entries))
        for entry in entries {
            switch entry.kind {
            case .itemClass, .ignored: continue
            case .attribute: try readAttribute(entry.key, entry.value, into: &request)
            case .match: try readMatch(entry.key, entry.value, into: &request)
            case .returning: try readReturn(entry.key, entry.value, into: &request)
            case .use: try readUse(entry.key, entry.value)
            case .value: try readValue(entry.key, entry.value, into: &request)
            case .invalid: throw SecStoreError.invalid("\"\(entry.key)\" is not a SecItem dictionary key")
            }
        }
        return request
    }

    /// `kSecClass`, when given. Certificates, keys and identities exist on Apple systems but
    /// SecStore stores only passwords.
    private func itemClass(in entries: DictionaryEntries) throws -> ItemClass? {
        guard let value = entries.itemClassValue else { return nil }
        guard let name = value.string else {
            throw SecStoreError.invalid("kSecClass must be a string such as kSecClassGenericPassword")
        }
        if let itemClass = ItemClass(rawValue: name) { return itemClass }
        try Self.checkNotUnsupported(name)
        throw SecStoreError(.noSuchClass, "\"\(name)\" is not an item class")
    }

    /// Certificates, keys and identities, named by `kSecClass` or by a persistent reference's
    /// first four bytes, are `errSecUnimplemented`: fail closed, where Apple would look.
    static func checkNotUnsupported(_ className: String) throws {
        if Keys.unsupportedClasses.contains(className) {
            throw SecStoreError(.unsupported, "SecStore stores generic and internet passwords, not \"\(className)\" items")
        }
    }

    private func readAttribute(_ key: String, _ value: DictionaryValue, into request: inout ItemRequest) throws {
        switch try AttributeReader.read(key, value) {
        case .ignored: break
        case .synchronizable(let synchronizable): request.synchronizable = synchronizable
        case .attribute(let attributeKey, let attributeValue): request.attributes[attributeKey] = attributeValue
        case .accessControl(let control): AttributeReader.apply(control, to: &request.attributes)
        }
    }
}

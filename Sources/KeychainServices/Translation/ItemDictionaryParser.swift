import Foundation
import SecStore

/// Reads the dictionary given to `SecItemAdd`, `SecItemCopyMatching`, `SecItemDelete`, or
/// the query of `SecItemUpdate`, with Apple's rules (reference §4.0) and each function's
/// restrictions (§4.2–4.5). Failures carry Apple's status for the same dictionary.
struct ItemDictionaryParser {
    let operation: SecItemOperation

    func parse(_ dictionary: NSDictionary) throws -> ItemDictionary {
        let entries = try DictionaryEntries(dictionary)
        let reference = try persistentReference(in: entries)
        var parsed = ItemDictionary(itemClass: try itemClass(in: entries, reference: reference),
                                    persistentReference: reference)
        for (key, value) in entries.entries {
            switch DictionaryKey(key) {
            case .itemClass, .ignored: continue
            case .attribute: try readAttribute(key, value, into: &parsed)
            case .match: try readMatch(key, value, into: &parsed)
            case .returning: try readReturn(key, value, into: &parsed)
            case .use: try readUse(key, value)
            case .value: try readValue(key, value, into: &parsed)
            case .invalid: throw SecItemFailure(errSecItemInvalidKey, "\"\(key)\" is not a SecItem dictionary key")
            }
        }
        try checkCombinations(parsed)
        return parsed
    }

    /// `kSecClass`, or the class a persistent reference names. Certificates, keys and
    /// identities exist on Apple systems but SecStore stores only passwords.
    private func itemClass(in entries: DictionaryEntries, reference: PersistentReference?) throws -> ItemClass {
        guard let value = entries["class"] else {
            if let reference { return reference.itemClass }
            throw SecItemFailure(errSecItemClassMissing, "the dictionary has no kSecClass")
        }
        guard let name = DictionaryValue.string(value) else {
            throw SecItemFailure.parameter("kSecClass must be a string such as kSecClassGenericPassword")
        }
        if let itemClass = ItemClass(rawValue: name) {
            if let reference, reference.itemClass != itemClass {
                throw SecItemFailure(errSecNoSuchClass, "the persistent reference names a \(reference.itemClass) item, kSecClass is \(itemClass)")
            }
            return itemClass
        }
        if Self.unsupportedClasses.contains(name) {
            throw SecItemFailure(errSecUnimplemented, "SecStore stores generic and internet passwords, not \"\(name)\" items")
        }
        throw SecItemFailure(errSecNoSuchClass, "\"\(name)\" is not an item class")
    }

    /// `kSecClassCertificate`, `kSecClassKey`, `kSecClassIdentity`.
    static let unsupportedClasses: Set<String> = ["cert", "keys", "idnt"]

    private func persistentReference(in entries: DictionaryEntries) throws -> PersistentReference? {
        guard let value = entries["v_PersistentRef"] else { return nil }
        guard operation != .add else {
            throw SecItemFailure(errSecValuePersistentRefUnsupported, "SecItemAdd does not take kSecValuePersistentRef")
        }
        guard let data = DictionaryValue.data(value), let reference = PersistentReference(data: data) else {
            throw SecItemFailure.parameter("kSecValuePersistentRef must be a persistent reference returned by kSecReturnPersistentRef")
        }
        return reference
    }

    /// Rules that concern several keys at once.
    private func checkCombinations(_ parsed: ItemDictionary) throws {
        if operation == .update && !parsed.returns.isEmpty {
            throw SecItemFailure(errSecReturnDataUnsupported, "SecItemUpdate's query may not ask for results (kSecReturn…)")
        }
        // A persistent reference names one item: SecItemCopyMatching refuses any attribute
        // beside it (the engine checks the others; sync is not among SecStore's attributes).
        if operation == .copyMatching && parsed.persistentReference != nil && parsed.synchronizable != nil {
            throw SecItemFailure(errSecItemIllegalQuery, "kSecValuePersistentRef cannot be combined with attributes")
        }
    }
}

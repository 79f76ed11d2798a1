import Foundation
import SecStore

/// Reads one four-character key and its value, for queries, items and the changes of
/// `SecItemUpdate` alike.
enum AttributeReader {
    enum Outcome {
        /// A key Apple accepts and ignores (`kSecUseDataProtectionKeychain`, `"nleg"`).
        case ignored
        case synchronizable(ItemDictionary.Synchronizable)
        case attribute(AttributeKey, AttributeValue)
    }

    /// - Throws: `errSecNoSuchAttr` for an attribute the class does not have,
    ///   `errSecParam` for a value of the wrong type and for `kSecAttrAccessControl`.
    static func read(_ key: String, _ value: Any, itemClass: ItemClass) throws -> Outcome {
        switch key {
        case "nleg":
            return .ignored
        case "accc":
            throw SecItemFailure.parameter("kSecAttrAccessControl is not supported: SecStore has no SecAccessControl; use kSecAttrAccessible")
        case "sync":
            return .synchronizable(try synchronizable(value))
        default:
            break
        }
        guard let attributeKey = AttributeKey(rawValue: key), itemClass.attributeKeys.contains(attributeKey) else {
            throw SecItemFailure.noSuchAttribute(key, itemClass)
        }
        guard let attributeValue = DictionaryValue.attributeValue(value) else {
            throw SecItemFailure(errSecItemInvalidValue, "\(key) takes a string, data, a number or a date, not \(type(of: value))")
        }
        return .attribute(attributeKey, attributeValue)
    }

    /// A boolean, a number (non-zero is true), or `kSecAttrSynchronizableAny`.
    static func synchronizable(_ value: Any) throws -> ItemDictionary.Synchronizable {
        if let flag = DictionaryValue.boolean(value) { return flag ? .yes : .no }
        if let number = DictionaryValue.integer(value) { return number != 0 ? .yes : .no }
        if let string = DictionaryValue.string(value) {
            if string == "syna" { return .any }
            if let number = Int64(string) { return number != 0 ? .yes : .no }
        }
        throw SecItemFailure(errSecItemInvalidValue, "kSecAttrSynchronizable must be a boolean or kSecAttrSynchronizableAny")
    }
}

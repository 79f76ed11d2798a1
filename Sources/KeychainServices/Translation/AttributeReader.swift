import Foundation
import SecStore

/// Reads one four-character key and its value, for queries, items and the changes of
/// `SecItemUpdate` alike. Whether the item's class has the attribute is the engine's rule
/// (`ClassRules`), checked once on the whole request.
enum AttributeReader {
    enum Outcome {
        /// A key Apple accepts and ignores (`kSecUseDataProtectionKeychain`).
        case ignored
        case synchronizable(SynchronizableMatch)
        case attribute(AttributeKey, AttributeValue)
        /// `kSecAttrAccessControl`: the item's accessibility and its constraints.
        case accessControl(SecAccessControl)
    }

    /// - Throws: `noSuchAttribute` for a key that names no attribute, `invalidParameter` for
    ///   a value of the wrong type (`kSecAttrAccessControl` takes a ``SecAccessControl``).
    static func read(_ key: String, _ value: DictionaryValue) throws -> Outcome {
        switch key {
        case Keys.dataProtectionKeychain:
            return .ignored
        case Keys.accessControl:
            guard case .other(let object) = value, let control = object as? SecAccessControl else {
                throw SecStoreError.invalid("kSecAttrAccessControl takes a SecAccessControl (SecAccessControlCreateWithFlags), not \(value.typeName)")
            }
            return .accessControl(control)
        case Keys.synchronizable:
            return .synchronizable(try synchronizable(value))
        default:
            break
        }
        guard let attributeKey = AttributeKey(rawValue: key) else {
            throw SecStoreError(.noSuchAttribute, "No item class has the attribute \"\(key)\".")
        }
        guard let attributeValue = value.attributeValue else {
            throw SecStoreError.invalid("\(key) takes a string, data, a number or a date, not \(value.typeName)")
        }
        return .attribute(attributeKey, attributeValue)
    }

    /// Apple refuses a dictionary that gives both `kSecAttrAccessible` and
    /// `kSecAttrAccessControl`, whose protection already says the accessibility.
    static func checkAccessKeys(_ entries: DictionaryEntries) throws {
        // The second look-up only when the first found something: most dictionaries have neither.
        guard entries.value(of: Keys.accessControl, kind: .attribute) != nil,
              entries.value(of: Keys.accessible, kind: .attribute) != nil
        else { return }
        throw SecStoreError.invalid("Give kSecAttrAccessControl or kSecAttrAccessible, not both: the access control's protection is the accessibility")
    }

    /// Puts an access control into attributes: its protection as the accessibility, its
    /// flags as `accc`.
    static func apply(_ control: SecAccessControl, to attributes: inout Attributes) {
        attributes.accessibility = control.protection
        attributes.accessControlFlags = control.flags
    }

    /// A boolean, a number (non-zero is true), or `kSecAttrSynchronizableAny`.
    static func synchronizable(_ value: DictionaryValue) throws -> SynchronizableMatch {
        if let flag = value.boolean { return flag ? .yes : .no }
        if let number = value.integer { return number != 0 ? .yes : .no }
        if let string = value.string {
            if string == Keys.synchronizableAny { return .any }
            if let number = Int64(string) { return number != 0 ? .yes : .no }
        }
        throw SecStoreError.invalid("kSecAttrSynchronizable must be a boolean or kSecAttrSynchronizableAny")
    }
}

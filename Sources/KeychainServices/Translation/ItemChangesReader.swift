import Foundation
import SecStore

/// Reads the attributes-to-update dictionary of `SecItemUpdate`: attributes and
/// `kSecValueData`, nothing else (reference §4.4). Which attributes the class has is the
/// engine's rule, checked on the request.
enum ItemChangesReader {
    static func read(_ dictionary: NSDictionary) throws -> ItemChanges {
        var changes = ItemChanges()
        let entries = try DictionaryEntries(dictionary)
        try AttributeReader.checkAccessKeys(entries)
        for entry in entries {
            switch entry.key {
            case Keys.valueData:
                changes.data = try ItemDictionaryReader.secret(entry.value)
            case Keys.multiUser:
                // Apple ignores the multi-user attribute here; SecStore has no such attribute.
                continue
            case _ where entry.kind == .attribute:
                switch try AttributeReader.read(entry.key, entry.value) {
                case .ignored:
                    continue
                case .synchronizable(.any):
                    throw SecStoreError.invalid("an item cannot be updated to kSecAttrSynchronizableAny; use true or false")
                case .synchronizable(let synchronizable):
                    changes.attributes[.synchronizable] = .bool(synchronizable == .yes)
                case .attribute(let attributeKey, let attributeValue):
                    changes.attributes[attributeKey] = attributeValue
                case .accessControl(let control):
                    AttributeReader.apply(control, to: &changes.attributes)
                }
            default:
                // Apple: every key that is not an attribute, kSecClass and kSecReturn…
                // included, is an unknown attribute here.
                throw SecStoreError(.noSuchAttribute, "SecItemUpdate's changes take attributes and kSecValueData, not \"\(entry.key)\"")
            }
        }
        return changes
    }
}

import Foundation
import SecStore

/// Reads the attributes-to-update dictionary of `SecItemUpdate`: attributes of the item's
/// class and `kSecValueData`, nothing else (reference §4.4).
struct ItemChangesParser {
    let itemClass: ItemClass

    func parse(_ dictionary: NSDictionary) throws -> ItemChanges {
        var changes = ItemChanges()
        for (key, value) in try DictionaryEntries(dictionary).entries {
            switch key {
            case "v_Data":
                guard let data = DictionaryValue.data(value) else {
                    throw SecItemFailure(errSecItemInvalidValue, "kSecValueData must be Data, not \(type(of: value))")
                }
                changes.data = data
            case "musr":
                // Apple ignores the multi-user attribute here; SecStore has no such attribute.
                continue
            case _ where key.utf16.count == 4:
                switch try AttributeReader.read(key, value, itemClass: itemClass) {
                case .ignored:
                    continue
                case .synchronizable(.any):
                    throw SecItemFailure.parameter("an item cannot be updated to kSecAttrSynchronizableAny; use true or false")
                case .synchronizable(let synchronizable):
                    changes.attributes[.synchronizable] = .bool(synchronizable == .yes)
                case .attribute(let attributeKey, let attributeValue):
                    changes.attributes[attributeKey] = attributeValue
                }
            default:
                // Apple: every key that is not an attribute of the class, kSecClass and
                // kSecReturn… included, is an unknown attribute here.
                throw SecItemFailure.noSuchAttribute(key, itemClass)
            }
        }
        return changes
    }
}

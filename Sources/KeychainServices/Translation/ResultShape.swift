import Foundation
import SecStore

/// What a SecItem call hands back for the return keys it was given (reference §4.3):
///
/// | return keys | one item | several (kSecMatchLimitAll or a number > 1) |
/// | --- | --- | --- |
/// | none | no object | empty array |
/// | kSecReturnData | `Data` | array of `Data` |
/// | kSecReturnPersistentRef | `Data` | array of `Data` |
/// | kSecReturnRef | no object (passwords have none) | empty array |
/// | kSecReturnAttributes, or two or more keys | dictionary | array of dictionaries |
///
/// A dictionary holds the attributes when asked for, `v_Data` and `v_PersistentRef` when
/// asked for, and `class` only when `kSecReturnRef` is set.
enum ResultShape {
    static func object(for item: Item, returning keys: ReturnKeys) -> CFTypeRef? {
        switch keys {
        case []:
            return nil
        case .data:
            return NSData(data: item.data ?? Data())
        case .persistentReference:
            return item.persistentReference.map { NSData(data: $0.data) }
        case .reference:
            return nil
        default:
            return dictionary(for: item, returning: keys)
        }
    }

    static func result(for items: [Item], returning keys: ReturnKeys, single: Bool) -> CFTypeRef? {
        if single { return items.first.flatMap { object(for: $0, returning: keys) } }
        return NSArray(array: items.compactMap { object(for: $0, returning: keys) })
    }

    private static func dictionary(for item: Item, returning keys: ReturnKeys) -> NSDictionary {
        let dictionary = keys.contains(.attributes) ? AttributeDictionary.make(item.attributes) : NSMutableDictionary()
        if keys.contains(.data) {
            dictionary[NSString(string: "v_Data")] = NSData(data: item.data ?? Data())
        }
        if keys.contains(.persistentReference), let reference = item.persistentReference {
            dictionary[NSString(string: "v_PersistentRef")] = NSData(data: reference.data)
        }
        if keys.contains(.reference) {
            dictionary[NSString(string: "class")] = NSString(string: item.itemClass.rawValue)
        }
        return dictionary
    }
}

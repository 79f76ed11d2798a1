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
/// asked for, and `class` only when `kSecReturnRef` is set (the SecItem functions ask for
/// the attributes and the data too then: `ReturnOptions.addingWhatAReferenceImplies`). Data comes back as
/// ``ResultData``, which `as? Data` copies in one go.
enum ResultShape {
    /// The result of `request` for the items the engine answered with.
    static func result(for items: [Item], of request: ItemRequest) -> CFTypeRef? {
        let single = returnsSingleObject(request)
        var dictionaries = AttributeDictionary(sharingStrings: !single && items.count > 1)
        if single {
            return items.first.flatMap { object(for: $0, returning: request.returns, dictionaries: &dictionaries) }
        }
        var objects: [AnyObject] = []
        objects.reserveCapacity(items.count)
        for item in items {
            if let object = object(for: item, returning: request.returns, dictionaries: &dictionaries) { objects.append(object) }
        }
        // The designated initializer stores the objects as they are; `NSArray(array:)` would
        // cast each one to Foundation's box first.
        return objects.withUnsafeBufferPointer { NSArray(objects: $0.baseAddress, count: $0.count) }
    }

    /// One object unless the limit allows several (an add takes no limit).
    private static func returnsSingleObject(_ request: ItemRequest) -> Bool {
        switch request.limit ?? .one {
        case .one: true
        case .all: false
        case .count(let count): count == 1
        }
    }

    /// The object for one item; `dictionaries` builds every dictionary of one result.
    static func object(for item: Item, returning returns: ReturnOptions, dictionaries: inout AttributeDictionary) -> CFTypeRef? {
        switch returns {
        case []:
            return nil
        case .data:
            return ResultData(item.data ?? Data())
        case .persistentReference:
            return item.persistentReference.map { ResultData($0.data) }
        case .reference:
            return nil
        default:
            return dictionary(for: item, returning: returns, builder: &dictionaries)
        }
    }

    private static func dictionary(for item: Item, returning returns: ReturnOptions,
                                   builder dictionary: inout AttributeDictionary) -> NSDictionary {
        dictionary.start(capacity: item.attributes.count + 3)
        if returns.contains(.attributes) {
            dictionary.addAttributes(item.attributes)
        }
        if returns.contains(.data) {
            dictionary.add(ResultData(item.data ?? Data()), for: AttributeDictionary.valueDataKey)
        }
        if returns.contains(.persistentReference), let reference = item.persistentReference {
            dictionary.add(ResultData(reference.data), for: AttributeDictionary.persistentReferenceKey)
        }
        if returns.contains(.reference) {
            dictionary.add(NSString(string: item.itemClass.rawValue), for: AttributeDictionary.itemClassKey)
        }
        return dictionary.make()
    }
}

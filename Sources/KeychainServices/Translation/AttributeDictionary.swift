import Foundation
import SecStore

/// An item's attributes as Apple returns them: a dictionary keyed by Apple's attribute
/// strings (`"acct"`, `"svce"`, `"agrp"`, `"pdmn"`, `"sync"`, `"cdat"`, `"mdat"`, …) whose
/// values are `NSString`, `NSData`, `NSNumber` (booleans as 0 or 1) or `NSDate`, with
/// `v_Data`, `v_PersistentRef` and `class` beside them when asked for.
///
/// Built in one step from arrays of keys and objects (`NSMutableDictionary(objects:forKeys:count:)`):
/// setting entries one by one through the subscript wraps every key in an `AnyHashable` and
/// casts key and value to Foundation's boxes, which was most of the time of listing items
/// (perf: `AnyHashable.init`, `__SwiftValue.store`). The keys are made once per process and
/// shared by every result (an `NSString` is immutable).
///
/// ```swift
/// var builder = AttributeDictionary(capacity: item.attributes.count + 1)
/// builder.addAttributes(item.attributes)
/// builder.add(ResultData(secret), for: AttributeDictionary.valueDataKey)
/// let dictionary = builder.make()
/// ```
struct AttributeDictionary {
    private var keys: [NSObject] = []
    private var objects: [AnyObject] = []
    private var accessControl: SecAccessControl?

    init(capacity: Int) {
        keys.reserveCapacity(capacity)
        objects.reserveCapacity(capacity)
    }

    /// The attributes, in code order, and `kSecAttrAccessControl` when the item has one.
    mutating func addAttributes(_ attributes: Attributes) {
        var known = AttributeKeyObjects.all.startIndex
        for (key, value) in attributes where key != .accessControl {
            keys.append(AttributeKeyObjects.object(for: key, from: &known))
            objects.append(Self.object(for: value))
        }
        // As Apple returns it: a SecAccessControl of the item's protection and constraints.
        if let flags = attributes.accessControlFlags, let protection = attributes.accessibility {
            accessControl = SecAccessControl(protection: protection, flags: flags)
        }
    }

    mutating func add(_ object: AnyObject, for key: NSString) {
        keys.append(key)
        objects.append(object)
    }

    func make() -> NSMutableDictionary {
        let dictionary = keys.withUnsafeBufferPointer { keys in
            objects.withUnsafeBufferPointer { objects in
                NSMutableDictionary(objects: objects.baseAddress, forKeys: keys.baseAddress, count: keys.count)
            }
        }
        if let accessControl {
            // Through the subscript, which boxes a Swift object as Foundation does for any
            // dictionary that holds one.
            dictionary[AttributeKeyObjects.accessControl] = accessControl
        }
        return dictionary
    }

    static func object(for value: AttributeValue) -> AnyObject {
        switch value {
        case .string(let string): NSString(string: string)
        case .data(let data): ResultData(data)
        case .number(let number): NSNumber(value: number)
        case .date(let date): NSDate(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
        }
    }

    /// `v_Data`, `v_PersistentRef` and `class` as result keys.
    nonisolated(unsafe) static let valueDataKey = NSString(string: Keys.valueData)
    nonisolated(unsafe) static let persistentReferenceKey = NSString(string: Keys.valuePersistentReference)
    nonisolated(unsafe) static let itemClassKey = NSString(string: Keys.itemClass)
}

/// Apple's attribute strings as the `NSString` keys of result dictionaries, made once.
/// `nonisolated(unsafe)`: they are immutable objects, read by any thread.
private enum AttributeKeyObjects {
    nonisolated(unsafe) static let all: [(key: AttributeKey, object: NSString)] =
        AttributeKey.all.map { ($0, NSString(string: $0.rawValue)) }
    nonisolated(unsafe) static let accessControl = NSString(string: AttributeKey.accessControl.rawValue)

    /// The key object of `key`, searching ``all`` from `position`: `Attributes` and
    /// `AttributeKey.all` are both in code order, so one item's keys take one pass.
    static func object(for key: AttributeKey, from position: inout Int) -> NSString {
        if let found = all[position...].firstIndex(where: { $0.key == key }) {
            position = found + 1
            return all[found].object
        }
        // Not after the last one found (never, given both orders): search from the start.
        if let found = all.firstIndex(where: { $0.key == key }) {
            return all[found].object
        }
        return NSString(string: key.rawValue)
    }
}

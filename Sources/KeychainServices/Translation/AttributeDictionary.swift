import Foundation
import SecStore

/// Items' attributes as Apple returns them: a dictionary per item keyed by Apple's attribute
/// strings (`"acct"`, `"svce"`, `"agrp"`, `"pdmn"`, `"sync"`, `"cdat"`, `"mdat"`, …) whose
/// values are `NSString`, `NSData`, `NSNumber` (booleans as 0 or 1) or `NSDate`, with
/// `v_Data`, `v_PersistentRef` and `class` beside them when asked for. One builder makes
/// every dictionary of one result, in turn.
///
/// Each dictionary is built in one step from arrays of keys and objects
/// (`NSMutableDictionary(objects:forKeys:count:)`): setting entries one by one through the
/// subscript wraps every key in an `AnyHashable` and casts key and value to Foundation's
/// boxes, which was most of the time of listing items (perf: `AnyHashable.init`,
/// `__SwiftValue.store`). The keys are made once per process and shared by every result, the
/// two arrays once per result.
///
/// Values are immutable objects, so one object can stand in every dictionary that holds the
/// same value: the items of a listing mostly share their service, access group and
/// accessibility strings, the numbers 0 and 1 (booleans) are made once per process, and an
/// item never updated has equal creation and modification dates. A value is shared only when
/// it is the same to the byte (strings are compared by their UTF-8 bytes, not by Swift's
/// canonical equivalence; dates by their bits), so every dictionary holds exactly the item's
/// own value. Data values are never shared.
///
/// ```swift
/// var builder = AttributeDictionary(sharingStrings: items.count > 1)
/// for item in items {
///     builder.start(capacity: item.attributes.count + 1)
///     builder.addAttributes(item.attributes)
///     builder.add(ResultData(item.data ?? Data()), for: AttributeDictionary.valueDataKey)
///     dictionaries.append(builder.make())
/// }
/// ```
struct AttributeDictionary {
    private var keys: [NSObject] = []
    private var objects: [AnyObject] = []
    private var accessControl: SecAccessControl?
    /// The string object made last for each attribute (by position in
    /// ``AttributeKeyObjects/all``), with the string it was made from; empty when strings
    /// are not shared (a result of one dictionary has nothing to share them with).
    private var previousStrings: [(string: String, object: NSString)?] = []
    /// The date object made last, for either date attribute.
    private var previousDate: (date: Date, object: NSDate)?

    init(sharingStrings: Bool) {
        if sharingStrings { previousStrings = Array(repeating: nil, count: AttributeKeyObjects.all.count) }
    }

    /// Begins the next dictionary, of about `capacity` entries (the arrays keep their storage).
    mutating func start(capacity: Int) {
        keys.removeAll(keepingCapacity: true)
        objects.removeAll(keepingCapacity: true)
        keys.reserveCapacity(capacity)
        objects.reserveCapacity(capacity)
        accessControl = nil
    }

    /// The attributes, in code order, and `kSecAttrAccessControl` when the item has one.
    mutating func addAttributes(_ attributes: Attributes) {
        var known = AttributeKeyObjects.all.startIndex
        for (key, value) in attributes where key != .accessControl {
            guard let position = AttributeKeyObjects.position(of: key, from: &known) else {
                // Not a key SecStore knows (never: every key is in `AttributeKey.all`).
                add(Self.object(for: value), for: NSString(string: key.rawValue))
                continue
            }
            keys.append(AttributeKeyObjects.all[position].object)
            objects.append(object(for: value, at: position))
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

    /// The object for the value of the attribute at `position`: one made before for the same
    /// value, else a new one.
    private mutating func object(for value: AttributeValue, at position: Int) -> AnyObject {
        switch value {
        case .string(let string):
            guard !previousStrings.isEmpty else { return NSString(string: string) }
            if let previous = previousStrings[position], UTF8Bytes.equal(previous.string, string) { return previous.object }
            let object = NSString(string: string)
            previousStrings[position] = (string, object)
            return object
        case .number(0): return Self.zero
        case .number(1): return Self.one
        case .date(let date):
            if let previousDate, previousDate.date.timeIntervalSinceReferenceDate.bitPattern
                == date.timeIntervalSinceReferenceDate.bitPattern {
                return previousDate.object
            }
            let object = NSDate(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
            previousDate = (date, object)
            return object
        case .number, .data:
            return Self.object(for: value)
        }
    }

    static func object(for value: AttributeValue) -> AnyObject {
        switch value {
        case .string(let string): NSString(string: string)
        case .data(let data): ResultData(data)
        case .number(let number): NSNumber(value: number)
        case .date(let date): NSDate(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
        }
    }

    /// The numbers 0 and 1 (booleans, as Apple returns them), made once: an `NSNumber` is
    /// immutable (and `Sendable`).
    private static let zero = NSNumber(value: 0 as Int64)
    private static let one = NSNumber(value: 1 as Int64)

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

    /// The position of `key` in ``all``, searching from `start`: `Attributes` and
    /// `AttributeKey.all` are both in code order, so one item's keys take one pass.
    static func position(of key: AttributeKey, from start: inout Int) -> Int? {
        if let found = all[start...].firstIndex(where: { $0.key == key }) ?? all.firstIndex(where: { $0.key == key }) {
            start = found + 1
            return found
        }
        return nil
    }
}

import Foundation
import SecStore

/// An item's attributes as Apple returns them: a dictionary keyed by Apple's attribute
/// strings (`"acct"`, `"svce"`, `"agrp"`, `"pdmn"`, `"sync"`, `"cdat"`, `"mdat"`, …) whose
/// values are `NSString`, `NSData`, `NSNumber` (booleans as 0 or 1) or `NSDate`.
enum AttributeDictionary {
    static func make(_ attributes: Attributes) -> NSMutableDictionary {
        let dictionary = NSMutableDictionary(capacity: attributes.count + 2)
        for (key, value) in attributes where key != .accessControl {
            dictionary[NSString(string: key.rawValue)] = object(for: value)
        }
        // As Apple returns it: a SecAccessControl of the item's protection and constraints.
        if let flags = attributes.accessControlFlags, let protection = attributes.accessibility {
            dictionary[NSString(string: AttributeKey.accessControl.rawValue)] = SecAccessControl(protection: protection, flags: flags)
        }
        return dictionary
    }

    static func object(for value: AttributeValue) -> AnyObject {
        switch value {
        case .string(let string): NSString(string: string)
        case .data(let data): NSData(data: data)
        case .number(let number): NSNumber(value: number)
        case .date(let date): NSDate(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
        }
    }
}

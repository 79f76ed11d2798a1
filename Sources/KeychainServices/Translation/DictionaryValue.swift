import Foundation
import SecStore

/// A value of a SecItem dictionary, sorted once by the type it arrived as. Values arrive as
/// `Any`: bridged Swift values (`String`, `Data`, `Bool`, `Date`), Foundation objects,
/// `NSNull`, or an Optional wrapped in `Any` (`kCFBooleanTrue` is an implicitly unwrapped
/// optional). The readers then ask for the type they need (``string``, ``boolean``, …) by a
/// switch, not by a runtime cast each: a dictionary's values are classified once, mostly by
/// their exact class (``DictionaryObject``), and each `as?` cast in the runtime costs a few
/// hundred instructions.
///
/// ```swift
/// let value = DictionaryValue(kCFBooleanTrue as Any)
/// value?.boolean   // true
/// value?.integer   // nil: a boolean is not a number here
/// ```
enum DictionaryValue {
    case string(String)
    /// `true`, `kCFBooleanFalse`, `NSNumber(value: true)`: Foundation's boolean numbers, which
    /// are set apart from `NSNumber(value: 1)` as `CFBoolean` is from `CFNumber` on Apple
    /// systems.
    case boolean(Bool)
    /// Any other number (`443`, `2.5`, `NSNumber(value: 8)`).
    case number(NSNumber)
    case data(Data)
    case date(Date)
    /// Anything else, such as a ``SecAccessControl`` or an array.
    case other(Any)

    /// The value inside any number of Optional layers; `nil` for `nil` and `NSNull`.
    ///
    /// ```swift
    /// DictionaryValue(Optional(Optional("x")) as Any)?.string   // "x"
    /// DictionaryValue(NSNull())                                 // nil
    /// ```
    init?(_ value: Any) {
        if let optional = value as? any OptionalBox {
            guard let wrapped = optional.wrappedValue else { return nil }
            self.init(wrapped)
            return
        }
        // Foundation's own objects by their exact class, as a dictionary stores them.
        switch DictionaryObject.value(of: value) {
        case .value(let sorted):
            self = sorted
            return
        case .none:
            return nil
        case .unknown:
            break
        }
        // Swift values, and subclasses of Foundation's classes, by casts.
        if value is NSNull { return nil }
        if let bool = value as? Bool, type(of: value) == Bool.self {
            self = .boolean(bool)
        } else if let string = value as? String {
            self = .string(string)
        } else if let data = value as? Data {
            self = .data(data)
        } else if let date = value as? Date {
            self = .date(date)
        } else if let number = value as? NSNumber {
            self = DictionaryObject.isBoolean(number) ? .boolean(number.boolValue) : .number(number)
        } else {
            self = .other(value)
        }
    }

    var string: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    var data: Data? {
        if case .data(let data) = self { return data }
        return nil
    }

    /// The value as a boolean, only when it is one: `true`, `kCFBooleanFalse`, … but not `1`.
    var boolean: Bool? {
        if case .boolean(let flag) = self { return flag }
        return nil
    }

    /// The value as a whole number, only when it is a number and not a boolean.
    var integer: Int64? {
        if case .number(let number) = self { return Self.exactInteger(number) }
        return nil
    }

    /// The value as an attribute value, keeping its type as Apple does (a server given as
    /// data stays data). Booleans become the numbers 0 and 1. `nil` for any other type, and
    /// for numbers that are not whole.
    var attributeValue: AttributeValue? {
        switch self {
        case .string(let string): .string(string)
        case .data(let data): .data(data)
        case .date(let date): .date(date)
        case .boolean(let flag): .number(flag ? 1 : 0)
        case .number(let number): Self.exactInteger(number).map(AttributeValue.number)
        case .other: nil
        }
    }

    /// The name of the value's type, for error messages: "kSecValueData must be Data, not String".
    var typeName: String {
        switch self {
        case .string: "String"
        case .boolean: "Bool"
        case .number(let number): "\(type(of: number))"   // NSNumber, NSDecimalNumber
        case .data: "Data"
        case .date: "Date"
        case .other(let value): "\(type(of: value))"
        }
    }

    /// The number as an `Int64` when it is exactly one (no fraction, in range).
    private static func exactInteger(_ number: NSNumber) -> Int64? {
        switch String(cString: number.objCType) {
        case "f", "d":
            let double = number.doubleValue
            guard double.rounded() == double, let integer = Int64(exactly: double) else { return nil }
            return integer
        case "Q", "L", "I":
            return Int64(exactly: number.uint64Value)
        default:
            return number.int64Value
        }
    }
}

/// Lets ``DictionaryValue/init(_:)`` see through an Optional stored in an `Any`.
private protocol OptionalBox {
    var wrappedValue: Any? { get }
}

extension Optional: OptionalBox {
    fileprivate var wrappedValue: Any? { map { $0 as Any } }
}

/// A value as text without its bytes: `kSecValueData` holds the secret, and `Data`'s own
/// description and mirror would show it (the same rule as `Item`'s mirror).
///
/// ```swift
/// print(DictionaryValue(Data("hunter2".utf8))!)   // data(<7 bytes, redacted>)
/// ```
extension DictionaryValue: CustomStringConvertible, CustomReflectable {
    var description: String {
        switch self {
        case .string(let string): "string(\(String(reflecting: string)))"
        case .boolean(let flag): "boolean(\(flag))"
        case .number(let number): "number(\(number))"
        case .data(let data): "data(<\(data.count) bytes, redacted>)"
        case .date(let date): "date(\(date.timeIntervalSinceReferenceDate))"
        case .other(let value): "other(\(type(of: value)))"
        }
    }

    var customMirror: Mirror {
        Mirror(self, children: ["value": description], displayStyle: .enum)
    }
}

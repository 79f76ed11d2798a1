import Foundation
import SecStore

/// Reads the values of a SecItem dictionary. Values arrive as `Any`: bridged Swift values
/// (`String`, `Data`, `Bool`, `Date`), Foundation objects, `NSNull`, or an Optional wrapped in
/// `Any` (`kCFBooleanTrue` is an implicitly unwrapped optional).
enum DictionaryValue {
    /// The class of Foundation's boolean numbers (`kCFBooleanTrue`, a bridged `Bool`), which
    /// is what sets a boolean apart from `NSNumber(value: 1)`, as `CFBoolean` is set apart
    /// from `CFNumber` on Apple systems.
    private static let booleanClass: AnyClass = type(of: NSNumber(value: true))

    /// The value inside any number of Optional layers; `nil` for `nil` and `NSNull`.
    static func unwrapped(_ value: Any) -> Any? {
        if let optional = value as? any OptionalBox {
            guard let wrapped = optional.wrappedValue else { return nil }
            return unwrapped(wrapped)
        }
        if value is NSNull { return nil }
        return value
    }

    /// The value as a boolean, only when it is one: `true`, `kCFBooleanFalse`, … but not `1`.
    static func boolean(_ value: Any) -> Bool? {
        if let bool = value as? Bool, type(of: value) == Bool.self { return bool }
        guard let number = value as? NSNumber, isBoolean(number) else { return nil }
        return number.boolValue
    }

    /// The value as a whole number, only when it is a number and not a boolean.
    static func integer(_ value: Any) -> Int64? {
        guard let number = value as? NSNumber, !isBoolean(number) else { return nil }
        return exactInteger(number)
    }

    static func string(_ value: Any) -> String? {
        value as? String
    }

    static func data(_ value: Any) -> Data? {
        value as? Data
    }

    /// The value as an attribute value, keeping its type as Apple does (a server given as
    /// data stays data). Booleans become the numbers 0 and 1. `nil` for any other type, and
    /// for numbers that are not whole.
    static func attributeValue(_ value: Any) -> AttributeValue? {
        if let string = value as? String { return .string(string) }
        if let data = value as? Data { return .data(data) }
        if let date = value as? Date { return .date(date) }
        guard let number = value as? NSNumber else { return nil }
        if isBoolean(number) { return .number(number.boolValue ? 1 : 0) }
        return exactInteger(number).map(AttributeValue.number)
    }

    private static func isBoolean(_ number: NSNumber) -> Bool {
        type(of: number) == booleanClass
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

/// Lets ``DictionaryValue/unwrapped(_:)`` see through an Optional stored in an `Any`.
private protocol OptionalBox {
    var wrappedValue: Any? { get }
}

extension Optional: OptionalBox {
    fileprivate var wrappedValue: Any? { map { $0 as Any } }
}

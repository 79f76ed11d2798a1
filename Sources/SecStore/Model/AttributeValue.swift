import Foundation

/// The value of one attribute. Apple's attributes take strings, data, numbers or dates, and
/// an item keeps the type it was given (a server given as data comes back as data).
///
/// ```swift
/// var attributes: Attributes = [.service: "api.example.com", .port: 443]
/// attributes[.generic] = .data(Data([0x01, 0x02]))
/// ```
public enum AttributeValue: Sendable, Hashable, CustomStringConvertible {
    /// Text, such as an account or a service name.
    case string(String)
    /// Bytes, such as the application data of `kSecAttrGeneric`.
    case data(Data)
    /// An integer: a port, a four-character code, or a boolean (0 or 1).
    case number(Int64)
    /// A point in time: the creation and modification dates the store sets.
    case date(Date)

    /// Booleans are numbers 0 and 1, as on Apple systems.
    ///
    /// ```swift
    /// let attributes: Attributes = [.isInvisible: .bool(true)]   // stored as .number(1)
    /// ```
    public static func bool(_ value: Bool) -> AttributeValue { .number(value ? 1 : 0) }

    /// The value as text: a string as is, data decoded as UTF-8, a number in decimal.
    public var stringValue: String? {
        switch self {
        case .string(let string): string
        case .data(let data): String(data: data, encoding: .utf8)
        case .number(let number): String(number)
        case .date: nil
        }
    }

    /// The value as bytes: UTF-8 for a string, the data itself, 8 little-endian bytes for a number.
    public var dataValue: Data? {
        switch self {
        case .string(let string): Data(string.utf8)
        case .data(let data): data
        case .number(let number): withUnsafeBytes(of: number.littleEndian) { Data($0) }
        case .date: nil
        }
    }

    /// The value as an integer: a number, or a string that reads as one.
    public var integerValue: Int64? {
        switch self {
        case .number(let number): number
        case .string(let string): Int64(string)
        case .data, .date: nil
        }
    }

    /// The value as a boolean: ``integerValue`` is `true` unless it is 0; `nil` when there is
    /// no integer (data, a date, or text that is not one).
    public var boolValue: Bool? { integerValue.map { $0 != 0 } }

    /// The date of a `.date` value; `nil` for every other case (text and numbers are not
    /// converted).
    public var dateValue: Date? {
        if case .date(let date) = self { date } else { nil }
    }

    /// A form for logs and debugging: text quoted, a number in decimal, a date in ISO 8601,
    /// and data only as its size, never its bytes.
    public var description: String {
        switch self {
        case .string(let string): string.debugDescription
        case .data(let data): "<\(data.count) bytes>"
        case .number(let number): String(number)
        case .date(let date): date.formatted(.iso8601)
        }
    }
}

extension AttributeValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
    /// A `.string` value from a string literal: `attributes[.label] = "Example API"`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A `.number` value from an integer literal: `attributes[.port] = 443`.
    public init(integerLiteral value: Int64) { self = .number(value) }
    /// A boolean, the number 0 or 1, from a boolean literal: `attributes[.isInvisible] = true`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

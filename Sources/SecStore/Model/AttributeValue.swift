import Foundation

/// The value of one attribute. Apple's attributes take strings, data, numbers or dates, and
/// an item keeps the type it was given (a server given as data comes back as data).
///
/// ```swift
/// var attributes: Attributes = [.service: "api.example.com", .port: 443]
/// attributes[.generic] = .data(Data([0x01, 0x02]))
/// ```
public enum AttributeValue: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case data(Data)
    case number(Int64)
    case date(Date)

    /// Booleans are numbers 0 and 1, as on Apple systems.
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

    public var boolValue: Bool? { integerValue.map { $0 != 0 } }

    public var dateValue: Date? {
        if case .date(let date) = self { date } else { nil }
    }

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
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

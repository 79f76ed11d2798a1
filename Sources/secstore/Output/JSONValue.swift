import Foundation

/// A JSON value, encoded with sorted keys so the output of every command is byte-stable
/// for the same input.
///
/// ```swift
/// let value: JSONValue = ["deleted": 2]
/// JSONOutput.print(value)     // {\n  "deleted" : 2\n}
/// ```
enum JSONValue: Encodable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral {
    case string(String)
    case number(Int64)
    case bool(Bool)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int64) { self = .number(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    static func int(_ value: Int) -> JSONValue { .number(Int64(value)) }
    static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let string): try container.encode(string)
        case .number(let number): try container.encode(number)
        case .bool(let bool): try container.encode(bool)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        case .null: try container.encodeNil()
        }
    }
}

/// Prints JSON documents on standard output.
enum JSONOutput {
    static func render(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding a JSONValue cannot fail: every case maps to a JSON type.
        let data = (try? encoder.encode(value)) ?? Data("null".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    static func print(_ value: JSONValue) {
        Console.line(render(value))
    }
}

extension Date {
    /// ISO 8601 in UTC with milliseconds, as every JSON date is written.
    var jsonString: String {
        formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}

import Foundation

/// A JSON value, written (``JSONText``) with sorted keys so the output of every command is
/// byte-stable for the same input.
///
/// ```swift
/// let value: JSONValue = ["deleted": 2]
/// JSONOutput.print(value)     // {\n  "deleted" : 2\n}
/// ```
enum JSONValue: Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral {
    case string(String)
    /// A string given as its UTF-8 bytes (valid UTF-8: ``ItemRendering/isUTF8(_:)``): a
    /// secret, never copied into a `String`, which could not be wiped.
    case utf8(Data)
    /// A string: the base64 form of these bytes (a secret that is not text), made only in
    /// ``JSONText``'s wiped buffer.
    case base64(Data)
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
}

/// Prints JSON documents on standard output (``JSONText`` writes them). The text is wiped
/// once written: with `--show-secrets` it holds them.
enum JSONOutput {
    /// The document and a newline, in one write.
    static func print(_ value: JSONValue) {
        var text = JSONText()
        text.append(value)
        write(&text)
    }

    /// An array of `transform` applied to each of `elements` (`list --json`): the bytes
    /// ``print(_:)`` writes for `.array(elements.map(transform))`, each element made only when
    /// its turn comes and the text handed to standard output every 64 KiB, so that a long
    /// listing needs neither every element nor the whole document in memory.
    static func printArray<Elements: Sequence>(_ elements: Elements, _ transform: (Elements.Element) -> JSONValue) {
        var text = JSONText()
        text.appendArray(elements, transform) { text in
            guard text.bytes.count >= chunkSize else { return }
            Console.writeBytes(text.bytes)
            text.wipe()
        }
        write(&text)
    }

    private static let chunkSize = 1 << 16

    private static func write(_ text: inout JSONText) {
        text.appendNewline()
        Console.writeBytes(text.bytes)
        text.wipe()
    }
}

extension Date {
    /// ISO 8601 in UTC with milliseconds, as every JSON date is written.
    var jsonString: String {
        Self.jsonStyle.format(self)
    }

    private static let jsonStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}

/// Writes a ``JSONValue`` as UTF-8 text, byte for byte as `JSONEncoder` with
/// `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]` writes it (the encoder the tool
/// used first, so scripts see the same bytes): two-space indentation, `"key" : value`, keys
/// in the order of their UTF-8 bytes, an empty container as its brackets around an empty
/// line. It writes straight into one byte buffer, where the encoder went through `Encodable`
/// containers and boxed every value: `list --json` of 20,000 items spent most of its time
/// there (docs/performance.md, "Command line: where start-up goes").
///
/// ```swift
/// let text = JSONText.render(["deleted": 2])   // {\n  "deleted" : 2\n}
/// ```
struct JSONText {
    private(set) var bytes: [UInt8] = []
    private var depth = 0

    /// `value` as JSON text, without a final newline.
    static func render(_ value: JSONValue) -> [UInt8] {
        var text = JSONText()
        text.append(value)
        return text.bytes
    }

    mutating func append(_ value: JSONValue) {
        switch value {
        case .string(let string): appendString(string)
        case .number(let number): bytes.append(contentsOf: String(number).utf8)
        case .bool(let bool): bytes.append(contentsOf: (bool ? "true" : "false").utf8)
        case .null: bytes.append(contentsOf: "null".utf8)
        case .array(let elements): appendArray(elements) { $0 }
        case .object(let members):
            // Sorted by UTF-8 bytes, as the encoder sorts (not by `String`'s Unicode order).
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            appendContainer(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), sorted) { text, member in
                text.appendString(member.key)
                text.bytes.append(contentsOf: " : ".utf8)
                text.append(member.value)
            }
        }
    }

    /// An array of `transform` applied to each of `elements`, made one at a time, so that a
    /// long listing never holds every element's ``JSONValue`` at once. `afterEach` runs after
    /// each element is written (``JSONOutput/printArray(_:_:)`` hands the text written so far
    /// to standard output there).
    mutating func appendArray<Elements: Sequence>(_ elements: Elements, _ transform: (Elements.Element) -> JSONValue,
                                                  afterEach: (inout JSONText) -> Void = { _ in }) {
        appendContainer(open: UInt8(ascii: "["), close: UInt8(ascii: "]"), elements) { text, element in
            text.append(transform(element))
            afterEach(&text)
        }
    }

    /// Forgets the text written so far (once it has been written out), keeping the buffer.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Elements one per line, indented one level deeper than the brackets.
    private mutating func appendContainer<Elements: Sequence>(open: UInt8, close: UInt8, _ elements: Elements,
                                                              _ appendElement: (inout JSONText, Elements.Element) -> Void) {
        bytes.append(open)
        bytes.append(UInt8(ascii: "\n"))
        depth += 1
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(contentsOf: ",\n".utf8) }
            appendIndent()
            appendElement(&self, element)
        }
        depth -= 1
        bytes.append(UInt8(ascii: "\n"))
        appendIndent()
        bytes.append(close)
    }

    private mutating func appendIndent() {
        for _ in 0..<depth { bytes.append(contentsOf: "  ".utf8) }
    }

    /// A string in quotes. Escaped: the quote, the backslash and the control characters
    /// (U+0000–U+001F; `\b \f \n \r \t` by name, the others as `\u00xx`). Everything else,
    /// `/` and non-ASCII included, is written as its UTF-8 bytes.
    mutating func appendString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        if !string.utf8.contains(where: Self.needsEscape) {
            bytes.append(contentsOf: string.utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
            case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
            case UInt8(ascii: "\n"): bytes.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): bytes.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): bytes.append(contentsOf: #"\t"#.utf8)
            case 0x00..<0x20:
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0x0F)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

import Foundation
import SecStore

/// Writes a ``JSONValue`` as UTF-8 text, byte for byte as `JSONEncoder` with
/// `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]` writes it (the encoder the tool
/// used first, so scripts see the same bytes): two-space indentation, `"key" : value`, keys
/// in the order of their UTF-8 bytes, an empty container as its brackets around an empty
/// line. It writes straight into one byte buffer, where the encoder went through `Encodable`
/// containers and boxed every value: `list --json` of 20,000 items spent most of its time
/// there (docs/performance.md, "Command line: where start-up goes").
///
/// ```swift
/// var text = JSONText.document(["deleted": 2])   // {\n  "deleted" : 2\n}\n
/// defer { text.wipe() }
/// ```
///
/// The buffer is a ``WipingBuffer``: a secret in the document (``JSONValue/utf8(_:)``,
/// ``JSONValue/base64(_:)``) is copied only into memory that is zeroed when it is let go —
/// call ``wipe()`` when the text has been written out.
struct JSONText {
    private(set) var buffer = WipingBuffer()
    private var depth = 0

    /// The text written so far.
    var bytes: [UInt8] { buffer.bytes }

    /// `value` as JSON text and a newline, in a buffer the caller wipes.
    static func document(_ value: JSONValue) -> WipingBuffer {
        var text = JSONText()
        text.append(value)
        text.appendNewline()
        return text.buffer
    }

    /// The newline that ends a document.
    mutating func appendNewline() {
        buffer.append(UInt8(ascii: "\n"))
    }

    mutating func append(_ value: JSONValue) {
        switch value {
        case .string(let string): appendString(string.utf8)
        case .utf8(let data): appendString(data)
        case .base64(let data):
            var encoded = data.base64EncodedData()
            defer { encoded.withUnsafeMutableBytes { Wipe.buffer($0) } }
            buffer.append(UInt8(ascii: "\""))
            buffer.append(contentsOf: encoded)
            buffer.append(UInt8(ascii: "\""))
        case .number(let number): buffer.append(contentsOf: String(number).utf8)
        case .bool(let bool): buffer.append(contentsOf: (bool ? "true" : "false").utf8)
        case .null: buffer.append(contentsOf: "null".utf8)
        case .array(let elements): appendArray(elements) { $0 }
        case .object(let members):
            // Sorted by UTF-8 bytes, as the encoder sorts (not by `String`'s Unicode order).
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            appendContainer(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), sorted) { text, member in
                text.appendString(member.key.utf8)
                text.buffer.append(contentsOf: " : ".utf8)
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

    /// Zeroes and forgets the text written so far (once it has been written out), keeping
    /// the buffer.
    mutating func wipe() {
        buffer.wipe()
    }

    /// Elements one per line, indented one level deeper than the brackets.
    private mutating func appendContainer<Elements: Sequence>(open: UInt8, close: UInt8, _ elements: Elements,
                                                              _ appendElement: (inout JSONText, Elements.Element) -> Void) {
        buffer.append(open)
        buffer.append(UInt8(ascii: "\n"))
        depth += 1
        for (index, element) in elements.enumerated() {
            if index > 0 { buffer.append(contentsOf: ",\n".utf8) }
            appendIndent()
            appendElement(&self, element)
        }
        depth -= 1
        buffer.append(UInt8(ascii: "\n"))
        appendIndent()
        buffer.append(close)
    }

    private mutating func appendIndent() {
        for _ in 0..<depth { buffer.append(contentsOf: "  ".utf8) }
    }

    /// A string, given as its UTF-8 bytes, in quotes. Escaped: the quote, the backslash and
    /// the control characters (U+0000–U+001F; `\b \f \n \r \t` by name, the others as
    /// `\u00xx`). Everything else, `/` and non-ASCII included, is written as its UTF-8 bytes.
    mutating func appendString<UTF8Bytes: Collection<UInt8>>(_ string: UTF8Bytes) {
        buffer.append(UInt8(ascii: "\""))
        if !string.contains(where: Self.needsEscape) {
            buffer.append(contentsOf: string)
            buffer.append(UInt8(ascii: "\""))
            return
        }
        for byte in string {
            switch byte {
            case UInt8(ascii: "\""): buffer.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): buffer.append(contentsOf: #"\\"#.utf8)
            case 0x08: buffer.append(contentsOf: #"\b"#.utf8)
            case 0x0C: buffer.append(contentsOf: #"\f"#.utf8)
            case UInt8(ascii: "\n"): buffer.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): buffer.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): buffer.append(contentsOf: #"\t"#.utf8)
            case 0x00..<0x20:
                buffer.append(contentsOf: #"\u00"#.utf8)
                buffer.append(Self.hexDigits[Int(byte >> 4)])
                buffer.append(Self.hexDigits[Int(byte & 0x0F)])
            default: buffer.append(byte)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

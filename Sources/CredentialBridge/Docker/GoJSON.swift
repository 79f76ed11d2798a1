/// JSON text as Go's `encoding/json` writes it, which docker and podman read from a helper:
/// object keys in the order given, strings escaped as Go escapes them (`<`, `>`, `&`,
/// U+2028 and U+2029 as `\u` escapes), one value followed by a newline.
///
/// ```swift
/// GoJSON.object([("ServerURL", "https://example.com"), ("Username", "<token>")])
/// // {"ServerURL":"https://example.com","Username":"\u003ctoken\u003e"}
/// ```
public enum GoJSON {
    /// An object whose members are strings, in the order given, without a trailing newline.
    ///
    /// ```swift
    /// GoJSON.object([("https://example.com", "alice")])   // {"https://example.com":"alice"}
    /// ```
    public static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { "\(string($0.0)):\(string($0.1))" }.joined(separator: ",") + "}"
    }

    /// A string literal, quoted and escaped.
    ///
    /// ```swift
    /// GoJSON.string("a\"b")   // "\"a\\\"b\""
    /// ```
    public static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<", ">", "&", "\u{2028}", "\u{2029}": out += unicodeEscape(scalar.value)
            default: if scalar.value < 0x20 { out += unicodeEscape(scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }

    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

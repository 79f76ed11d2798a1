/// Text from outside (a file's object names, SQLite's messages about them, an item's
/// attributes) made safe to print on a terminal: control and format characters (escape
/// sequences, newlines, bidirectional overrides) as `\u{…}` escapes, everything else as it is.
///
/// ```swift
/// PrintableText.escaped("evil\u{1b}[2J")              // "evil\u{1b}[2J" with the escape spelled out
/// PrintableText.escaped(longName, atMost: 64)         // the first 64 scalars, then "…"
/// PrintableText.escaped(message, keepingNewlines: true) // a multi-line message, its lines kept
/// ```
package enum PrintableText {
    /// `text` with its control and format characters escaped; cut to `maximumScalars`
    /// scalars, with an ellipsis, when it is longer. `keepingNewlines` leaves line feeds as
    /// they are, for a message of several lines (a carriage return, which lets a line be
    /// written over, is still escaped).
    package static func escaped(_ text: String, atMost maximumScalars: Int = .max, keepingNewlines: Bool = false) -> String {
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < maximumScalars else { return result + "…" }
            count += 1
            switch scalar.properties.generalCategory {
            case .control where keepingNewlines && scalar == "\n": result.unicodeScalars.append(scalar)
            case .control, .format: result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

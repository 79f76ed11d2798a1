import SecStore

/// A plain-text table: a header row in capitals and left-aligned columns two spaces apart,
/// like `ps` and `docker ps`. Cells are sanitized, so an attribute holding terminal
/// escape sequences cannot take over the user's terminal.
///
/// ```swift
/// var table = Table(columns: ["Service", "Account"])
/// table.append(["api.example.com", "alice"])
/// Console.write(table.render())
/// ```
struct Table {
    let columns: [String]
    private(set) var rows: [[String]] = []

    init(columns: [String]) {
        self.columns = columns
    }

    mutating func append(_ row: [String]) {
        precondition(row.count == columns.count, "a table row needs one cell per column")
        rows.append(row.map(Self.sanitize))
    }

    /// How a table is written: aligned columns or tab-separated values, with or without the
    /// header row.
    struct Style: Equatable, Sendable {
        var separatedByTabs = false
        var headers = true

        static let aligned = Style()
    }

    func render(_ style: Style = .aligned) -> String {
        let all = (style.headers ? [columns.map { $0.uppercased() }] : []) + rows
        guard !all.isEmpty else { return "" }
        if style.separatedByTabs {
            // Cells hold no tab or newline: ``sanitize`` wrote them as escapes.
            return all.map { $0.joined(separator: "\t") }.joined(separator: "\n") + "\n"
        }
        let widths = columns.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(to: widths[index])
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }.joined(separator: "\n") + "\n"
    }

    /// Control characters (escape sequences, newlines, tabs) shown as `\u{…}` escapes.
    static func sanitize(_ text: String) -> String {
        PrintableText.escaped(text)
    }

    /// `text` in double quotes for a message, as Swift's `debugDescription` quotes it, and
    /// then sanitized: `debugDescription` leaves C1 controls (U+009B, a CSI to some terminals)
    /// and format characters (a right-to-left override) as they are.
    static func quoted(_ text: String) -> String {
        sanitize(text.debugDescription)
    }
}

/// Two-column "name  value" lines, for `info` and summaries.
struct KeyValueList {
    private(set) var entries: [(String, String)] = []

    mutating func append(_ name: String, _ value: String) {
        entries.append((name, Table.sanitize(value)))
    }

    func render(indent: String = "") -> String {
        let width = entries.map(\.0.count).max() ?? 0
        return entries.map { indent + $0.0.padding(to: width) + "  " + $0.1 }.joined(separator: "\n") + "\n"
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}

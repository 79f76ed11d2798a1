import Foundation
import SecStore

/// `--format csv`: RFC 4180 records with a header row (``PlaintextImport/csv(_:source:)``).
extension PlaintextImport {
    /// RFC 4180 CSV with a header row naming the columns of ``PlaintextExport/csvColumns``
    /// (any order and subset; `secret` or `secretBase64` required; `accessGroup` is accepted
    /// for `group`). An empty cell sets nothing.
    static func csv(_ text: String, source: String) throws -> [Entry] {
        let rows = try csvRows(text, source: source)
        guard let header = rows.first else { throw CLIError.usage("\(source) is empty: a CSV import needs a header row.") }
        let known = Set(PlaintextExport.csvColumns + ["secretBase64", "accessGroup"])
        var columns: [String] = []
        for (number, name) in zip(1..., header.fields) {
            let trimmed = name.trimmingWhitespace()
            guard let match = known.first(where: { $0.lowercased() == trimmed.lowercased() }) else {
                throw CLIError.usage("\(source):\(header.line): field \(number) of the header is not a column name. The first line names the columns: \(PlaintextExport.csvColumns.joined(separator: ", ")) (or secretBase64); a file without that line needs one.")
            }
            let column = match == "accessGroup" ? "group" : match
            guard !columns.contains(column) else { throw CLIError.usage("\(source):\(header.line): the column \(column) is given twice.") }
            columns.append(column)
        }
        guard columns.contains("secret") || columns.contains("secretBase64") else {
            throw CLIError.usage("\(source):\(header.line): no secret column (secret, or secretBase64).")
        }
        return try rows.dropFirst().compactMap { row in
            let origin = "\(source):\(row.line)"
            if row.fields.count == 1 && row.fields[0].isEmpty { return nil }   // a blank line
            guard row.fields.count == columns.count else {
                throw CLIError.usage("\(origin): \(row.fields.count) fields where the header has \(columns.count).")
            }
            var values: [String: String] = [:]
            for (column, field) in zip(columns, row.fields) where !field.isEmpty { values[column] = field }
            let secret: Data
            if let encoded = values.removeValue(forKey: "secretBase64") {
                guard let bytes = Data(base64Encoded: encoded) else { throw CLIError.usage("\(origin): secretBase64 is not base64.") }
                secret = bytes
                values["secret"] = nil
            } else {
                secret = Data((values.removeValue(forKey: "secret") ?? "").utf8)
            }
            // A cell's place: a secret with an unquoted comma moves the cells after it along.
            let field = { (name: String) in
                let column = name == "accessGroup" ? "group" : name
                return "\(origin): field \((columns.firstIndex(of: column) ?? 0) + 1) (\(column))"
            }
            let itemClass = try itemClass(values.removeValue(forKey: "class"), fields: Set(values.keys), field: field("class"))
            if let group = values.removeValue(forKey: "group") { values["accessGroup"] = group }
            let attributes = try Self.attributes(values, binary: [:], itemClass: itemClass, origin: origin, field: field, ignoring: [])
            return Entry(item: Item(itemClass: itemClass, attributes: attributes, data: secret), origin: origin)
        }
    }

    struct CSVRow {
        var fields: [String]
        /// The line the record starts on.
        var line: Int
    }

    /// RFC 4180 records: quoted fields may hold commas, doubled quotes and line breaks.
    /// Read by Unicode scalar, as ``env(_:source:service:)``: a cell that begins with a
    /// combining mark must not hide the comma or quote before it.
    static func csvRows(_ text: String, source: String) throws -> [CSVRow] {
        var rows: [CSVRow] = []
        var fields: [String] = []
        var field = String.UnicodeScalarView()
        var quoted = false, wasQuoted = false
        var line = 1, start = 1
        var scalars = Array(text.unicodeScalars)
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }   // a byte-order mark from a spreadsheet
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            // CR LF is one line break, as in RFC 4180.
            let crBeforeLF = scalar == "\r" && index < scalars.count && scalars[index] == "\n"
            if quoted {
                if scalar == "\"" {
                    if index < scalars.count, scalars[index] == "\"" {
                        field.append("\"")
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    if Character(scalar).isNewline && !crBeforeLF { line += 1 }
                    field.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where field.isEmpty && !wasQuoted:
                quoted = true
                wasQuoted = true
            case ",":
                fields.append(String(field))
                field = String.UnicodeScalarView()
                wasQuoted = false
            case "\n", "\r":
                if crBeforeLF { index += 1 }
                fields.append(String(field))
                rows.append(CSVRow(fields: fields, line: start))
                fields = []
                field = String.UnicodeScalarView()
                wasQuoted = false
                line += 1
                start = line
            default:
                guard !wasQuoted else {
                    throw CLIError.usage("\(source):\(line): text after a closing quote (write a quote inside a quoted field as \"\").")
                }
                field.append(scalar)
            }
        }
        guard !quoted else { throw CLIError.usage("\(source):\(start): a quoted field is not closed.") }
        if !field.isEmpty || !fields.isEmpty || wasQuoted {
            fields.append(String(field))
            rows.append(CSVRow(fields: fields, line: start))
        }
        return rows
    }
}

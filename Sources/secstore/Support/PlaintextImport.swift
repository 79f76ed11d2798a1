import Foundation
import SecStore

/// Reads the plaintext formats ``PlaintextExport`` writes (and hand-written files in the same
/// shapes) into items with their secrets. Every error names the line (env, csv) or the item
/// (json) and never quotes a secret.
///
/// ```swift
/// let items = try PlaintextImport.decode(data, as: .env, source: ".env", service: "myapp")
/// ```
enum PlaintextImport {
    /// One item to import and where it came from (`FILE:LINE`, `FILE item N`), for messages.
    struct Entry {
        var item: Item
        var origin: String
    }

    static func decode(_ data: Data, as format: InterchangeFormat, source: String, service: String?) throws -> [Entry] {
        guard let text = String(validating: Array(data), as: UTF8.self) else {
            throw CLIError.usage("\(source) is not UTF-8 text. A --format \(format.rawValue) file is text; binary secrets go in --format json as secretBase64.")
        }
        switch format {
        case .env:
            guard let service else {
                throw CLIError.usage("--format env needs --service NAME: each line becomes a generic password of that service, its name the account.")
            }
            return try env(text, source: source, service: service)
        case .json: return try json(data, source: source)
        case .csv: return try csv(text, source: source)
        case .backup: preconditionFailure("the encrypted backup is read by the engine")
        }
    }

    // MARK: env

    /// `NAME=value` lines: `#` comments and blank lines skipped, an `export ` prefix allowed;
    /// a value bare (up to a ` #` comment, spaces around it dropped), in single quotes
    /// (literal), or in double quotes (`\\ \" \$ \` \n \r \t` escapes; it may span lines).
    static func env(_ text: String, source: String, service: String) throws -> [Entry] {
        var entries: [Entry] = []
        var seen: [String: String] = [:]
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(String.init)
        var index = 0
        while index < lines.count {
            let number = index + 1
            let origin = "\(source):\(number)"
            var line = lines[index].trimmingWhitespace()
            index += 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = String(line.dropFirst("export ".count)).trimmingWhitespace() }
            guard let equals = line.firstIndex(of: "=") else {
                throw CLIError.usage("\(origin): expected NAME=value (no '=' on this line).")
            }
            let name = line[..<equals].trimmingWhitespace()
            guard EnvironmentBinding.isValidName(name) else {
                throw CLIError.usage("\(origin): \(name.debugDescription) is not a variable name (letters, digits and _, not starting with a digit).")
            }
            if let earlier = seen[name] { throw CLIError.usage("\(origin): \(name) is already set at \(earlier).") }
            seen[name] = origin
            var rest = Substring(line[line.index(after: equals)...])
            while rest.first == " " || rest.first == "\t" { rest = rest.dropFirst() }
            var value = ""
            if rest.first == "'" {
                guard let close = rest.dropFirst().firstIndex(of: "'") else {
                    throw CLIError.usage("\(origin): \(name): the single quote is not closed (a single-quoted value has no escapes and ends on its line).")
                }
                value = String(rest[rest.index(after: rest.startIndex)..<close])
                try requireOnlyComment(after: rest[rest.index(after: close)...], origin: origin, name: name)
            } else if rest.first == "\"" {
                // A double-quoted value may continue on the next lines.
                var body = rest.dropFirst()
                var escaped = false
                var closed = false
                while !closed {
                    var position = body.startIndex
                    while position < body.endIndex {
                        let character = body[position]
                        if escaped {
                            switch character {
                            case "n": value += "\n"
                            case "r": value += "\r"
                            case "t": value += "\t"
                            case "\\", "\"", "$", "`": value.append(character)
                            default: value += "\\" + String(character)
                            }
                            escaped = false
                        } else if character == "\\" {
                            escaped = true
                        } else if character == "\"" {
                            closed = true
                            try requireOnlyComment(after: body[body.index(after: position)...], origin: origin, name: name)
                            break
                        } else {
                            value.append(character)
                        }
                        position = body.index(after: position)
                    }
                    if closed { break }
                    guard index < lines.count else {
                        throw CLIError.usage("\(origin): \(name): the double quote is not closed.")
                    }
                    if escaped { escaped = false } else { value += "\n" }
                    body = Substring(lines[index])
                    index += 1
                }
            } else {
                var bare = String(rest)
                if let comment = bare.range(of: " #") ?? bare.range(of: "\t#") { bare = String(bare[..<comment.lowerBound]) }
                value = bare.trimmingWhitespace()
            }
            var attributes = Attributes()
            attributes.service = service
            attributes.account = name
            entries.append(Entry(item: Item(itemClass: .genericPassword, attributes: attributes, data: Data(value.utf8)), origin: origin))
        }
        return entries
    }

    private static func requireOnlyComment(after rest: Substring, origin: String, name: String) throws {
        let trailing = rest.trimmingWhitespace()
        guard trailing.isEmpty || trailing.hasPrefix("#") else {
            throw CLIError.usage("\(origin): \(name): unexpected text after the closing quote.")
        }
    }

    // MARK: json

    /// An array of items as `list --show-secrets --json` prints them (`class`, `attributes`,
    /// `secret` or `secretBase64`; `ref` and dates are ignored), or flat objects with the
    /// attributes beside the secret (`{"service": …, "account": …, "secret": …}`).
    static func json(_ data: Data, source: String) throws -> [Entry] {
        let document: Any
        do {
            document = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw CLIError.usage("\(source) is not valid JSON. Expected an array of items, as `secstore list --show-secrets --json` prints.")
        }
        guard let array = document as? [Any] else {
            throw CLIError.usage("\(source): expected a JSON array of items, as `secstore list --show-secrets --json` prints.")
        }
        return try array.enumerated().map { index, element in
            let origin = "\(source) item \(index + 1)"
            guard let object = element as? [String: Any] else { throw CLIError.usage("\(origin) is not a JSON object.") }
            var fields = object["attributes"] as? [String: Any] ?? [:]
            if object["attributes"] == nil {
                fields = object.filter { !["class", "ref", "secret", "secretBase64"].contains($0.key) }
            } else if !(object["attributes"] is [String: Any]) {
                throw CLIError.usage("\(origin): \"attributes\" is not an object.")
            }
            let text = fields.compactMapValues { value -> String? in
                switch value {
                case let string as String: string
                case let number as NSNumber: number.stringValue
                case is [String: Any]: nil
                default: nil
                }
            }
            var binary: [String: Data] = [:]
            for (key, value) in fields {
                if let wrapped = value as? [String: Any] {
                    guard let encoded = wrapped["base64"] as? String, let bytes = Data(base64Encoded: encoded) else {
                        throw CLIError.usage("\(origin): \"\(key)\" is an object but not {\"base64\": …}.")
                    }
                    binary[key] = bytes
                } else if text[key] == nil && !(value is NSNull) {
                    throw CLIError.usage("\(origin): \"\(key)\" has a value of the wrong type.")
                }
            }
            let secret: Data
            if let encoded = object["secretBase64"] as? String {
                guard let bytes = Data(base64Encoded: encoded) else { throw CLIError.usage("\(origin): \"secretBase64\" is not base64.") }
                secret = bytes
            } else if let string = object["secret"] as? String {
                secret = Data(string.utf8)
            } else {
                throw CLIError.usage("\(origin) has no \"secret\" or \"secretBase64\".")
            }
            let itemClass = try itemClass(object["class"] as? String, fields: Set(fields.keys), origin: origin)
            let attributes = try Self.attributes(text, binary: binary, itemClass: itemClass, origin: origin, ignoring: ["creationDate", "modificationDate"])
            return Entry(item: Item(itemClass: itemClass, attributes: attributes, data: secret), origin: origin)
        }
    }

    // MARK: csv

    /// RFC 4180 CSV with a header row naming the columns of ``PlaintextExport/csvColumns``
    /// (any order and subset; `secret` or `secretBase64` required; `accessGroup` is accepted
    /// for `group`). An empty cell sets nothing.
    static func csv(_ text: String, source: String) throws -> [Entry] {
        let rows = try csvRows(text, source: source)
        guard let header = rows.first else { throw CLIError.usage("\(source) is empty: a CSV import needs a header row.") }
        let known = Set(PlaintextExport.csvColumns + ["secretBase64", "accessGroup"])
        var columns: [String] = []
        for name in header.fields {
            let trimmed = name.trimmingWhitespace()
            guard let match = known.first(where: { $0.lowercased() == trimmed.lowercased() }) else {
                throw CLIError.usage("\(source):1: unknown column \(trimmed.debugDescription). Columns: \(PlaintextExport.csvColumns.joined(separator: ", ")) (or secretBase64).")
            }
            let column = match == "accessGroup" ? "group" : match
            guard !columns.contains(column) else { throw CLIError.usage("\(source):1: the column \(column) is given twice.") }
            columns.append(column)
        }
        guard columns.contains("secret") || columns.contains("secretBase64") else {
            throw CLIError.usage("\(source):1: no secret column (secret, or secretBase64).")
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
            let itemClass = try itemClass(values.removeValue(forKey: "class"), fields: Set(values.keys), origin: origin)
            if let group = values.removeValue(forKey: "group") { values["accessGroup"] = group }
            let attributes = try Self.attributes(values, binary: [:], itemClass: itemClass, origin: origin, ignoring: [])
            return Entry(item: Item(itemClass: itemClass, attributes: attributes, data: secret), origin: origin)
        }
    }

    struct CSVRow {
        var fields: [String]
        /// The line the record starts on.
        var line: Int
    }

    /// RFC 4180 records: quoted fields may hold commas, doubled quotes and line breaks.
    static func csvRows(_ text: String, source: String) throws -> [CSVRow] {
        var rows: [CSVRow] = []
        var fields: [String] = []
        var field = ""
        var quoted = false, wasQuoted = false
        var line = 1, start = 1
        var characters = Array(text)
        if characters.first == "\u{FEFF}" { characters.removeFirst() }   // a byte-order mark from a spreadsheet
        var index = 0
        while index < characters.count {
            let character = characters[index]
            index += 1
            if quoted {
                if character == "\"" {
                    if index < characters.count, characters[index] == "\"" {
                        field.append("\"")
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    if character.isNewline { line += 1 }
                    field.append(character)
                }
                continue
            }
            switch character {
            case "\"" where field.isEmpty && !wasQuoted:
                quoted = true
                wasQuoted = true
            case ",":
                fields.append(field)
                field = ""
                wasQuoted = false
            case "\n", "\r\n", "\r":
                fields.append(field)
                rows.append(CSVRow(fields: fields, line: start))
                fields = []
                field = ""
                wasQuoted = false
                line += 1
                start = line
            default:
                guard !wasQuoted else {
                    throw CLIError.usage("\(source):\(line): text after a closing quote (write a quote inside a quoted field as \"\").")
                }
                field.append(character)
            }
        }
        guard !quoted else { throw CLIError.usage("\(source):\(start): a quoted field is not closed.") }
        if !field.isEmpty || !fields.isEmpty || wasQuoted {
            fields.append(field)
            rows.append(CSVRow(fields: fields, line: start))
        }
        return rows
    }

    // MARK: attributes

    /// `genp` or `inet` (also by their long names); without one, `inet` when an internet
    /// attribute is present, else `genp`.
    private static func itemClass(_ name: String?, fields: Set<String>, origin: String) throws -> ItemClass {
        if let name {
            guard let itemClass = ItemClass(argument: name) else {
                throw CLIError.usage("\(origin): unknown class \(name.debugDescription): genp or inet.")
            }
            return itemClass
        }
        let internet: Set<String> = ["server", "protocol", "port", "path", "securityDomain", "authenticationType"]
        return fields.isDisjoint(with: internet) ? .genericPassword : .internetPassword
    }

    /// Attributes from their JSON names (``ItemRendering/names``) and text values.
    private static func attributes(_ values: [String: String], binary: [String: Data], itemClass: ItemClass,
                                   origin: String, ignoring: Set<String>) throws -> Attributes {
        var attributes = Attributes()
        let keys = Dictionary(uniqueKeysWithValues: ItemRendering.names.map { ($0.value, $0.key) })
        for (name, bytes) in binary {
            guard let key = keys[name] else { throw CLIError.usage("\(origin): unknown attribute \(name.debugDescription).") }
            attributes[key] = .data(bytes)
        }
        for (name, value) in values where !ignoring.contains(name) {
            guard let key = keys[name] else {
                throw CLIError.usage("\(origin): unknown attribute \(name.debugDescription). Attributes: \(ItemRendering.names.values.sorted().joined(separator: ", ")).")
            }
            switch key {
            case .accessible:
                guard let accessibility = Accessibility(argument: value) else {
                    throw CLIError.usage("\(origin): unknown accessibility \(value.debugDescription).")
                }
                attributes.accessibility = accessibility
            case .protocol:
                guard let parsed = ProtocolArgument(argument: value) else {
                    throw CLIError.usage("\(origin): unknown protocol \(value.debugDescription): a name such as https or a four-character code.")
                }
                attributes.protocol = parsed.value
            case .port, .creator, .type:
                guard let number = Int64(value) else { throw CLIError.usage("\(origin): \(name) takes a number.") }
                attributes[key] = .number(number)
            case .synchronizable, .isInvisible, .isNegative:
                guard let bool = ["true": true, "false": false, "1": true, "0": false][value.lowercased()] else {
                    throw CLIError.usage("\(origin): \(name) takes true or false.")
                }
                attributes[key] = .bool(bool)
            case .creationDate, .modificationDate:
                continue   // set by the store
            default:
                attributes[key] = .string(value)
            }
        }
        return attributes
    }
}

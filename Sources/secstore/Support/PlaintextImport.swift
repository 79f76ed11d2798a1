import Foundation
import SecStore

/// Reads the plaintext formats ``PlaintextExport`` writes (and hand-written files in the same
/// shapes) into items with their secrets. Every error names where the problem is — the line
/// and column (env), the line and field (csv), the item and key (json) — and never quotes the
/// file's text: a line that is not what it should be is often a secret out of place (a
/// `KEY: value` line, the second line of an unquoted PEM key, a cell after an unquoted comma).
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
    ///
    /// Read by Unicode scalar, never by `Character`: a secret that begins with a combining mark
    /// (or a joiner, a variation selector) would make one `Character` of it and the quote,
    /// `=` or backslash written before it, hiding that delimiter.
    static func env(_ text: String, source: String, service: String) throws -> [Entry] {
        var entries: [Entry] = []
        var seen: [String: String] = [:]
        // Lines end at LF; a CR before it is part of the ending (CRLF files).
        let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.last == "\r" ? $0.dropLast() : $0 }
        var index = 0
        while index < lines.count {
            let number = index + 1
            let origin = "\(source):\(number)"
            let raw = lines[index]
            // Slices of `raw`, so that a position in them is a column of the line.
            var line = raw.drop(while: \.isTrimmedBlank)
            while line.last?.isTrimmedBlank == true { line = line.dropLast() }
            index += 1
            if line.isEmpty || line.first == "#" { continue }
            if line.starts(with: "export ".unicodeScalars) { line = line.dropFirst("export ".count).drop(while: \.isTrimmedBlank) }
            guard let equals = line.firstIndex(of: "=") else {
                throw CLIError.usage("\(origin): expected NAME=value (no '=' on this line). A value that spans lines goes in double quotes.")
            }
            var nameText = line[..<equals]
            while nameText.last?.isTrimmedBlank == true { nameText = nameText.dropLast() }
            let name = String(nameText)
            guard EnvironmentBinding.isValidName(name) else {
                let bad = EnvironmentBinding.firstInvalidCharacter(in: Substring(nameText)) ?? nameText.endIndex
                let column = raw.distance(from: raw.startIndex, to: bad) + 1
                throw CLIError.usage("\(origin):\(column): the text before '=' is not a variable name (letters, digits and _, not starting with a digit). A `NAME: value` line, or a line of an unquoted value that spans lines? Write NAME=value, with a value that spans lines in double quotes.")
            }
            if let earlier = seen[name] { throw CLIError.usage("\(origin): this name is already set at \(earlier).") }
            seen[name] = origin
            var rest = line[line.index(after: equals)...]
            while rest.first == " " || rest.first == "\t" { rest = rest.dropFirst() }
            var value = String.UnicodeScalarView()
            if rest.first == "'" {
                guard let close = rest.dropFirst().firstIndex(of: "'") else {
                    throw CLIError.usage("\(origin): the single quote is not closed (a single-quoted value has no escapes and ends on its line).")
                }
                value.append(contentsOf: rest[rest.index(after: rest.startIndex)..<close])
                try requireOnlyComment(after: rest[rest.index(after: close)...], origin: origin)
            } else if rest.first == "\"" {
                // A double-quoted value may continue on the next lines.
                var body = rest.dropFirst()
                var escaped = false
                var closed = false
                while !closed {
                    var position = body.startIndex
                    while position < body.endIndex {
                        let scalar = body[position]
                        if escaped {
                            switch scalar {
                            case "n": value.append("\n")
                            case "r": value.append("\r")
                            case "t": value.append("\t")
                            case "\\", "\"", "$", "`": value.append(scalar)
                            default: value.append(contentsOf: ["\\", scalar])
                            }
                            escaped = false
                        } else if scalar == "\\" {
                            escaped = true
                        } else if scalar == "\"" {
                            closed = true
                            try requireOnlyComment(after: body[body.index(after: position)...], origin: origin)
                            break
                        } else {
                            value.append(scalar)
                        }
                        position = body.index(after: position)
                    }
                    if closed { break }
                    guard index < lines.count else {
                        throw CLIError.usage("\(origin): the double quote is not closed.")
                    }
                    if escaped { escaped = false } else { value.append("\n") }
                    body = lines[index]
                    index += 1
                }
            } else {
                // Up to a ` #` comment, blanks around it dropped.
                var bare = rest
                if let comment = bare.indices.first(where: { $0 > bare.startIndex && bare[$0] == "#" && [" ", "\t"].contains(bare[bare.index(before: $0)]) }) {
                    bare = bare[..<comment]
                }
                bare = bare.drop(while: \.isTrimmedBlank)
                while bare.last?.isTrimmedBlank == true { bare = bare.dropLast() }
                value.append(contentsOf: bare)
            }
            var attributes = Attributes()
            attributes.service = service
            attributes.account = name
            entries.append(Entry(item: Item(itemClass: .genericPassword, attributes: attributes, data: Data(String(value).utf8)), origin: origin))
        }
        return entries
    }

    private static func requireOnlyComment(after rest: Substring.UnicodeScalarView, origin: String) throws {
        let trailing = rest.drop(while: \.isTrimmedBlank)
        guard trailing.isEmpty || trailing.first == "#" else {
            throw CLIError.usage("\(origin): unexpected text after the closing quote.")
        }
    }

    // MARK: json

    /// An array of items as `list --show-secrets --json` prints them (`class`, `attributes`,
    /// `customAttributes`, `secret` or `secretBase64`; `ref` and dates are ignored), or flat
    /// objects with the attributes beside the secret (`{"service": …, "account": …, "secret": …}`).
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
                fields = object.filter { !["class", "ref", "secret", "secretBase64", "customAttributes"].contains($0.key) }
            } else if !(object["attributes"] is [String: Any]) {
                throw CLIError.usage("\(origin): \"attributes\" is not an object.")
            }
            // Access control (items made through the API): set as given, checked by the store.
            var accessControl: AccessControlFlags?
            for key in ["accessControl", "accc"] {
                guard let value = fields.removeValue(forKey: key) else { continue }
                guard accessControl == nil else { throw CLIError.usage("\(origin): give \"accessControl\" once (\"accc\" is its older name).") }
                accessControl = try accessControlFlags(value, field: "\(origin): \"\(key)\"")
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
            let field = { (key: String) in "\(origin): \"\(key)\"" }
            let itemClass = try itemClass(object["class"] as? String, fields: Set(fields.keys), field: field("class"))
            var attributes = try Self.attributes(text, binary: binary, itemClass: itemClass, origin: origin, field: field,
                                                 ignoring: ["creationDate", "modificationDate"])
            if let accessControl { attributes.accessControlFlags = accessControl }
            if let custom = object["customAttributes"] {
                // Free-form attributes (a Secret Service item's lookup attributes): text names and values.
                guard let pairs = custom as? [String: Any], let text = pairs as? [String: String] else {
                    throw CLIError.usage("\(field("customAttributes")) is not an object of text values.")
                }
                attributes.custom = text
            }
            return Entry(item: Item(itemClass: itemClass, attributes: attributes, data: secret), origin: origin)
        }
    }

    /// `accessControl`: an array of flag names (``ItemRendering/accessControlNames``), as
    /// `list --json` writes it, or the flags' number (what earlier versions wrote as `accc`).
    /// Which combinations an item may have is the store's rule (``AccessControlFlags``).
    private static func accessControlFlags(_ value: Any, field: String) throws -> AccessControlFlags {
        if let names = value as? [Any] {
            var flags = AccessControlFlags()
            for name in names {
                guard let name = name as? String, let flag = ItemRendering.accessControlNames.first(where: { $0.name == name })?.flag else {
                    throw CLIError.usage("\(field) holds something that is not an access-control flag: \(ItemRendering.accessControlNames.map(\.name).joined(separator: ", ")).")
                }
                flags.insert(flag)
            }
            return flags
        }
        // A JSON `true` is an NSNumber too (Foundation's boolean class), never a set of flags.
        let isBoolean = { (number: NSNumber) in type(of: number) == type(of: NSNumber(value: true)) }
        if let number = value as? NSNumber, !isBoolean(number), let raw = UInt(exactly: number.int64Value),
           number.doubleValue == Double(number.int64Value) {
            return AccessControlFlags(rawValue: raw)
        }
        throw CLIError.usage("\(field) is not an array of access-control flag names (such as [\"userPresence\"]).")
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

    // MARK: attributes

    /// `genp` or `inet` (also by their long names); without one, `inet` when an internet
    /// attribute is present, else `genp`. `field` is where the class was given, for the error.
    private static func itemClass(_ name: String?, fields: Set<String>, field: String) throws -> ItemClass {
        if let name {
            guard let itemClass = ItemClass(argument: name) else {
                throw CLIError.usage("\(field) is not a class: genp or inet.")
            }
            return itemClass
        }
        let internet: Set<String> = ["server", "protocol", "port", "path", "securityDomain", "authenticationType"]
        return fields.isDisjoint(with: internet) ? .genericPassword : .internetPassword
    }

    /// Attributes from their JSON names (``ItemRendering/names``) and text values. `field`
    /// names where an attribute was given (a CSV field, a JSON key), for errors that never
    /// quote the value.
    private static func attributes(_ values: [String: String], binary: [String: Data], itemClass: ItemClass,
                                   origin: String, field: (String) -> String, ignoring: Set<String>) throws -> Attributes {
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
                    throw CLIError.usage("\(field(name)) is not an accessibility: \(Accessibility.allValueStrings.joined(separator: ", ")).")
                }
                attributes.accessibility = accessibility
            case .protocol:
                guard let parsed = ProtocolArgument(argument: value) else {
                    throw CLIError.usage("\(field(name)) is not a protocol: a name such as https, or a four-character code.")
                }
                attributes.protocol = parsed.value
            case .port, .creator, .type:
                guard let number = Int64(value) else { throw CLIError.usage("\(field(name)) is not a number.") }
                attributes[key] = .number(number)
            case .synchronizable, .isInvisible, .isNegative:
                guard let bool = ["true": true, "false": false, "1": true, "0": false][value.lowercased()] else {
                    throw CLIError.usage("\(field(name)) is not true or false.")
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

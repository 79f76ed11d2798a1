import Foundation
import SecStore

/// The interchange formats of `export --format` and `import --format`: SecStore's encrypted
/// backup (the default), or plaintext `env`, `json` and `csv` (only on explicit request).
enum InterchangeFormat: String, CaseIterable, Sendable {
    case backup, env, json, csv

    var isPlaintext: Bool { self != .backup }
}

/// Writes items with their secrets as plaintext: `.env` lines, the JSON array of
/// `list --show-secrets --json`, or CSV. The shapes are documented in `docs/cli.md`
/// ("Plaintext interchange") and read back by ``PlaintextImport``.
///
/// ```swift
/// var bytes = try PlaintextExport.encode(items, as: .csv)
/// defer { bytes.wipe() }
/// ```
enum PlaintextExport {
    /// The CSV columns, in order; `group` is the access group.
    static let csvColumns = ["class", "service", "account", "group", "label", "description", "comment", "accessibility",
                             "server", "protocol", "port", "path", "securityDomain", "authenticationType", "secret"]

    /// The file's bytes, in a buffer the caller wipes (``WipingBuffer/wipe()``): the secrets
    /// are copied there and nowhere else, never into a `String`, which could not be wiped.
    static func encode(_ items: [Item], as format: InterchangeFormat) throws -> WipingBuffer {
        if format == .json {
            return JSONText.document(.array(items.map { ItemRendering.json($0, includeSecret: true) }))
        }
        var text = WipingBuffer()
        do {
            switch format {
            case .csv: try appendCSV(items, to: &text)
            case .env: try appendEnv(items, to: &text)
            case .json, .backup: preconditionFailure("json is above; the encrypted backup is written by the engine")
            }
        } catch {
            text.wipe()
            throw error
        }
        return text
    }

    /// What to say of an export of `byteCount` bytes that `secstore import` would refuse whole
    /// (over ``PlaintextImport/largestFile``), or `nil`. The export is still written, since
    /// other programs read it; the encrypted backup is read as a stream and has no such limit.
    static func importLimitWarning(byteCount: Int) -> String? {
        guard byteCount > PlaintextImport.largestFile else { return nil }
        return "The export is \(byteCount) bytes, more than the \(PlaintextImport.largestFile >> 20) MiB `secstore import` reads: SecStore cannot import this file back whole. To bring these items back, export them in parts (--service, --account), or use the encrypted backup (`secstore export FILE`), which has no such limit."
    }

    private static func appendCSV(_ items: [Item], to text: inout WipingBuffer) throws {
        appendCSVLine(csvColumns.map { Array($0.utf8) }, to: &text)
        for item in items {
            let secret = try utf8Secret(item, format: "CSV")
            for (index, column) in csvColumns.enumerated() {
                if index > 0 { text.append(UInt8(ascii: ",")) }
                if column == "secret" {
                    appendCSVField(secret, to: &text)
                } else {
                    appendCSVField(try cell(item, column).utf8, to: &text)
                }
            }
            text.append(UInt8(ascii: "\n"))
        }
    }

    private static func appendEnv(_ items: [Item], to text: inout WipingBuffer) throws {
        var seen: [String: Item] = [:]
        for item in items {
            let name = item.attributes.account ?? ""
            guard EnvironmentBinding.isValidName(name) else {
                throw CLIError.usage("The account \(Table.quoted(name)) (service \(Table.quoted(item.attributes.service ?? ""))) is not an environment variable name, which --format env writes each account as. Narrow the export (--service, --account) or use --format json or csv.")
            }
            if let other = seen[name] {
                throw CLIError.usage("Two items have the account \(name) (services \(Table.quoted(other.attributes.service ?? "")) and \(Table.quoted(item.attributes.service ?? ""))): --format env writes NAME=secret lines, one per account. Narrow the export with --service.")
            }
            seen[name] = item
            let secret = try utf8Secret(item, format: "env")
            text.append(contentsOf: name.utf8)
            text.append(UInt8(ascii: "="))
            appendEnvValue(secret, to: &text)
            text.append(UInt8(ascii: "\n"))
        }
    }

    /// The secret, checked to be UTF-8 text, or an error that names the item and the format
    /// that can carry it.
    private static func utf8Secret(_ item: Item, format: String) throws -> Data {
        let data = item.data ?? Data()
        guard ItemRendering.isUTF8(data) else {
            throw CLIError.usage("The secret of \(item.itemClass.rawValue) item (\(AddCommand.describe(item))) is not UTF-8 text, which \(format) cannot carry. Export it with --format json (secretBase64).")
        }
        return data
    }

    /// A CSV cell: the attribute's JSON form as text (accessibility by name, protocol and
    /// authentication type by code, the port in decimal), empty when the item has none. CSV
    /// holds text only: bytes that are UTF-8 are written as their text (they import as text);
    /// other bytes are an error that names the item, never an empty cell.
    private static func cell(_ item: Item, _ column: String) throws -> String {
        switch column {
        case "class": return item.itemClass.rawValue
        case "group": return item.attributes.accessGroup ?? ""
        default:
            guard let key = ItemRendering.names.first(where: { $0.value == column })?.key, let value = item.attributes[key] else { return "" }
            if case .data(let bytes) = value {
                guard let text = String(validating: Array(bytes), as: UTF8.self) else {
                    throw CLIError.usage("The \(column) of \(item.itemClass.rawValue) item (\(AddCommand.describe(item))) is bytes that are not UTF-8 text, which CSV cannot carry. Export it with --format json.")
                }
                return text
            }
            switch ItemRendering.json(value, for: key) {
            case .string(let text): return text
            case .number(let number): return String(number)
            case .bool(let bool): return bool ? "true" : "false"
            default: return ""
            }
        }
    }

    /// RFC 4180: a field with a comma, quote, line break (CR, LF, VT, FF, NEL, U+2028,
    /// U+2029) or surrounding space is quoted, quotes doubled. Fields are UTF-8 bytes.
    static func appendCSVLine(_ fields: [[UInt8]], to text: inout WipingBuffer) {
        for (index, field) in fields.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            appendCSVField(field, to: &text)
        }
        text.append(UInt8(ascii: "\n"))
    }

    private static func appendCSVField<Field: BidirectionalCollection<UInt8>>(_ field: Field, to text: inout WipingBuffer) {
        let needsQuotes = field.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || (0x0A...0x0D).contains($0) }
            || hasUnicodeLineBreak(field) || field.first == UInt8(ascii: " ") || field.last == UInt8(ascii: " ")
        guard needsQuotes else { return text.append(contentsOf: field) }
        text.append(UInt8(ascii: "\""))
        for byte in field {
            if byte == UInt8(ascii: "\"") { text.append(byte) }
            text.append(byte)
        }
        text.append(UInt8(ascii: "\""))
    }

    /// NEL (C2 85), LINE SEPARATOR (E2 80 A8) or PARAGRAPH SEPARATOR (E2 80 A9) in UTF-8.
    private static func hasUnicodeLineBreak<Field: Collection<UInt8>>(_ field: Field) -> Bool {
        var before: (UInt8, UInt8) = (0, 0)
        for byte in field {
            if before.1 == 0xC2 && byte == 0x85 { return true }
            if before == (0xE2, 0x80) && (byte == 0xA8 || byte == 0xA9) { return true }
            before = (before.1, byte)
        }
        return false
    }

    /// A `.env` value: bare when it holds only characters no reader treats specially, in
    /// single quotes when it has no quote or control character (C0, DEL, C1), else in double
    /// quotes with `\\`, `\"`, `\$`, `` \` ``, `\n`, `\r`, `\t` escapes. `value` is valid UTF-8.
    static func appendEnvValue(_ value: Data, to text: inout WipingBuffer) {
        if value.allSatisfy(isBare) { return text.append(contentsOf: value) }
        var control = false
        var before: UInt8 = 0
        for byte in value {
            if byte < 0x20 || byte == 0x7F || (before == 0xC2 && (0x80...0x9F).contains(byte)) { control = true }
            before = byte
        }
        if !control && !value.contains(UInt8(ascii: "'")) {
            text.append(UInt8(ascii: "'"))
            text.append(contentsOf: value)
            return text.append(UInt8(ascii: "'"))
        }
        text.append(UInt8(ascii: "\""))
        for byte in value {
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "$"), UInt8(ascii: "`"):
                text.append(UInt8(ascii: "\\"))
                text.append(byte)
            case UInt8(ascii: "\n"): text.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): text.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): text.append(contentsOf: #"\t"#.utf8)
            default: text.append(byte)
            }
        }
        text.append(UInt8(ascii: "\""))
    }

    /// ASCII letters and digits and `_./:@%+,=-`.
    private static func isBare(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: bareSymbols.contains(byte)
        }
    }

    private static let bareSymbols = Set("_./:@%+,=-".utf8)
}

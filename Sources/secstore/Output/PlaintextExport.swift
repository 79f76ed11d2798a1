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
/// let bytes = try PlaintextExport.encode(items, as: .csv)
/// ```
enum PlaintextExport {
    /// The CSV columns, in order; `group` is the access group.
    static let csvColumns = ["class", "service", "account", "group", "label", "description", "comment", "accessibility",
                             "server", "protocol", "port", "path", "securityDomain", "authenticationType", "secret"]

    static func encode(_ items: [Item], as format: InterchangeFormat) throws -> Data {
        switch format {
        case .json:
            return Data((JSONOutput.render(.array(items.map { ItemRendering.json($0, includeSecret: true) })) + "\n").utf8)
        case .csv:
            var text = csvLine(csvColumns)
            for item in items {
                let secret = try utf8Secret(item, format: "CSV")
                text += csvLine(csvColumns.map { column in
                    column == "secret" ? secret : cell(item, column)
                })
            }
            return Data(text.utf8)
        case .env:
            var text = ""
            var seen: [String: Item] = [:]
            for item in items {
                let name = item.attributes.account ?? ""
                guard EnvironmentBinding.isValidName(name) else {
                    throw CLIError.usage("The account \(name.debugDescription) (service \((item.attributes.service ?? "").debugDescription)) is not an environment variable name, which --format env writes each account as. Narrow the export (--service, --account) or use --format json or csv.")
                }
                if let other = seen[name] {
                    throw CLIError.usage("Two items have the account \(name) (services \((other.attributes.service ?? "").debugDescription) and \((item.attributes.service ?? "").debugDescription)): --format env writes NAME=secret lines, one per account. Narrow the export with --service.")
                }
                seen[name] = item
                text += name + "=" + envValue(try utf8Secret(item, format: "env")) + "\n"
            }
            return Data(text.utf8)
        case .backup:
            preconditionFailure("the encrypted backup is written by the engine")
        }
    }

    /// The secret as text, or an error that names the item and the format that can carry it.
    private static func utf8Secret(_ item: Item, format: String) throws -> String {
        guard let text = String(validating: Array(item.data ?? Data()), as: UTF8.self) else {
            throw CLIError.usage("The secret of \(item.itemClass.rawValue) item (\(AddCommand.describe(item))) is not UTF-8 text, which \(format) cannot carry. Export it with --format json (secretBase64).")
        }
        return text
    }

    /// A CSV cell: the attribute's JSON form as text (accessibility by name, protocol and
    /// authentication type by code, the port in decimal), empty when the item has none.
    private static func cell(_ item: Item, _ column: String) -> String {
        switch column {
        case "class": return item.itemClass.rawValue
        case "group": return item.attributes.accessGroup ?? ""
        default:
            guard let key = ItemRendering.names.first(where: { $0.value == column })?.key, let value = item.attributes[key] else { return "" }
            switch ItemRendering.json(value, for: key) {
            case .string(let text): return text
            case .number(let number): return String(number)
            case .bool(let bool): return bool ? "true" : "false"
            default: return ""
            }
        }
    }

    /// RFC 4180: a field with a comma, quote, CR, LF or surrounding space is quoted, quotes doubled.
    static func csvLine(_ fields: [String]) -> String {
        fields.map { field in
            let needsQuotes = field.contains { $0 == "," || $0 == "\"" || $0.isNewline } || field.first == " " || field.last == " "
            return needsQuotes ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
        }.joined(separator: ",") + "\n"
    }

    /// A `.env` value: bare when it holds only characters no reader treats specially, in
    /// single quotes when it has no quote or control character, else in double quotes with
    /// `\\`, `\"`, `\$`, `` \` ``, `\n`, `\r`, `\t` escapes.
    static func envValue(_ value: String) -> String {
        let safe = value.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_./:@%+,=-".unicodeScalars.contains($0)) }
        if safe { return value }
        let control = value.unicodeScalars.contains { $0.properties.generalCategory == .control }
        if !value.contains("'") && !control { return "'" + value + "'" }
        var escaped = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "$": escaped += "\\$"
            case "`": escaped += "\\`"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }
}

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

    /// The largest plaintext file read (256 MiB): room for several secrets of the largest
    /// size. A larger export is written with a warning (``PlaintextExport/importLimitWarning(byteCount:)``).
    static let largestFile = 256 << 20

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

    // The formats' readers: PlaintextImport+Env.swift, +JSON.swift, +CSV.swift.

    // MARK: attributes, shared by json and csv

    /// `genp` or `inet` (also by their long names); without one, `inet` when an internet
    /// attribute is present, else `genp`. `field` is where the class was given, for the error.
    static func itemClass(_ name: String?, fields: Set<String>, field: String) throws -> ItemClass {
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
    static func attributes(_ values: [String: String], binary: [String: Data], itemClass: ItemClass,
                                   origin: String, field: (String) -> String, ignoring: Set<String>) throws -> Attributes {
        var attributes = Attributes()
        let keys = Dictionary(uniqueKeysWithValues: ItemRendering.names.map { ($0.value, $0.key) })
        for (name, bytes) in binary {
            guard let key = keys[name] else { throw CLIError.usage("\(origin): unknown attribute \(Table.quoted(name)).") }
            attributes[key] = .data(bytes)
        }
        for (name, value) in values where !ignoring.contains(name) {
            guard let key = keys[name] else {
                throw CLIError.usage("\(origin): unknown attribute \(Table.quoted(name)). Attributes: \(ItemRendering.names.values.sorted().joined(separator: ", ")).")
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
                if key == .port, !ItemOptions.ports.contains(number) {
                    throw CLIError.usage("\(field(name)) is not a port: a port is between 0 and 65535.")
                }
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
        // The rule `add --synchronizable` follows: a …ThisDeviceOnly item never syncs, so a
        // file asking for both is told, not imported as an item that silently stays here.
        if attributes.isSynchronizable == true {
            do {
                try SyncJournal.checkCanSync(attributes)
            } catch let error as SecStoreError {
                throw CLIError.usage("\(origin): \(error.message)")
            }
        }
        return attributes
    }
}

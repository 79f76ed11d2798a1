import Foundation
import SecStore

/// How items appear in output: attribute names, value formats, and the JSON item shape
/// documented in `docs/cli.md`:
///
/// ```json
/// { "class": "genp", "ref": "67656e70…", "attributes": { "service": "api", "account": "alice", … } }
/// ```
///
/// plus `"customAttributes"` (free-form name/value pairs) when the item has any, and `"secret"`
/// (UTF-8 text or null) and `"secretBase64"` only when the secret was asked for.
enum ItemRendering {
    /// The JSON name of each attribute: the property name in SecStore's `Attributes`.
    static let names: [AttributeKey: String] = [
        .account: "account", .service: "service", .generic: "generic", .label: "label",
        .itemDescription: "description", .comment: "comment", .creator: "creator", .type: "type",
        .isInvisible: "isInvisible", .isNegative: "isNegative", .accessGroup: "accessGroup",
        .accessible: "accessibility", .synchronizable: "synchronizable", .creationDate: "creationDate",
        .modificationDate: "modificationDate", .securityDomain: "securityDomain", .server: "server",
        .protocol: "protocol", .authenticationType: "authenticationType", .port: "port", .path: "path",
        .accessControl: "accessControl",
    ]

    /// The JSON name of each access-control flag (`SecAccessControlCreateFlags`, without
    /// Apple's `kSecAccessControl` prefix), in bit order: `accessControl` is an array of them.
    static let accessControlNames: [(flag: AccessControlFlags, name: String)] = [
        (.userPresence, "userPresence"), (.biometryAny, "biometryAny"), (.biometryCurrentSet, "biometryCurrentSet"),
        (.devicePasscode, "devicePasscode"), (.companion, "companion"), (.or, "or"), (.and, "and"),
        (.privateKeyUsage, "privateKeyUsage"), (.applicationPassword, "applicationPassword"),
    ]

    /// `accessControl` as JSON: the names of its flags; the raw number when it holds a bit
    /// without a name (none is stored: an add refuses unknown bits).
    static func accessControlJSON(_ flags: AccessControlFlags) -> JSONValue {
        let named = accessControlNames.filter { flags.contains($0.flag) }
        guard AccessControlFlags(named.map(\.flag)) == flags else { return .number(Int64(truncatingIfNeeded: flags.rawValue)) }
        return .array(named.map { .string($0.name) })
    }

    static func json(_ item: Item, includeSecret: Bool) -> JSONValue {
        var object: [String: JSONValue] = [
            "class": .string(item.itemClass.rawValue),
            "ref": JSONValue.optional(item.persistentReference?.hexString),
            "attributes": attributesJSON(item.attributes),
        ]
        if !item.attributes.custom.isEmpty {
            object["customAttributes"] = .object(item.attributes.custom.mapValues(JSONValue.string))
        }
        if includeSecret, let data = item.data { object.merge(secretFields(data)) { $1 } }
        return .object(object)
    }

    /// `secret` (UTF-8 text, else null) and `secretBase64`, as bytes, not Strings: the JSON
    /// text is written into a wiped buffer (JSONText).
    static func secretFields(_ data: Data) -> [String: JSONValue] {
        ["secret": isUTF8(data) ? .utf8(data) : .null, "secretBase64": .base64(data)]
    }

    /// Whether `bytes` are valid UTF-8 (what `String(validating:as:)` accepts), checked in
    /// place: a secret is not copied into a `String` to find out.
    static func isUTF8<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    static func attributesJSON(_ attributes: Attributes) -> JSONValue {
        var object = [String: JSONValue](minimumCapacity: attributes.count)
        for (key, value) in attributes {
            object[names[key] ?? key.rawValue] = json(value, for: key)
        }
        return .object(object)
    }

    /// Booleans as `true`/`false`, accessibility by name, dates as ISO 8601, numbers as
    /// numbers, text as strings, and bytes as `{"base64": "…"}`, even bytes that are UTF-8:
    /// an item keeps the type it was given (`kSecAttrGeneric` is data), so a value written as
    /// a string would come back from `import --format json` as text, and the API would then
    /// return an `NSString` where the application stored `Data`.
    static func json(_ value: AttributeValue, for key: AttributeKey) -> JSONValue {
        if booleanKeys.contains(key), let bool = value.boolValue {
            return .bool(bool)
        }
        if key == .accessible, let raw = value.stringValue, let accessibility = Accessibility(rawValue: raw) {
            return .string(accessibility.description)
        }
        if key == .accessControl, case .number(let number) = value, let raw = UInt(exactly: number) {
            return accessControlJSON(AccessControlFlags(rawValue: raw))
        }
        switch value {
        case .string(let string): return .string(string)
        case .number(let number): return .number(number)
        case .date(let date): return .string(date.jsonString)
        case .data(let data): return ["base64": .string(data.base64EncodedString())]
        }
    }

    /// The attributes `--json` writes as `true`/`false` (and import reads from them).
    static let booleanKeys: Set<AttributeKey> = [.synchronizable, .isInvisible, .isNegative]

    /// A value for a table cell (``Table`` makes it safe for a terminal).
    static func text(_ value: AttributeValue?, for key: AttributeKey) -> String {
        guard let value else { return "" }
        if key == .accessible, let raw = value.stringValue, let accessibility = Accessibility(rawValue: raw) {
            return accessibility.description
        }
        switch value {
        case .date(let date): return date.formatted(Date.ISO8601FormatStyle())
        case .data(let data):
            if let text = String(validating: Array(data), as: UTF8.self) { return text }
            return "<\(data.count) bytes>"
        default: return value.stringValue ?? ""
        }
    }

    /// The item's name attribute: service for generic passwords, server for internet ones.
    static func name(_ item: Item) -> String {
        item.itemClass == .genericPassword ? text(item.attributes[.service], for: .service)
            : text(item.attributes[.server], for: .server)
    }

    /// A secret for a table or tsv cell: its text when it is UTF-8 (the table escapes its
    /// control characters, newlines included, as `\u{a}`), else its size, `<N bytes>` (bytes
    /// that are not text have no cell form; `--json` carries them as base64).
    static func secretText(_ data: Data?) -> String {
        guard let data else { return "" }
        return String(validating: Array(data), as: UTF8.self) ?? "<\(data.count) bytes>"
    }
}

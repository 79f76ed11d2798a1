import Foundation
import SecStore

/// `--format json`: the array `list --show-secrets --json` prints (``PlaintextImport/json(_:source:)``).
extension PlaintextImport {
    /// Whether JSONSerialization read `value` from `true` or `false`: an `NSNumber` too, of
    /// Foundation's boolean class.
    static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return type(of: number) == booleanClass
    }

    private static let booleanClass = type(of: NSNumber(value: true))

    /// The attributes a JSON boolean may give (`list --json` writes them as booleans).
    private static let booleanNames = Set(ItemRendering.booleanKeys.compactMap { ItemRendering.names[$0] })

    /// The members of an item beside its attributes, as `list --show-secrets --json` prints it.
    private static let itemKeys: Set<String> = ["class", "ref", "secret", "secretBase64", "customAttributes"]

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
        if let duplicate = data.withUnsafeBytes({ JSONDuplicateKeys.first(in: $0) }) {
            throw CLIError.usage("\(source) item \(duplicate.item): the key \(Table.quoted(duplicate.key)) is given twice in one object (or in two spellings of the same text). JSON readers keep one of the values, not all the same one: give it once.")
        }
        return try array.enumerated().map { index, element in
            let origin = "\(source) item \(index + 1)"
            guard let object = element as? [String: Any] else { throw CLIError.usage("\(origin) is not a JSON object.") }
            var fields = object["attributes"] as? [String: Any] ?? [:]
            if object["attributes"] == nil {
                fields = object.filter { !itemKeys.contains($0.key) }
            } else if !(object["attributes"] is [String: Any]) {
                throw CLIError.usage("\(origin): \"attributes\" is not an object.")
            } else if let stray = object.keys.filter({ !itemKeys.contains($0) && $0 != "attributes" }).sorted().first {
                // An attribute beside "attributes" would be dropped without a word.
                throw CLIError.usage("\(origin): unknown key \(Table.quoted(stray)) beside \"attributes\". An item holds class, ref, attributes, customAttributes, secret and secretBase64; its attributes go inside \"attributes\".")
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
                        throw CLIError.usage("\(origin): \(Table.quoted(key)) is an object but not {\"base64\": …}.")
                    }
                    binary[key] = bytes
                } else if text[key] == nil && !(value is NSNull) || isBoolean(value) && !booleanNames.contains(key) {
                    // `true` is not a port, a label or a creator code (it read as 1).
                    throw CLIError.usage("\(origin): \(Table.quoted(key)) has a value of the wrong type.")
                }
            }
            // A secret given in a form it cannot have is refused, not passed over for the other.
            for key in ["secretBase64", "secret"] {
                if let value = object[key], !(value is NSNull), !(value is String) {
                    throw CLIError.usage("\(origin): \"\(key)\" is not text.")
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
        // A JSON `true` is an NSNumber too, never a set of flags.
        if let number = value as? NSNumber, !isBoolean(number), let raw = UInt(exactly: number.int64Value),
           number.doubleValue == Double(number.int64Value) {
            return AccessControlFlags(rawValue: raw)
        }
        throw CLIError.usage("\(field) is not an array of access-control flag names (such as [\"userPresence\"]).")
    }
}

/// One D-Bus value, as the provider reads call arguments and writes replies, properties and
/// signals: a small tree that carries its own signature, so that the rest of the provider never
/// touches sd-bus (BusConnection, BusMessageReader and BusMessageWriter do).
package indirect enum BusValue: Equatable {
    case byte(UInt8)
    case boolean(Bool)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// `ay`, read and written in one piece (secrets travel this way).
    case bytes([UInt8])
    /// `a<element>`: `element` is the signature of every value, so an empty array has one.
    case array(element: String, [BusValue])
    /// `{kv}`, only inside an array.
    case dictEntry(BusValue, BusValue)
    /// `(…)`
    case structure([BusValue])
    /// `v`
    case variant(BusValue)

    /// The value's complete D-Bus signature.
    package var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .bytes: "ay"
        case .array(let element, _): "a" + element
        case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    // MARK: Building the shapes the Secret Service uses

    /// `a{ss}`, sorted by name so that replies are stable.
    package static func stringDictionary(_ dictionary: [String: String]) -> BusValue {
        .array(element: "{ss}", dictionary.sorted { $0.key < $1.key }.map { .dictEntry(.string($0.key), .string($0.value)) })
    }

    /// `ao`
    static func objectPaths(_ paths: [String]) -> BusValue {
        .array(element: "o", paths.map(BusValue.objectPath))
    }

    /// `a{sv}`
    static func properties(_ dictionary: [String: BusValue]) -> BusValue {
        .array(element: "{sv}", dictionary.sorted { $0.key < $1.key }.map { .dictEntry(.string($0.key), .variant($0.value)) })
    }

    // MARK: Reading arguments

    /// The text of an `s`, `o` or `g`.
    var text: String? {
        switch self {
        case .string(let value), .objectPath(let value), .signature(let value): value
        default: nil
        }
    }

    var bool: Bool? { if case .boolean(let value) = self { value } else { nil } }

    /// The bytes of an `ay`.
    var byteArray: [UInt8]? {
        switch self {
        case .bytes(let bytes): bytes
        case .array("y", let values): values.compactMap { if case .byte(let byte) = $0 { byte } else { nil } }
        default: nil
        }
    }

    /// The elements of any array.
    var elements: [BusValue]? { if case .array(_, let values) = self { values } else { nil } }

    /// The fields of a structure.
    var fields: [BusValue]? { if case .structure(let values) = self { values } else { nil } }

    /// The content of a variant; any other value is itself.
    var unwrapped: BusValue { if case .variant(let inner) = self { inner.unwrapped } else { self } }

    /// An `a{ss}` as a dictionary (a name given twice keeps its last value).
    var stringDictionary: [String: String]? {
        guard case .array(_, let entries) = self else { return nil }
        var result: [String: String] = [:]
        for entry in entries {
            guard case .dictEntry(let key, let value) = entry, case .string(let name) = key,
                  case .string(let text) = value else { return nil }
            result[name] = text
        }
        return result
    }

    /// An `a{sv}` as a dictionary of the variants' contents.
    var variantDictionary: [String: BusValue]? {
        guard case .array(_, let entries) = self else { return nil }
        var result: [String: BusValue] = [:]
        for entry in entries {
            guard case .dictEntry(let key, let value) = entry, case .string(let name) = key else { return nil }
            result[name] = value.unwrapped
        }
        return result
    }

    /// An `ao` as paths.
    var paths: [String]? {
        guard case .array(_, let values) = self else { return nil }
        return values.compactMap { if case .objectPath(let path) = $0 { path } else { nil } }
    }
}

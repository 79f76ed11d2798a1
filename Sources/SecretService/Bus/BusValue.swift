import SecStore

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
    /// `ay`, read and written in one piece (secrets travel this way: ``wipeBytes(of:)``).
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

    /// An `a{ss}` as a dictionary (a name given twice keeps its last value); `what` names the
    /// argument in the error. `InvalidArgs` for another shape, and for two names that are
    /// different strings on the bus but one key in Swift (``insert(_:_:into:what:)``).
    func stringDictionary(_ what: String) throws(BusError) -> [String: String] {
        guard case .array(_, let entries) = self else { throw .invalidArgs("\(what) must be a{ss}.") }
        var result: [String: String] = [:]
        for entry in entries {
            guard case .dictEntry(let key, let value) = entry, case .string(let name) = key,
                  case .string(let text) = value else { throw .invalidArgs("\(what) must be a{ss}.") }
            try Self.insert(name, text, into: &result, what: what)
        }
        return result
    }

    /// An `a{sv}` as a dictionary of the variants' contents, by the same rules as
    /// ``stringDictionary(_:)``.
    func variantDictionary(_ what: String) throws(BusError) -> [String: BusValue] {
        guard case .array(_, let entries) = self else { throw .invalidArgs("\(what) must be a{sv}.") }
        var result: [String: BusValue] = [:]
        for entry in entries {
            guard case .dictEntry(let key, let value) = entry, case .string(let name) = key else {
                throw .invalidArgs("\(what) must be a{sv}.")
            }
            try Self.insert(name, value.unwrapped, into: &result, what: what)
        }
        return result
    }

    /// Adds one entry of a D-Bus dictionary. D-Bus strings are byte strings, but Swift's
    /// `String` keys compare by Unicode canonical equivalence: "é" (U+00E9) and "e" + U+0301
    /// are two names on the bus and one key here, and in the store (whose attribute names are
    /// Swift strings too). Merging them would keep one name's bytes with the other's value, so
    /// such a pair is refused with `InvalidArgs`; the message names neither (no attribute
    /// name or value leaves the provider in an error).
    private static func insert<Value>(_ name: String, _ value: Value, into dictionary: inout [String: Value],
                                      what: String) throws(BusError) {
        if let index = dictionary.index(forKey: name), !dictionary.keys[index].utf8.elementsEqual(name.utf8) {
            throw .invalidArgs("\(what) has two names that are different bytes but the same Unicode text (canonically equivalent, as \"\\u{E9}\" and \"e\\u{301}\" are); the store cannot keep both. Send each name in one spelling (for example NFC).")
        }
        dictionary[name] = value
    }

    /// An `ao` as paths.
    var paths: [String]? {
        guard case .array(_, let values) = self else { return nil }
        return values.compactMap { if case .objectPath(let path) = $0 { path } else { nil } }
    }
}

extension BusValue {
    /// Zeroes the bytes of every `ay` in `values` (``Wipe``) and leaves `values` empty: for the
    /// values of a message that is done with. Secrets cross the bus as `ay`, and a `[UInt8]`
    /// is freed as it was. ``BusConnection`` calls it on every call's arguments once the
    /// handler has returned and on every reply once it is sent; ``BusMessageReader`` on what
    /// it read of a body it could not finish; `GetSecrets` on the secrets of a reply it gives up.
    ///
    /// An array inside an `indirect` case cannot be zeroed in place: `withUnsafeMutableBytes`
    /// would find it shared with its case's box and zero a copy. So the arrays are collected
    /// first, the values let go of, and each array zeroed once the collection is its only
    /// holder. `values` must be the only holder of its values: a copy kept elsewhere (or an
    /// array literal, which is a static object) keeps its bytes, and a copy of them is zeroed.
    ///
    /// ```swift
    /// reply(to: message, values)
    /// BusValue.wipeBytes(of: &values)
    /// ```
    static func wipeBytes(of values: inout [BusValue]) {
        var arrays: [[UInt8]] = []
        for value in values { value.collectByteArrays(into: &arrays) }
        values = []
        for index in arrays.indices { Wipe.bytes(&arrays[index]) }
    }

    private func collectByteArrays(into arrays: inout [[UInt8]]) {
        switch self {
        case .bytes(let bytes):
            if !bytes.isEmpty { arrays.append(bytes) }
        case .array(_, let values), .structure(let values):
            for value in values { value.collectByteArrays(into: &arrays) }
        case .dictEntry(let key, let value):
            key.collectByteArrays(into: &arrays)
            value.collectByteArrays(into: &arrays)
        case .variant(let inner):
            inner.collectByteArrays(into: &arrays)
        case .byte, .boolean, .int32, .uint32, .int64, .uint64, .double, .string, .objectPath, .signature:
            break
        }
    }
}

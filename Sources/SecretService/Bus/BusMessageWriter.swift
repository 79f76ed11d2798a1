import CSystemdBus

/// Appends ``BusValue``s to an sd-bus message (a reply or a signal), container by container.
///
/// With `bytesInMemfds`, every non-empty `ay` goes into a memfd part of its own
/// (``MemfdPart``), never into the message's body: for replies, whose `ay`s are secrets.
/// ``memfdParts`` counts them, for what may be done with the message after (a message with
/// such parts must not be marked sensitive, ``MemfdPart`` says why).
///
/// ```swift
/// let writer = BusMessageWriter(message: reply, bytesInMemfds: true)
/// try writer.append(values)
/// if writer.memfdParts == 0 { /* the body holds everything */ }
/// ```
final class BusMessageWriter {
    let message: OpaquePointer
    let bytesInMemfds: Bool
    /// How many `ay`s went into memfd parts so far.
    private(set) var memfdParts = 0

    init(message: OpaquePointer, bytesInMemfds: Bool = false) {
        self.message = message
        self.bytesInMemfds = bytesInMemfds
    }

    func append(_ values: [BusValue]) throws(BusError) {
        for value in values { try append(value) }
    }

    func append(_ value: BusValue) throws(BusError) {
        switch value {
        case .byte(let byte): try basic("y", byte)
        case .boolean(let flag): try basic("b", Int32(flag ? 1 : 0))
        case .int32(let number): try basic("i", number)
        case .uint32(let number): try basic("u", number)
        case .int64(let number): try basic("x", number)
        case .uint64(let number): try basic("t", number)
        case .double(let number): try basic("d", number)
        case .string(let string): try appendText(string, "s")
        case .objectPath(let path): try appendText(path, "o")
        case .signature(let signature): try appendText(signature, "g")
        case .bytes(let bytes) where bytesInMemfds && !bytes.isEmpty:
            try MemfdPart.append(bytes, to: message)
            memfdParts += 1
        case .bytes(let bytes):
            // sd-bus wants a non-null pointer even for an empty array.
            let padded = bytes.isEmpty ? [0] : bytes
            let result = padded.withUnsafeBytes { sd_bus_message_append_array(message, code("y"), $0.baseAddress, bytes.count) }
            try check(result)
        case .array(let element, let values):
            try container("a", element) { () throws(BusError) in for value in values { try append(value) } }
        case .dictEntry(let key, let entry):
            try container("e", key.signature + entry.signature) { () throws(BusError) in try append(key); try append(entry) }
        case .structure(let fields):
            try container("r", fields.map(\.signature).joined()) { () throws(BusError) in for field in fields { try append(field) } }
        case .variant(let inner):
            try container("v", inner.signature) { () throws(BusError) in try append(inner) }
        }
    }

    private func code(_ type: Unicode.Scalar) -> CChar { CChar(UInt8(ascii: type)) }

    private func basic<T: BitwiseCopyable>(_ type: Unicode.Scalar, _ value: T) throws(BusError) {
        var copy = value
        try check(sd_bus_message_append_basic(message, code(type), &copy))
    }

    private func appendText(_ text: String, _ type: Unicode.Scalar) throws(BusError) {
        try check(text.withCString { sd_bus_message_append_basic(message, code(type), $0) })
    }

    private func container(_ type: Unicode.Scalar, _ contents: String, _ body: () throws(BusError) -> Void) throws(BusError) {
        try check(sd_bus_message_open_container(message, code(type), contents))
        try body()
        try check(sd_bus_message_close_container(message))
    }

    private func check(_ result: Int32) throws(BusError) {
        if result < 0 { throw .failed("The reply could not be built (error \(-result)).") }
    }
}

internal import CSodium

/// Where a message's bytes go as they are produced: an array (``AttributeRules/canonicalBytes(_:kind:)``)
/// or straight into a hash state (``DigestWriter``). The encodings that blind indexes and row
/// digests hash are written once, against this, whatever receives them.
protocol ByteSink {
    mutating func append(_ byte: UInt8)
    mutating func append(contentsOf bytes: UnsafeRawBufferPointer)
}

extension ByteSink {
    /// `value` as 4 bytes, big-endian: the length prefix of every variable-length field.
    mutating func append(bigEndian value: UInt32) {
        withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }

    /// `value` as 8 bytes, big-endian.
    mutating func append(bigEndian value: Int64) {
        withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }

    /// `value` as 8 bytes, little-endian.
    mutating func append<T: FixedWidthInteger>(littleEndian value: T) {
        withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    /// The UTF-8 bytes of `string`, read in place when the string is stored contiguously (a
    /// native Swift string always is).
    mutating func append(utf8 string: String) {
        var string = string
        string.withUTF8 { append(contentsOf: UnsafeRawBufferPointer($0)) }
    }

    mutating func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBytes { append(contentsOf: $0) }
    }
}

extension Array: ByteSink where Element == UInt8 {
    mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
        append(contentsOf: UnsafeBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: bytes.count))
    }
}

/// Feeds a message to a BLAKE2b state as it is written, through a stack buffer of one
/// BLAKE2b block (128 bytes) that is passed to `crypto_generichash_update` each time it
/// fills: a tag's or a row's message never exists whole on the heap, and the buffer is
/// wiped by ``BlindIndexer/digest(byteCount:_:)`` once the digest is done.
///
/// ```swift
/// let tag = indexer.digest(byteCount: 16) { message in
///     message.append(contentsOf: prefix)
///     message.append(utf8: "alice")
/// }
/// ```
struct DigestWriter: ByteSink {
    static let blockByteCount = 128

    private let state: OpaquePointer
    private let buffer: UnsafeMutableRawPointer
    private var count = 0

    /// Only ``BlindIndexer/digest(byteCount:_:)`` makes one, over a state it owns.
    init(state: OpaquePointer, buffer: UnsafeMutableRawPointer) {
        self.state = state
        self.buffer = buffer
    }

    mutating func append(_ byte: UInt8) {
        if count == Self.blockByteCount { flush() }
        buffer.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count <= Self.blockByteCount {
            (buffer + count).copyMemory(from: base, byteCount: bytes.count)
            count += bytes.count
            return
        }
        // Longer than the room left: what is buffered, then these bytes, go to the state directly.
        flush()
        _ = crypto_generichash_update(state, base.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
    }

    /// Hands the buffered bytes to the hash state.
    mutating func flush() {
        guard count > 0 else { return }
        _ = crypto_generichash_update(state, buffer.assumingMemoryBound(to: UInt8.self), UInt64(count))
        count = 0
    }
}

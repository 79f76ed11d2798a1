internal import CSodium

/// Keyed BLAKE2b digests that let SQLite find rows by attribute value without ever
/// storing the value: `BLAKE2b(key: indexKey, message: unambiguous encoding)`.
///
/// Keyed BLAKE2b first compresses a block holding the key, the same for every message. The
/// state after that block is computed once per output length SecStore uses (16 and 32 bytes)
/// and kept in locked memory, like the key it comes from; each digest copies it to the stack,
/// hashes the message and wipes the copy. That halves the work for the short messages of
/// blind indexes (one compression instead of two): the primary-key tag is on every read.
package struct BlindIndexer: Sendable {
    private let key: SecureBytes
    private let keyed16: SecureBytes
    private let keyed32: SecureBytes

    /// An indexer keyed with `key`; the prepared states get a guarded region of their own.
    package init(key: SecureBytes) throws {
        let states = try key.withUnsafeBytes { key in
            try SecureBytes.group([Self.stateByteCount, Self.stateByteCount]) { states in
                Self.prepareStates(states[...], key: key)
            }
        }
        self.init(key: key, keyed16: states[0], keyed32: states[1])
    }

    /// What an indexer keeps in guarded memory, in order: its key and its two prepared states.
    /// A caller that makes several keys in one region (``MasterSubkeys``) reserves these
    /// buffers, fills them with ``prepare(_:subkeyOf:id:context:)`` and builds the indexer with
    /// ``init(prepared:)``.
    static let regionLayout = [KeyDerivation.keyByteCount, stateByteCount, stateByteCount]

    /// Fills buffers laid out as ``regionLayout`` for the subkey `id`, `context` of `parent`
    /// (``KeyDerivation``).
    static func prepare(_ buffers: ArraySlice<UnsafeMutableRawBufferPointer>, subkeyOf parent: UnsafeRawBufferPointer,
                        id: UInt64, context: StaticString) {
        let key = buffers[buffers.startIndex]
        KeyDerivation.derive(into: key, from: parent, id: id, context: context)
        prepareStates(buffers.dropFirst(), key: UnsafeRawBufferPointer(key))
    }

    /// The indexer over keys laid out as ``regionLayout`` and filled by ``prepare(_:subkeyOf:id:context:)``.
    init(prepared keys: ArraySlice<SecureBytes>) {
        let first = keys.startIndex
        self.init(key: keys[first], keyed16: keys[first + 1], keyed32: keys[first + 2])
    }

    private init(key: SecureBytes, keyed16: SecureBytes, keyed32: SecureBytes) {
        self.key = key
        self.keyed16 = keyed16
        self.keyed32 = keyed32
    }

    /// The keyed digest of `message`, `byteCount` bytes long (16 to 64).
    package func digest(_ message: [UInt8], byteCount: Int) -> [UInt8] {
        digest(byteCount: byteCount) { $0.append(contentsOf: message) }
    }

    /// The keyed digest of what `write` writes, `byteCount` bytes long (16 to 64): the message
    /// goes to the hash state as it is written (``DigestWriter``), never built whole.
    func digest(byteCount: Int, _ write: (inout DigestWriter) -> Void) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: byteCount)
        let prepared = byteCount == 16 ? keyed16 : byteCount == 32 ? keyed32 : nil
        Self.withHashState { state in
            let statePointer = OpaquePointer(state)
            if let prepared {
                prepared.withUnsafeBytes { saved in state.copyMemory(from: saved.baseAddress!, byteCount: saved.count) }
            } else {
                key.withUnsafeBytes { keyBytes in
                    _ = crypto_generichash_init(statePointer, keyBytes.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                                keyBytes.count, byteCount)
                }
            }
            withUnsafeTemporaryAllocation(byteCount: DigestWriter.blockByteCount, alignment: 16) { buffer in
                // The buffer held attribute values: wiped like the state.
                defer { sodium_memzero(buffer.baseAddress!, buffer.count) }
                var writer = DigestWriter(state: statePointer, buffer: buffer.baseAddress!)
                write(&writer)
                writer.flush()
            }
            _ = crypto_generichash_final(statePointer, &out, byteCount)
        }
        return out
    }

    /// Writes the BLAKE2b states keyed with `key` for 16- and 32-byte digests, before any
    /// message, into the two `states` (guarded memory: they are as good as the key). Each is
    /// built in an aligned stack buffer (libsodium's state alignment), which is wiped.
    private static func prepareStates(_ states: ArraySlice<UnsafeMutableRawBufferPointer>, key: UnsafeRawBufferPointer) {
        for (state, outputByteCount) in zip(states, [16, 32]) {
            withHashState { aligned in
                _ = crypto_generichash_init(OpaquePointer(aligned), key.baseAddress!.assumingMemoryBound(to: UInt8.self), key.count,
                                            outputByteCount)
                state.copyMemory(from: UnsafeRawBufferPointer(start: aligned, count: stateByteCount))
            }
        }
    }

    private static let stateByteCount = crypto_generichash_statebytes()
    /// libsodium declares `crypto_generichash_state` 64-byte aligned.
    private static let stateAlignment = 64

    /// Runs `body` with a BLAKE2b state on the stack, aligned as libsodium declares it
    /// (64 bytes), and wipes it afterwards: it holds material derived from the key.
    ///
    /// The buffer is 63 bytes larger and aligned by hand: `withUnsafeTemporaryAllocation`
    /// puts a request on the stack only up to the platform's default alignment (16 bytes),
    /// and sent a 64-byte-aligned one to `aligned_alloc` and `free` (700 instructions, 1.5 %
    /// of a read, on every tag computed).
    private static func withHashState<T>(_ body: (UnsafeMutableRawPointer) throws -> T) rethrows -> T {
        try withUnsafeTemporaryAllocation(byteCount: stateByteCount + stateAlignment - 1, alignment: 16) { buffer in
            let state = buffer.baseAddress!.alignedUp(toMultipleOf: stateAlignment)
            defer { sodium_memzero(state, stateByteCount) }
            return try body(state)
        }
    }
}

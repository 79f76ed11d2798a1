internal import CSodium

/// Subkeys from a parent key with `crypto_kdf` (BLAKE2b), and keyed BLAKE2b for combining
/// two keys or computing blind indexes.
package enum KeyDerivation {
    static let keyByteCount = Int(crypto_kdf_KEYBYTES)

    /// `crypto_kdf_derive_from_key(id, context)`; `context` is exactly 8 ASCII characters.
    static func subkey(of parent: SecureBytes, id: UInt64, context: StaticString) throws -> SecureBytes {
        try SecureBytes(count: keyByteCount) { output in
            parent.withUnsafeBytes { derive(into: output, from: $0, id: id, context: context) }
        }
    }

    /// The same, written into `output` (a key of a ``SecureBytes/group(_:initialize:)``) from
    /// a parent key's bytes.
    static func derive(into output: UnsafeMutableRawBufferPointer, from parent: UnsafeRawBufferPointer, id: UInt64,
                       context: StaticString) {
        precondition(context.utf8CodeUnitCount == Int(crypto_kdf_CONTEXTBYTES), "crypto_kdf contexts are 8 bytes")
        precondition(output.count == keyByteCount && parent.count == keyByteCount, "crypto_kdf keys are 32 bytes")
        context.withUTF8Buffer { contextBytes in
            contextBytes.withMemoryRebound(to: CChar.self) { contextChars in
                _ = crypto_kdf_derive_from_key(
                    output.baseAddress!.assumingMemoryBound(to: UInt8.self), keyByteCount, id,
                    contextChars.baseAddress!, parent.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
    }

    /// A 32-byte key from keyed BLAKE2b over `message`: how a key is bound to another
    /// key or to a store id (`crypto_generichash` used as a PRF, as libsodium documents).
    package static func keyedHash(key: SecureBytes, message: [UInt8]) throws -> SecureBytes {
        try SecureBytes(count: keyByteCount) { output in
            key.withUnsafeBytes { keyBytes in
                _ = crypto_generichash(
                    output.baseAddress!.assumingMemoryBound(to: UInt8.self), keyByteCount,
                    message, UInt64(message.count),
                    keyBytes.baseAddress!.assumingMemoryBound(to: UInt8.self), keyBytes.count)
            }
        }
    }
}

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

    /// An indexer keyed with `key`.
    package init(key: SecureBytes) throws {
        self.key = key
        let states = try key.withUnsafeBytes { key in
            try SecureBytes.group([Self.stateByteCount, Self.stateByteCount]) { states in
                Self.prepare(states[0], key: key, outputByteCount: 16)
                Self.prepare(states[1], key: key, outputByteCount: 32)
            }
        }
        keyed16 = states[0]
        keyed32 = states[1]
    }

    /// An indexer keyed with the subkey `id`, `context` of `parent` (``KeyDerivation``): the
    /// key and both prepared states in one guarded region.
    init(subkeyOf parent: SecureBytes, id: UInt64, context: StaticString) throws {
        let keys = try parent.withUnsafeBytes { parent in
            try SecureBytes.group([KeyDerivation.keyByteCount, Self.stateByteCount, Self.stateByteCount]) { keys in
                KeyDerivation.derive(into: keys[0], from: parent, id: id, context: context)
                let key = UnsafeRawBufferPointer(keys[0])
                Self.prepare(keys[1], key: key, outputByteCount: 16)
                Self.prepare(keys[2], key: key, outputByteCount: 32)
            }
        }
        key = keys[0]
        keyed16 = keys[1]
        keyed32 = keys[2]
    }

    package func digest(_ message: [UInt8], byteCount: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: byteCount)
        let prepared = byteCount == 16 ? keyed16 : byteCount == 32 ? keyed32 : nil
        guard let prepared else {
            key.withUnsafeBytes { keyBytes in
                _ = crypto_generichash(
                    &out, byteCount, message, UInt64(message.count),
                    keyBytes.baseAddress!.assumingMemoryBound(to: UInt8.self), keyBytes.count)
            }
            return out
        }
        Self.withHashState { state in
            prepared.withUnsafeBytes { saved in state.copyMemory(from: saved.baseAddress!, byteCount: saved.count) }
            let statePointer = OpaquePointer(state)
            _ = crypto_generichash_update(statePointer, message, UInt64(message.count))
            _ = crypto_generichash_final(statePointer, &out, byteCount)
        }
        return out
    }

    /// Writes the BLAKE2b state keyed with `key` for digests of `outputByteCount` bytes,
    /// before any message, into `state` (guarded memory: it is as good as the key). Built in
    /// an aligned stack buffer (libsodium's state alignment), which is wiped.
    private static func prepare(_ state: UnsafeMutableRawBufferPointer, key: UnsafeRawBufferPointer, outputByteCount: Int) {
        withHashState { aligned in
            _ = crypto_generichash_init(OpaquePointer(aligned), key.baseAddress!.assumingMemoryBound(to: UInt8.self), key.count,
                                        outputByteCount)
            state.copyMemory(from: UnsafeRawBufferPointer(start: aligned, count: stateByteCount))
        }
    }

    private static let stateByteCount = crypto_generichash_statebytes()

    /// Runs `body` with a BLAKE2b state on the stack, aligned as libsodium declares it
    /// (64 bytes), and wipes it afterwards: it holds material derived from the key.
    private static func withHashState<T>(_ body: (UnsafeMutableRawPointer) throws -> T) rethrows -> T {
        try withUnsafeTemporaryAllocation(byteCount: stateByteCount, alignment: 64) { buffer in
            defer { sodium_memzero(buffer.baseAddress!, stateByteCount) }
            return try body(buffer.baseAddress!)
        }
    }
}

/// Randomness for ids and nonces that are not keys.
package enum SecureRandom {
    package static func bytes(_ count: Int) throws -> [UInt8] {
        try Sodium.ready()
        var out = [UInt8](repeating: 0, count: count)
        randombytes_buf(&out, count)
        return out
    }
}

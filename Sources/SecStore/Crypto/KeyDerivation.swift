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

/// Randomness for ids and nonces that are not keys.
package enum SecureRandom {
    package static func bytes(_ count: Int) throws -> [UInt8] {
        try Sodium.ready()
        var out = [UInt8](repeating: 0, count: count)
        randombytes_buf(&out, count)
        return out
    }
}

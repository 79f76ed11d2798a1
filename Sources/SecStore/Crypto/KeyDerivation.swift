internal import CSodium

/// Subkeys from a parent key with `crypto_kdf` (BLAKE2b), and keyed BLAKE2b for combining
/// two keys or computing blind indexes.
enum KeyDerivation {
    static let keyByteCount = Int(crypto_kdf_KEYBYTES)

    /// `crypto_kdf_derive_from_key(id, context)`; `context` is exactly 8 ASCII characters.
    static func subkey(of parent: SecureBytes, id: UInt64, context: StaticString) throws -> SecureBytes {
        precondition(context.utf8CodeUnitCount == Int(crypto_kdf_CONTEXTBYTES), "crypto_kdf contexts are 8 bytes")
        return try SecureBytes(count: keyByteCount) { output in
            parent.withUnsafeBytes { parentBytes in
                context.withUTF8Buffer { contextBytes in
                    contextBytes.withMemoryRebound(to: CChar.self) { contextChars in
                        _ = crypto_kdf_derive_from_key(
                            output.baseAddress!.assumingMemoryBound(to: UInt8.self), keyByteCount, id,
                            contextChars.baseAddress!, parentBytes.baseAddress!.assumingMemoryBound(to: UInt8.self))
                    }
                }
            }
        }
    }

    /// A 32-byte key from keyed BLAKE2b over `message`: how a key is bound to another
    /// key or to a store id (`crypto_generichash` used as a PRF, as libsodium documents).
    static func keyedHash(key: SecureBytes, message: [UInt8]) throws -> SecureBytes {
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
struct BlindIndexer: Sendable {
    private let key: SecureBytes

    init(key: SecureBytes) { self.key = key }

    func digest(_ message: [UInt8], byteCount: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: byteCount)
        key.withUnsafeBytes { keyBytes in
            _ = crypto_generichash(
                &out, byteCount, message, UInt64(message.count),
                keyBytes.baseAddress!.assumingMemoryBound(to: UInt8.self), keyBytes.count)
        }
        return out
    }
}

/// Randomness for ids and nonces that are not keys.
enum SecureRandom {
    static func bytes(_ count: Int) throws -> [UInt8] {
        try Sodium.ready()
        var out = [UInt8](repeating: 0, count: count)
        randombytes_buf(&out, count)
        return out
    }
}

internal import CSodium

/// HMAC-SHA-256 (`crypto_auth_hmacsha256`), `package` so that DeviceIdentity can derive
/// app-specific machine ids exactly as systemd does, without a second crypto wrapper.
package enum HMACSHA256 {
    /// The 32-byte HMAC-SHA-256 of `message` under `key` (any length).
    package static func authenticationCode(for message: [UInt8], key: [UInt8]) throws -> [UInt8] {
        try Sodium.ready()
        var state = crypto_auth_hmacsha256_state()
        var out = [UInt8](repeating: 0, count: Int(crypto_auth_hmacsha256_BYTES))
        _ = crypto_auth_hmacsha256_init(&state, key, key.count)
        _ = crypto_auth_hmacsha256_update(&state, message, UInt64(message.count))
        _ = crypto_auth_hmacsha256_final(&state, &out)
        withUnsafeMutableBytes(of: &state) { sodium_memzero($0.baseAddress!, $0.count) }
        return out
    }

    /// SHA-256 of `message` (`crypto_hash_sha256`).
    package static func sha256(_ message: [UInt8]) throws -> [UInt8] {
        try Sodium.ready()
        var out = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        _ = crypto_hash_sha256(&out, message, UInt64(message.count))
        return out
    }
}

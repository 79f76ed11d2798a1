internal import CSodium

/// Cryptographically secure random bytes from libsodium (`randombytes_buf`: getrandom(2)),
/// for front ends that must offer Apple's `SecRandomCopyBytes` without touching C.
///
/// ```swift
/// var nonce = [UInt8](repeating: 0, count: 16)
/// try nonce.withUnsafeMutableBytes { try RandomBytes.fill($0) }
/// ```
package enum RandomBytes {
    /// Fills `buffer` with random bytes; throws only when libsodium cannot start (no source
    /// of randomness), never returning predictable bytes.
    package static func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(SecStoreError) {
        do {
            try Sodium.ready()
        } catch {
            throw SecStoreError(error)
        }
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        randombytes_buf(base, buffer.count)
    }
}

import Foundation
internal import CSodium

/// XChaCha20-Poly1305-IETF, the cipher of every sealed blob in a store.
///
/// A sealed blob is `nonce (24 bytes) ‖ ciphertext ‖ tag (16 bytes)`. Nonces are random,
/// which XChaCha20's 192-bit nonce makes safe for any number of messages under one key.
package enum AEAD {
    static let keyByteCount = Int(crypto_aead_xchacha20poly1305_ietf_KEYBYTES)
    package static let nonceByteCount = Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
    static let tagByteCount = Int(crypto_aead_xchacha20poly1305_ietf_ABYTES)
    package static let overhead = nonceByteCount + tagByteCount

    /// - Parameter nonce: 24 random bytes the caller drew together with other random values
    ///   (one `getrandom` call instead of several); drawn here when `nil`. Never reuse one.
    package static func seal(_ plaintext: some ContiguousBytes, key: SecureBytes, associatedData: [UInt8],
                     nonce: ArraySlice<UInt8>? = nil) -> Data {
        plaintext.withUnsafeBytes { message in
            var sealed = Data(count: overhead + message.count)
            sealed.withUnsafeMutableBytes { output in
                let out = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
                if let nonce, nonce.count == nonceByteCount {
                    nonce.withUnsafeBufferPointer { out.update(from: $0.baseAddress!, count: nonceByteCount) }
                } else {
                    randombytes_buf(out, nonceByteCount)
                }
                var written: UInt64 = 0
                key.withUnsafeBytes { keyBytes in
                    _ = crypto_aead_xchacha20poly1305_ietf_encrypt(
                        out + nonceByteCount, &written,
                        message.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(message.count),
                        associatedData, UInt64(associatedData.count),
                        nil, out, keyBytes.baseAddress!.assumingMemoryBound(to: UInt8.self))
                }
            }
            return sealed
        }
    }

    /// Whether `sealed` authenticates under `key` and `associatedData`, without decrypting it:
    /// libsodium's decrypt with a NULL message buffer checks the tag and stops (a behaviour
    /// `AEADTests.verifyDetectsTampering` pins). For blobs that must be authentic but whose
    /// plaintext is not needed.
    static func verify(_ sealed: UnsafeRawBufferPointer, key: SecureBytes, associatedData: [UInt8]) -> Bool {
        guard sealed.count >= overhead else { return false }
        let bytes = sealed.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let cipherCount = sealed.count - overhead
        return key.withUnsafeBytes { keyBytes in
            crypto_aead_xchacha20poly1305_ietf_decrypt_detached(
                nil, nil, bytes + nonceByteCount, UInt64(cipherCount), bytes + nonceByteCount + cipherCount,
                associatedData, UInt64(associatedData.count), bytes,
                keyBytes.baseAddress!.assumingMemoryBound(to: UInt8.self)) == 0
        }
    }

    /// Opens a blob made by ``seal(_:key:associatedData:)``. The plaintext is returned only
    /// when the tag verifies for this key and exactly this associated data.
    package static func open(_ sealed: some ContiguousBytes, key: SecureBytes, associatedData: [UInt8]) throws(CryptoFailure) -> Data {
        let outcome: Result<Data, CryptoFailure> = sealed.withUnsafeBytes { input in
            guard input.count >= overhead else { return .failure(.malformedCiphertext) }
            let bytes = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var plaintext = Data(count: input.count - overhead)
            var written: UInt64 = 0
            let status = plaintext.withUnsafeMutableBytes { output in
                key.withUnsafeBytes { keyBytes in
                    crypto_aead_xchacha20poly1305_ietf_decrypt(
                        output.baseAddress?.assumingMemoryBound(to: UInt8.self), &written, nil,
                        bytes + nonceByteCount, UInt64(input.count - nonceByteCount),
                        associatedData, UInt64(associatedData.count),
                        bytes, keyBytes.baseAddress!.assumingMemoryBound(to: UInt8.self))
                }
            }
            return status == 0 ? .success(plaintext) : .failure(.authenticationFailed)
        }
        return try outcome.get()
    }

    /// Opens a blob into a temporary buffer that lives only during `body` and is wiped
    /// after it: for plaintext read once and dropped (the read path's access-control check),
    /// without allocating.
    static func withOpened<T>(_ sealed: UnsafeRawBufferPointer, key: SecureBytes, associatedData: [UInt8],
                              _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        guard sealed.count >= overhead else { throw CryptoFailure.malformedCiphertext }
        let count = sealed.count - overhead
        return try withUnsafeTemporaryAllocation(byteCount: max(count, 1), alignment: 1) { output in
            defer { sodium_memzero(output.baseAddress!, output.count) }
            let input = sealed.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var written: UInt64 = 0
            let status = key.withUnsafeBytes { keyBytes in
                crypto_aead_xchacha20poly1305_ietf_decrypt(
                    output.baseAddress!.assumingMemoryBound(to: UInt8.self), &written, nil,
                    input + nonceByteCount, UInt64(sealed.count - nonceByteCount),
                    associatedData, UInt64(associatedData.count),
                    input, keyBytes.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
            guard status == 0 else { throw CryptoFailure.authenticationFailed }
            return try body(UnsafeRawBufferPointer(rebasing: output[..<count]))
        }
    }
}

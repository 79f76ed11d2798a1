import Foundation
internal import CSodium

/// X25519 key pairs and anonymous sealed boxes (`crypto_box_seal`): how a sync circle hands
/// its key to a device it approves, knowing only that device's public key.
///
/// ```swift
/// let device = try SealedBox.KeyPair()
/// let sealed = try SealedBox.seal(Array("hello".utf8), to: device.publicKey)
/// let opened = try SealedBox.open(sealed, with: device)
/// ```
package enum SealedBox {
    package static let publicKeyByteCount = Int(crypto_box_PUBLICKEYBYTES)
    package static let secretKeyByteCount = Int(crypto_box_SECRETKEYBYTES)
    package static let overhead = crypto_box_sealbytes()

    /// A device's key pair; the secret half lives in guarded memory.
    package struct KeyPair: Sendable {
        package let publicKey: [UInt8]
        package let secretKey: SecureBytes

        /// A fresh key pair.
        package init() throws {
            try Sodium.ready()
            var publicKey = [UInt8](repeating: 0, count: SealedBox.publicKeyByteCount)
            secretKey = try SecureBytes(count: SealedBox.secretKeyByteCount) { secret in
                _ = crypto_box_keypair(&publicKey, secret.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
            self.publicKey = publicKey
        }

        /// The key pair whose secret half is `secretKey` (its public half is recomputed).
        package init(secretKey: SecureBytes) throws {
            guard secretKey.count == SealedBox.secretKeyByteCount else { throw CryptoFailure.malformedCiphertext }
            var publicKey = [UInt8](repeating: 0, count: SealedBox.publicKeyByteCount)
            secretKey.withUnsafeBytes { _ = crypto_scalarmult_base(&publicKey, $0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
            self.publicKey = publicKey
            self.secretKey = secretKey
        }
    }

    /// Seals `message` so that only the holder of `publicKey`'s secret half can open it.
    package static func seal(_ message: [UInt8], to publicKey: [UInt8]) throws -> [UInt8] {
        try Sodium.ready()
        guard publicKey.count == publicKeyByteCount else { throw CryptoFailure.malformedCiphertext }
        var sealed = [UInt8](repeating: 0, count: message.count + overhead)
        guard crypto_box_seal(&sealed, message, UInt64(message.count), publicKey) == 0 else {
            throw CryptoFailure.malformedCiphertext
        }
        return sealed
    }

    /// Opens a box sealed to `keyPair`'s public key, into guarded memory.
    package static func open(_ sealed: [UInt8], with keyPair: KeyPair) throws -> SecureBytes {
        guard sealed.count > overhead else { throw CryptoFailure.malformedCiphertext }
        return try SecureBytes(count: sealed.count - overhead) { output in
            let status = keyPair.secretKey.withUnsafeBytes { secret in
                crypto_box_seal_open(output.baseAddress!.assumingMemoryBound(to: UInt8.self), sealed, UInt64(sealed.count),
                                     keyPair.publicKey, secret.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
            guard status == 0 else { throw CryptoFailure.authenticationFailed }
        }
    }
}

internal import CSodium

/// The one place that starts libsodium. Every crypto entry point calls `Sodium.ready()`.
enum Sodium {
    private static let initialized: Bool = sodium_init() >= 0

    /// Makes sure `sodium_init()` ran once and succeeded.
    ///
    /// libsodium only fails to initialize when the system cannot provide randomness,
    /// and then nothing in this module can be done safely.
    static func ready() throws(CryptoFailure) {
        guard initialized else { throw .libraryUnavailable }
    }
}

/// Why a primitive failed. Mapped to ``SecStoreError`` at the engine boundary.
package enum CryptoFailure: Error, Equatable {
    /// `sodium_init()` failed: no source of randomness.
    case libraryUnavailable
    /// `sodium_malloc` returned NULL (guarded memory exhausted or `mlock` limit reached).
    case outOfSecureMemory
    /// An AEAD tag did not verify: wrong key, wrong associated data or altered bytes.
    case authenticationFailed
    /// A sealed blob is too short to hold a nonce and a tag.
    case malformedCiphertext
    /// Argon2id could not run with these limits: its memory exceeds what the machine or the
    /// process's control group can give now (`budget`, checked first), or libsodium failed
    /// (`budget` nil: usually an allocation refused).
    case passwordHashingFailed(PasswordHashingLimits, budget: ArgonMemoryBudget?)
}

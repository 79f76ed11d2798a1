internal import CSodium

/// Argon2id (`crypto_pwhash`) turns a passphrase into a 32-byte key.
///
/// The limits are stored with the store so a passphrase set with one setting can be
/// checked by a later version with other defaults.
///
/// ```swift
/// try owner.setPassphrase(passphrase, limits: .moderate)              // the default
/// try owner.exportBackup(to: backupURL, passphrase: backupPassphrase, limits: .interactive)
/// ```
public struct PasswordHashingLimits: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Number of passes over memory (`opslimit`).
    public var operations: UInt64
    /// Bytes of memory used (`memlimit`).
    public var memoryBytes: Int

    /// Custom limits. Limits outside libsodium's bounds are `invalidParameter` when a
    /// passphrase or a backup is made with them.
    ///
    /// ```swift
    /// try store.setPassphrase(passphrase, limits: PasswordHashingLimits(operations: 4, memoryBytes: 512 << 20))
    /// ```
    public init(operations: UInt64, memoryBytes: Int) {
        self.operations = operations
        self.memoryBytes = memoryBytes
    }

    /// libsodium's `MODERATE` limits (3 passes, 256 MiB): about a second on a laptop core.
    public static let moderate = PasswordHashingLimits(
        operations: UInt64(crypto_pwhash_OPSLIMIT_MODERATE), memoryBytes: Int(crypto_pwhash_MEMLIMIT_MODERATE))

    /// libsodium's `INTERACTIVE` limits (2 passes, 64 MiB).
    public static let interactive = PasswordHashingLimits(
        operations: UInt64(crypto_pwhash_OPSLIMIT_INTERACTIVE), memoryBytes: Int(crypto_pwhash_MEMLIMIT_INTERACTIVE))

    /// The smallest limits libsodium accepts. For tests only: offers no real protection.
    public static let minimumForTesting = PasswordHashingLimits(
        operations: UInt64(crypto_pwhash_OPSLIMIT_MIN), memoryBytes: Int(crypto_pwhash_MEMLIMIT_MIN))

    /// The limits for messages, such as `Argon2id(ops: 3, memory: 262144 KiB)`.
    public var description: String { "Argon2id(ops: \(operations), memory: \(memoryBytes / 1024) KiB)" }

    /// The most SecStore ever asks of Argon2id: 16 times libsodium's `SENSITIVE` passes (64)
    /// and 4 times its memory (4 GiB). Limits read from a store or a backup header are
    /// checked against it before any work, so a damaged or hostile file cannot make a
    /// command run for hours or exhaust memory before anything is authenticated.
    public static let maximum = PasswordHashingLimits(
        operations: 16 * UInt64(crypto_pwhash_OPSLIMIT_SENSITIVE), memoryBytes: 4 * Int(crypto_pwhash_MEMLIMIT_SENSITIVE))

    /// Within libsodium's minimums and SecStore's ``maximum``: the one rule for every
    /// limit SecStore sets, stores or reads.
    public var isAcceptable: Bool {
        operations >= UInt64(crypto_pwhash_OPSLIMIT_MIN) && operations <= Self.maximum.operations
            && memoryBytes >= Int(crypto_pwhash_MEMLIMIT_MIN) && memoryBytes <= Self.maximum.memoryBytes
    }

    /// Weaker than libsodium's `INTERACTIVE` limits: fine for tests, weak for a real passphrase.
    public var isWeak: Bool {
        operations < Self.interactive.operations || memoryBytes < Self.interactive.memoryBytes
    }

    /// What an unacceptable limit breaks, for messages.
    var acceptableRange: String {
        "from 1 pass and 8 KiB up to \(Self.maximum.operations) passes and \(Self.maximum.memoryBytes >> 30) GiB"
    }
}

package enum PasswordHashing {
    package static let saltByteCount = Int(crypto_pwhash_SALTBYTES)

    /// Argon2id of `passphrase`. Refused before any work when `limits` asks for more memory than
    /// the machine or the process's control group can give now (``ArgonMemoryBudget``): the
    /// kernel would kill the process part-way instead.
    package static func deriveKey(passphrase: [UInt8], salt: [UInt8], limits: PasswordHashingLimits) throws -> SecureBytes {
        precondition(salt.count == saltByteCount)
        if let budget = ArgonMemoryBudget.current(), limits.memoryBytes > budget.bytes {
            throw CryptoFailure.passwordHashingFailed(limits, budget: budget)
        }
        return try SecureBytes(count: KeyDerivation.keyByteCount) { output in
            // A buffer with a valid address even for an empty passphrase.
            let bytes = passphrase.isEmpty ? [0] : passphrase
            let status = bytes.withUnsafeBufferPointer { password in
                password.withMemoryRebound(to: CChar.self) { chars in
                    crypto_pwhash(
                        output.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(output.count),
                        chars.baseAddress!, UInt64(passphrase.count), salt,
                        limits.operations, limits.memoryBytes, crypto_pwhash_ALG_ARGON2ID13)
                }
            }
            guard status == 0 else { throw CryptoFailure.passwordHashingFailed(limits, budget: nil) }
        }
    }
}

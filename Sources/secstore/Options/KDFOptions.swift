import ArgumentParser
import SecStore

/// `--kdf-ops` and `--kdf-memory`: the Argon2id cost of a new passphrase or backup.
/// The default is libsodium's MODERATE (3 passes, 256 MiB, about a second).
///
/// ```
/// secstore passphrase set --kdf-ops 4 --kdf-memory 512M
/// ```
struct KDFOptions: ParsableArguments {
    @Option(name: .customLong("kdf-ops"), help: ArgumentHelp(
        "Argon2id passes (default 3, minimum 1).", valueName: "count"))
    var operations: UInt64?

    @Option(name: .customLong("kdf-memory"), help: ArgumentHelp(
        "Argon2id memory in bytes, or with a K, M or G suffix (default 256M, minimum 8K).", valueName: "size"))
    var memory: ByteSize?

    func validate() throws {
        let chosen = limits
        guard chosen.isAcceptable else {
            let maximum = PasswordHashingLimits.maximum
            throw ValidationError("--kdf-ops must be 1 to \(maximum.operations) and --kdf-memory 8K to \(maximum.memoryBytes >> 30)G (given \(chosen)).")
        }
        if chosen.isWeak {
            Console.warn("\(chosen) is weaker than libsodium's interactive limits (2 passes, 64M): an offline guess of the passphrase is cheap. Use it for tests only.")
        }
    }

    /// The limits to use: the options over libsodium's MODERATE defaults.
    var limits: PasswordHashingLimits {
        let moderate = PasswordHashingLimits.moderate
        return PasswordHashingLimits(operations: operations ?? moderate.operations,
                                     memoryBytes: memory?.bytes ?? moderate.memoryBytes)
    }
}

/// A size in bytes written as `8192`, `64K`, `256M` or `1G` (powers of 1024).
struct ByteSize: ExpressibleByArgument, Sendable {
    let bytes: Int

    init?(argument: String) {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var text = argument.uppercased()
        if text.hasSuffix("IB") { text.removeLast(2) } else if text.hasSuffix("B") { text.removeLast() }
        var multiplier = 1
        if let unit = text.last, let factor = units[unit] {
            multiplier = factor
            text.removeLast()
        }
        guard let value = Int(text), value >= 0 else { return nil }
        let (product, overflow) = value.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { return nil }
        bytes = product
    }
}

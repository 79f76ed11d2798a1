import Foundation

/// The fuzz targets of the library's parsers, one entry function each. `scripts/fuzz.sh`
/// links each into a libFuzzer binary (through the `secstore_fuzz_<name>` C symbols below),
/// and `FuzzReplayTests` feeds every file of `Fixtures/fuzz/<name>/` through the same
/// function, so the suite replays exactly what the fuzzer ran.
///
/// An entry never crashes on any input: it returns what the parser answered (success or a
/// typed error: `SecStoreError`, the bridges' `BridgeError`, the tool's `CLIError`), and
/// throws ``FuzzViolation`` when an answer breaks a property the target checks (a round trip
/// that does not round-trip, an error that is not typed or quotes a secret, a store that
/// does not verify after an import that succeeded).
///
/// The CLI's argument types (`cli-arguments`) and the plaintext formats of `secstore import`
/// (`plaintext-import`) are targets too; their entries live in `Tests/FuzzReplayTests`
/// (`CLIArgumentsFuzz.swift`, `PlaintextImportFuzz.swift`) because they need the `secstore`
/// executable's module, which only a test target may import.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// `SecItemAdd` / `SecItemCopyMatching` / `SecItemUpdate` / `SecItemDelete` on a real
    /// store, with dictionaries of random keys and CF-typed values (``SecItemFuzz``).
    case secItem = "secitem"
    /// ``Entitlements/init(propertyList:source:)``: XML and binary property lists.
    case entitlements
    /// `importBackup` of the fuzzer's bytes as a backup file: header, limits, framing, MAC.
    case backup
    /// `importBackup` of a backup sealed with the right key around the fuzzer's manifest and
    /// records, so that the record parser and the import run on bytes the MAC accepted.
    case backupSealed = "backup-sealed"
    /// `MetadataCodec.decode` of any bytes, and the round trip of what decodes.
    case metadata
    /// git's credential protocol: `GitCredential(parsing:)` of the lines git writes to a
    /// helper, and `GitSecret(decoding:)` of a stored secret (``GitCredentialFuzz``).
    case gitCredential = "git-credential"
    /// The docker helper's input: `DockerCredentials(json:)` and `RegistryURL.location(of:)`
    /// (``DockerCredentialsFuzz``).
    case dockerCredentials = "docker-credentials"

    /// Runs the target on one input. Calls are serialized: the store-backed targets share
    /// their store and scratch files between inputs (and the suite runs targets in parallel).
    public func run(_ bytes: [UInt8]) throws(FuzzViolation) -> FuzzOutcome {
        fuzzRunLock.lock()
        defer { fuzzRunLock.unlock() }
        return switch self {
        case .secItem: try SecItemFuzz.run(bytes)
        case .entitlements: try EntitlementsFuzz.run(bytes)
        case .backup: try BackupFuzz.runFile(bytes)
        case .backupSealed: try BackupFuzz.runSealed(bytes)
        case .metadata: try MetadataFuzz.run(bytes)
        case .gitCredential: try GitCredentialFuzz.run(bytes)
        case .dockerCredentials: try DockerCredentialsFuzz.run(bytes)
        }
    }
}

private let fuzzRunLock = NSLock()

/// What a parser answered: it accepted the input, or refused it with a typed error.
public enum FuzzOutcome: Sendable, Equatable, CustomStringConvertible {
    case accepted(String)
    case refused(String)

    public var description: String {
        switch self {
        case .accepted(let detail): "accepted: \(detail)"
        case .refused(let detail): "refused: \(detail)"
        }
    }
}

/// A property a fuzz target checks did not hold: a bug even though nothing crashed.
public struct FuzzViolation: Error, CustomStringConvertible, Sendable {
    public let target: String
    public let message: String

    public init(_ target: FuzzTarget, _ message: String) {
        self.target = target.rawValue
        self.message = message
    }

    public init(target: String, _ message: String) {
        self.target = target
        self.message = message
    }

    public var description: String { "fuzz target \(target): \(message)" }
}

// MARK: - C entry points for the libFuzzer drivers (scripts/fuzz/driver.c)

/// Runs `entry` on `size` bytes at `data`, as a libFuzzer binary does: a violated property is
/// a crash, which is how libFuzzer learns of it. With `SECSTORE_FUZZ_VERBOSE` set, prints each
/// outcome (to see what a corpus file does: `scripts/fuzz.sh reproduce TARGET FILE`).
public func runForLibFuzzer(_ data: UnsafePointer<UInt8>?, _ size: Int,
                            _ entry: ([UInt8]) throws(FuzzViolation) -> FuzzOutcome) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        let outcome = try entry(bytes)
        if verbose { FileHandle.standardError.write(Data("\(outcome)\n".utf8)) }
    } catch {
        fatalError("\(error)")
    }
    return 0
}

private let verbose = ProcessInfo.processInfo.environment["SECSTORE_FUZZ_VERBOSE"] != nil

private func runForLibFuzzer(_ target: FuzzTarget, _ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    runForLibFuzzer(data, size) { bytes throws(FuzzViolation) in try target.run(bytes) }
}

@_cdecl("secstore_fuzz_secitem")
public func secstoreFuzzSecItem(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    runForLibFuzzer(.secItem, data, size)
}

@_cdecl("secstore_fuzz_entitlements")
public func secstoreFuzzEntitlements(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    runForLibFuzzer(.entitlements, data, size)
}

@_cdecl("secstore_fuzz_backup")
public func secstoreFuzzBackup(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    runForLibFuzzer(.backup, data, size)
}

@_cdecl("secstore_fuzz_backup_sealed")
public func secstoreFuzzBackupSealed(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    runForLibFuzzer(.backupSealed, data, size)
}

@_cdecl("secstore_fuzz_metadata")
public func secstoreFuzzMetadata(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    runForLibFuzzer(.metadata, data, size)
}

@_cdecl("secstore_fuzz_git_credential")
public func secstoreFuzzGitCredential(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    runForLibFuzzer(.gitCredential, data, size)
}

@_cdecl("secstore_fuzz_docker_credentials")
public func secstoreFuzzDockerCredentials(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    runForLibFuzzer(.dockerCredentials, data, size)
}

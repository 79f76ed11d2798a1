import ArgumentParser
import SecStore
import SecStoreSync

/// The exit statuses of `secstore`, one per kind of failure, so scripts can react to
/// "not found" differently from "locked". Documented in `docs/cli.md`; never renumber one.
///
/// ```swift
/// throw CLIError(.notFound, "No item matches.")   // the process exits with status 3
/// ```
enum ExitStatus: Int32, CaseIterable, Sendable {
    case success = 0
    /// Anything without a status of its own: an I/O failure, out of memory, unsupported.
    case failure = 1
    /// Bad arguments: a parse or validation error, an ambiguous match, an invalid value.
    case usage = 2
    case notFound = 3
    /// An item with the same primary key exists, or the store to create already exists.
    case duplicate = 4
    /// The item's class is locked and no passphrase was given.
    case locked = 5
    /// A store or backup passphrase is wrong.
    case authenticationFailed = 6
    /// Stored bytes failed authentication: a damaged store, item or backup.
    case damaged = 7
    /// The store cannot be opened: missing, busy, newer, or its device key is wrong or exposed.
    case unavailable = 8
    /// An access group or entitlements file problem.
    case missingEntitlement = 9
    /// `secstore exec`: the command was found but could not be run (as shells report it).
    case cannotExecute = 126
    /// `secstore exec`: the command was not found (as shells report it).
    case commandNotFound = 127

    /// The status for an error the SecStore engine threw.
    init(_ code: SecStoreError.Code) {
        switch code {
        case .itemNotFound: self = .notFound
        case .duplicateItem: self = .duplicate
        case .interactionNotAllowed: self = .locked
        case .authenticationFailed: self = .authenticationFailed
        case .corruptData: self = .damaged
        case .storeUnavailable, .insecureKeyFile, .storeBusy, .wrongDeviceKey, .unsupportedFormat, .readOnly:
            self = .unavailable
        case .missingEntitlement, .invalidEntitlements: self = .missingEntitlement
        case .invalidParameter, .noSuchAttribute, .noSuchClass: self = .usage
        default: self = .failure
        }
    }

    /// The status for a failure of `secstore sync`.
    init(_ error: SyncError) {
        switch error {
        case .unknownCode, .unknownDevice: self = .notFound
        case .alreadyConfigured, .circleExists: self = .duplicate
        case .circleDamaged, .rotatedOut, .circleRolledBack: self = .damaged
        case .etcd, .etcdRejected, .noCircle, .notConfigured: self = .unavailable
        case .awaitingApproval, .raced, .tooManyJoinRequests: self = .failure
        }
    }

    /// ArgumentParser reports usage errors as `EX_USAGE` (64); `secstore` reports them as 2.
    init(_ exitCode: ExitCode) {
        if exitCode == .validationFailure {
            self = .usage
        } else {
            self = ExitStatus(rawValue: exitCode.rawValue) ?? .failure
        }
    }
}

import Foundation
import SecStore

/// A failure the tool itself detects (as opposed to one the engine throws): it carries the
/// exit status and a message that names the problem and the fix.
///
/// ```swift
/// throw CLIError(.usage, "3 items match. Pass --all to delete every one, or narrow the query.")
/// ```
struct CLIError: Error, CustomStringConvertible {
    let status: ExitStatus
    let message: String
    /// The stable name printed in JSON error output.
    let name: String

    init(_ status: ExitStatus, _ message: String, name: String? = nil) {
        self.status = status
        self.message = message
        self.name = name ?? Self.defaultName(for: status)
    }

    var description: String { message }

    static func usage(_ message: String) -> CLIError { CLIError(.usage, message) }

    /// A file the user named for output is already there (status 4): replaced only with `--force`.
    static func fileExists(_ destination: URL) -> CLIError {
        CLIError(.duplicate, "\(destination.path) already exists. Pass --force to replace it, or choose another name.", name: "fileExists")
    }

    /// A new item, or one moved, would go into the reserved group ``ImportRules/syncGroup``
    /// (status 2): `secstore sync` makes its entries there, and one added by hand could shadow
    /// or stand in for sync's settings and keys. (Changing sync's own entries in place, with
    /// `update` or `edit`, is the owner's to do, as deleting them is.)
    static func reservedGroup(_ group: String, named origin: String) -> CLIError {
        CLIError(.usage, "\(origin) names the access group \(group), which is reserved for sync's own keys and settings (`secstore sync` makes them): the tool adds and moves no item there. Choose another group.", name: "reservedGroup")
    }

    /// The engine's code names where a status has one, so JSON errors spell each kind once.
    private static func defaultName(for status: ExitStatus) -> String {
        switch status {
        case .success: "success"
        case .failure: "failure"
        case .usage: "usage"
        case .notFound: SecStoreError.Code.itemNotFound.name
        case .duplicate: SecStoreError.Code.duplicateItem.name
        case .locked: SecStoreError.Code.interactionNotAllowed.name
        case .authenticationFailed: SecStoreError.Code.authenticationFailed.name
        case .damaged: SecStoreError.Code.corruptData.name
        case .unavailable: SecStoreError.Code.storeUnavailable.name
        case .missingEntitlement: SecStoreError.Code.missingEntitlement.name
        case .cannotExecute: "cannotExecute"
        case .commandNotFound: "commandNotFound"
        }
    }
}

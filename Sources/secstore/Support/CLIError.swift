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

    private static func defaultName(for status: ExitStatus) -> String {
        switch status {
        case .success: "success"
        case .failure: "failure"
        case .usage: "usage"
        case .notFound: "itemNotFound"
        case .duplicate: "duplicateItem"
        case .locked: "interactionNotAllowed"
        case .authenticationFailed: "authenticationFailed"
        case .damaged: "corruptData"
        case .unavailable: "storeUnavailable"
        case .missingEntitlement: "missingEntitlement"
        }
    }
}

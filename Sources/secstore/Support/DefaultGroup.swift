import Foundation
import SecStore

/// The access group of items the tool adds (and of `identity`) when `--group` is not given:
/// the application identifier of the entitlements file named by `SECSTORE_ENTITLEMENTS`
/// (or its first keychain access group), else `local.secstore` — the group a program named
/// `secstore` gets by default from ``Entitlements/processDefault``.
///
/// ```swift
/// let group = try DefaultGroup.resolve(explicit: options.group)
/// ```
enum DefaultGroup {
    static let fallback = "local.secstore"
    static let environmentVariable = "SECSTORE_ENTITLEMENTS"

    static func resolve(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        if let explicit {
            guard !explicit.isEmpty else { throw CLIError.usage("--group cannot be empty. Name an access group.") }
            return explicit
        }
        if let path = environment[environmentVariable], !path.isEmpty {
            let entitlements = try Entitlements(contentsOf: URL(filePath: path))
            if let group = entitlements.applicationIdentifier ?? entitlements.defaultAccessGroup { return group }
        }
        return fallback
    }
}

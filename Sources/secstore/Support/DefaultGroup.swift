import Foundation
import SecStore

/// The access groups the tool uses when `--group` is not given, from the entitlements file
/// named by `SECSTORE_ENTITLEMENTS`, else those of a program named `secstore` that declares
/// none (application identifier `local.secstore`).
///
/// ```swift
/// let group = try DefaultGroup.forNewItem(explicit: options.group)
/// ```
enum DefaultGroup {
    static let fallback = Entitlements(applicationIdentifier: "local.secstore")
    static let environmentVariable = "SECSTORE_ENTITLEMENTS"

    /// Where `add` puts an item: Apple's default group of the entitlements
    /// (``Entitlements/defaultAccessGroup``: the first `keychain-access-groups` entry, else
    /// the application identifier), the group `SecItemAdd` uses under the same entitlements.
    /// Never the reserved group of sync's own entries (``checkUserWritable(_:named:)``).
    static func forNewItem(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        let group = try resolve(explicit: explicit, environment: environment) { $0.defaultAccessGroup }
        try checkUserWritable(group, named: explicit == nil ? "$\(environmentVariable)" : "--group")
        return group
    }

    /// Refuses `group` as the group a command puts items into (`add`, `generate`,
    /// `update --new-group`) when it is ``ImportRules/syncGroup``, as imports are refused:
    /// `origin` names where the group came from.
    static func checkUserWritable(_ group: String, named origin: String) throws {
        if ImportRules.isReserved(group) { throw CLIError.reservedGroup(group, named: origin) }
    }

    /// Whose identifier `identity` shows: the application's own, in the group
    /// `DeviceIdentity`'s application scope uses (the application identifier), else the
    /// default group.
    static func forIdentity(explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        try resolve(explicit: explicit, environment: environment) { $0.applicationIdentifier ?? $0.defaultAccessGroup }
    }

    private static func resolve(explicit: String?, environment: [String: String],
                                _ rule: (Entitlements) -> String?) throws -> String {
        if let explicit {
            guard !explicit.isEmpty else { throw CLIError.usage("--group cannot be empty. Name an access group.") }
            return explicit
        }
        var entitlements = fallback
        if let path = environment[environmentVariable], !path.isEmpty {
            entitlements = try Entitlements(contentsOf: URL(filePath: path))
        }
        guard let group = rule(entitlements) else {
            throw CLIError.usage("The entitlements in $\(environmentVariable) name no access group. Pass --group NAME.")
        }
        return group
    }
}

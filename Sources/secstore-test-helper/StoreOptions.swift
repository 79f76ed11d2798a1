import ArgumentParser
import Foundation
import SecStore

/// The store every command but `hold-lock` opens, and the app it opens it as.
///
/// ```
/// --store PATH --device-key PATH [--app-id ID] [--group G]… [--owner yes] [--first-unlock-cache process]
/// ```
///
/// Each test process plays one app, so its entitlements come from the command line; the
/// tests that share AfterFirstUnlock keys between processes choose the cache.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("store"), help: ArgumentHelp("The store file.", valueName: "path"))
    var storePath: String

    @Option(name: .customLong("device-key"), help: ArgumentHelp("The device key file.", valueName: "path"))
    var deviceKeyPath: String

    @Option(name: .customLong("app-id"), help: ArgumentHelp("The application identifier to act as.", valueName: "id"))
    var applicationIdentifier = "test.helper"

    @Option(name: .customLong("group"), help: ArgumentHelp(
        "A keychain access group the app is entitled to; repeat for several.", valueName: "group"))
    var groups: [String] = []

    @Option(help: ArgumentHelp("yes: open as the store's owner (every group), ignoring --app-id and --group.",
                               valueName: "yes|no"))
    var owner: YesNo = .no

    @Option(name: .customLong("first-unlock-cache"), help: ArgumentHelp(
        "Where AfterFirstUnlock keys wait between processes. Default: the library's (automatic).",
        valueName: "process|kernel-keyring"))
    var firstUnlockCache: FirstUnlockCacheArgument?

    /// `--owner yes` gives owner access; otherwise `--app-id` and the `--group`s give entitlements.
    var access: StoreAccess {
        if owner == .yes { return .owner }
        return .entitled(Entitlements(applicationIdentifier: applicationIdentifier, keychainAccessGroups: groups))
    }

    /// Opens the store with these options. Its errors are SecStore failures, reported as
    /// `error <name> <OSStatus>`.
    func openStore() throws -> SecretStore {
        var options = SecretStore.Options(access: access, deviceKeyURL: URL(filePath: deviceKeyPath))
        if let firstUnlockCache { options.firstUnlockCache = firstUnlockCache.cache }
        return try SecretStore(at: URL(filePath: storePath), options: options)
    }
}

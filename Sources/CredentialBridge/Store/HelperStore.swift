import Foundation
import KeychainServices
import SecStore

/// How a credential helper opens its store: exactly as the `KeychainServices` default store
/// opens one (`SecItemDefaultStore.Configuration.environment(_:)`), so the helpers read the
/// same environment as every other SecStore client:
///
/// | variable | meaning |
/// | --- | --- |
/// | `SECSTORE_PATH` | the store file (else `$XDG_DATA_HOME/secstore/default.secstore`, else `~/.local/share/secstore/default.secstore`) |
/// | `SECSTORE_DEVICE_KEY` | the device key file |
/// | `SECSTORE_PASSPHRASE_FILE` | a private file holding the passphrase of a protected store |
/// | `SECSTORE_ENTITLEMENTS` | an entitlements plist; without one the helper uses its own access group, ``applicationIdentifier`` |
///
/// A protected store is readable during a shared unlock (`secstore unlock --for`), which
/// the store itself looks up, or with `SECSTORE_PASSPHRASE_FILE`.
///
/// ```swift
/// let opener = HelperStore(applicationIdentifier: "local.git-credential-secstore")
/// guard let store = try opener.open(creating: false) else { return }   // no store yet: nothing stored
/// ```
public struct HelperStore: Sendable {
    /// The application identifier, and so the access group, of the helper's items when
    /// `SECSTORE_ENTITLEMENTS` names no entitlements.
    public let applicationIdentifier: String
    /// The environment to read; the process's by default.
    public let environment: [String: String]

    /// A helper whose items go to `applicationIdentifier`'s access group.
    ///
    /// ```swift
    /// let opener = HelperStore(applicationIdentifier: "local.docker-credential-secstore")
    /// ```
    public init(applicationIdentifier: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.applicationIdentifier = applicationIdentifier
        self.environment = environment
    }

    /// Opens the store, unlocking it with `SECSTORE_PASSPHRASE_FILE` when that is set and
    /// the store has a passphrase. Without `creating`, a store file that does not exist is
    /// `nil` (nothing is stored yet, and a read never creates files); with it, the store
    /// (and the device key) are created as any SecStore client creates them.
    ///
    /// ```swift
    /// let store = try HelperStore(applicationIdentifier: "local.git-credential-secstore").open(creating: true)
    /// ```
    ///
    /// - Throws: ``BridgeError`` of kind ``BridgeError/Kind/store``: the entitlements file,
    ///   the device key, the passphrase file or the store could not be used.
    public func open(creating: Bool) throws(BridgeError) -> SecretStore? {
        try BridgeError.catchingStore {
            var configuration = try SecItemDefaultStore.Configuration.environment(environment)
            if (environment["SECSTORE_ENTITLEMENTS"] ?? "").isEmpty {
                configuration.options.access = .entitled(Entitlements(applicationIdentifier: applicationIdentifier))
            }
            configuration.options.createIfMissing = creating
            guard creating || FileManager.default.fileExists(atPath: configuration.storeURL.path) else { return nil }
            SecItemDefaultStore.reconfigure(configuration)
            return try SecItemDefaultStore.store()
        }
    }
}

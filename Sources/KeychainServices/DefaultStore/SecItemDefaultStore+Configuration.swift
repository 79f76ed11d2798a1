import Foundation
import SecStore

extension SecItemDefaultStore {
    /// Which store file the SecItem functions use, and as whom.
    ///
    /// ```swift
    /// // Before the first SecItem call:
    /// try SecItemDefaultStore.configure(.init(
    ///     storeURL: URL(filePath: "/var/lib/myapp/keychain.secstore"),
    ///     applicationIdentifier: "ABCDE12345.com.example.myapp",
    ///     accessGroups: ["ABCDE12345.com.example.shared"]))
    /// ```
    ///
    /// Without one, the store is configured from the environment; see ``environment(_:)``.
    public struct Configuration: Sendable {
        /// The store file. Created, with its directory, on first use if it does not exist.
        public var storeURL: URL
        /// How the store is opened: entitlements, device key file, busy timeout, ….
        public var options: SecretStore.Options
        /// A file whose first line is the store's passphrase: the store is unlocked with it
        /// when it opens, so a service without a terminal reads its `whenUnlocked` items.
        /// It must be private (a regular file you own, mode `0600` or `0400`), as systemd's
        /// `LoadCredential=` makes it; an exposed file is refused (`errSecNotAvailable`).
        ///
        /// ```swift
        /// var configuration = try SecItemDefaultStore.Configuration.environment()
        /// configuration.passphraseFile = URL(filePath: "/run/credentials/myapp.service/passphrase")
        /// try SecItemDefaultStore.configure(configuration)
        /// ```
        public var passphraseFile: URL?

        /// A store at `storeURL`, opened with `options`.
        ///
        /// ```swift
        /// let owner = SecItemDefaultStore.Configuration(storeURL: URL(filePath: "/var/lib/myapp/keychain.secstore"),
        ///                                               options: .init(access: .owner))
        /// ```
        public init(storeURL: URL, options: SecretStore.Options = .init()) {
            self.storeURL = storeURL
            self.options = options
        }

        /// A store at `storeURL` for an application with this identifier and these keychain
        /// access groups, the values of its `application-identifier` and
        /// `keychain-access-groups` entitlements. The first access group (else the
        /// application identifier) is where new items go.
        ///
        /// ```swift
        /// try SecItemDefaultStore.configure(.init(storeURL: URL(filePath: "/var/lib/myapp/keychain.secstore"),
        ///                                         applicationIdentifier: "ABCDE12345.com.example.myapp"))
        /// ```
        ///
        /// - Parameters:
        ///   - storeURL: the store file.
        ///   - applicationIdentifier: the `application-identifier` entitlement, if any.
        ///   - accessGroups: the `keychain-access-groups` entitlement, in order.
        ///   - deviceKeyURL: the device key file; `nil` means `$SECSTORE_DEVICE_KEY`,
        ///     else `device.key` in the per-user `secstore` data directory.
        public init(storeURL: URL, applicationIdentifier: String?, accessGroups: [String] = [], deviceKeyURL: URL? = nil) {
            let entitlements = Entitlements(applicationIdentifier: applicationIdentifier, keychainAccessGroups: accessGroups)
            self.init(storeURL: storeURL, options: .init(access: .entitled(entitlements), deviceKeyURL: deviceKeyURL))
        }

        /// The configuration the environment describes, which the SecItem functions use
        /// unless the process configures another:
        ///
        /// | variable | meaning | when unset |
        /// | --- | --- | --- |
        /// | `SECSTORE_PATH` | the store file | `$XDG_DATA_HOME/secstore/default.secstore`, else `~/.local/share/secstore/default.secstore` |
        /// | `SECSTORE_ENTITLEMENTS` | an Apple entitlements property list (`application-identifier`, `keychain-access-groups`) | application identifier `local.<executable name>`, no other access group |
        /// | `SECSTORE_DEVICE_KEY` | the device key file | `device.key` in the same `secstore` data directory |
        /// | `SECSTORE_PASSPHRASE_FILE` | a private file holding the store's passphrase (``passphraseFile``) | the store is not unlocked at open: passphrase-protected items are readable only during a `secstore unlock --for` |
        ///
        /// ```swift
        /// let configuration = try SecItemDefaultStore.Configuration.environment()
        /// print(configuration.storeURL.path)
        /// ```
        ///
        /// - Throws: `SecStoreError` (`errSecMissingEntitlement`) when `SECSTORE_ENTITLEMENTS`
        ///   names a file that is missing or is not a usable entitlements property list.
        public static func environment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Configuration {
            let entitlements: Entitlements
            if let path = environment["SECSTORE_ENTITLEMENTS"], !path.isEmpty {
                entitlements = try Entitlements(contentsOf: URL(filePath: path))
            } else {
                entitlements = .processDefault
            }
            let options = SecretStore.Options(access: .entitled(entitlements),
                                              deviceKeyURL: StoreLocation.defaultDeviceKeyURL(environment: environment))
            var configuration = Configuration(storeURL: StoreLocation.defaultStoreURL(environment: environment), options: options)
            if let path = environment["SECSTORE_PASSPHRASE_FILE"], !path.isEmpty {
                configuration.passphraseFile = URL(filePath: path)
            }
            return configuration
        }
    }
}

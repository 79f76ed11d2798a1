import Foundation
import Logging

/// An open SecStore store: an encrypted SQLite file of keychain items with Apple's
/// add / copy-matching / update / delete semantics.
///
/// A `SecretStore` is `Sendable`: share one handle between threads and tasks. Several
/// processes may open the same file at once.
///
/// ```swift
/// let store = try SecretStore()                        // the default store
/// store["api-token"] = "s3cr3t"                        // one line to write…
/// let token = store["api-token"]                       // …and one to read
///
/// try store.add(.genericPassword(service: "db", account: "app", data: Data("pw".utf8)))
/// let items = try store.items(matching: Query(service: "db", limit: .all,
///                                             returning: [.attributes, .data]))
/// ```
public final class SecretStore: Sendable {
    /// The store file.
    public let url: URL
    /// The options the store was opened with.
    public let options: Options
    let engine: ItemEngine


    /// Opens the store at `url`, creating it (and the device key) when it does not exist
    /// and ``Options/createIfMissing`` allows.
    ///
    /// ```swift
    /// let store = try SecretStore(at: URL(filePath: "/var/lib/myapp/secrets.secstore"),
    ///                             options: .init(createIfMissing: false))
    /// ```
    ///
    /// - Throws: ``SecStoreError`` — `storeUnavailable` when the file is missing and may not
    ///   be created or is not a store, `insecureKeyFile` when the device key is exposed,
    ///   `wrongDeviceKey` when the store was made with another device key,
    ///   `unsupportedFormat` when a newer SecStore wrote it.
    public convenience init(at url: URL = StoreLocation.defaultStoreURL(), options: Options = Options()) throws {
        try options.validate()
        if !FileManager.default.fileExists(atPath: url.path) {
            if !options.createIfMissing {
                throw SecStoreError(.storeUnavailable, "There is no store at \(url.path). Create it first (`secstore create --store \(url.path)`), or check the path.")
            }
            // Another process creating it at the same moment is fine: one complete file wins.
            _ = try Self.publishNewStore(at: url, options: options, passphrase: nil, limits: .moderate)
        }
        try self.init(opening: url, options: options, initializing: false)
    }

    /// Opens the file at `url`. `initializing` lets it write the schema and keys of an empty
    /// file: only for the temporary file of ``publishNewStore(at:options:passphrase:limits:)``.
    init(opening url: URL, options: Options, initializing: Bool) throws {
        self.url = url
        self.options = options
        engine = try SecStoreError.catching(path: url.path) {
            let deviceKey = try DeviceKeyFile.load(at: options.resolvedDeviceKeyURL,
                                                   create: initializing)
            if !initializing { try StoreOpener.checkNotEmpty(url) }
            let database = try StoreDatabase(url: url, busyTimeout: options.busyTimeout, creating: initializing)
            let vault: KeyVault
            do {
                vault = try StoreOpener(database: database).openVault(deviceKey: deviceKey, options: options,
                                                                  initializing: initializing)
            } catch {
                database.leaveLogOnClose()
                throw error
            }
            return ItemEngine(database: database, vault: vault, access: options.access)
        }
        upgradeVersion1RowsIfPossible()
    }

    /// Moves the rows still sealed in format version 1 to the current format, for the classes
    /// readable now (``ItemEngine/upgradeVersion1Rows()``): after opening, and after each
    /// unlock. Never fails the call that triggered it: a read-only or busy store keeps its
    /// version-1 rows, which stay readable, until a later open.
    func upgradeVersion1RowsIfPossible() {
        do {
            let upgraded = try engine.upgradeVersion1Rows()
            if upgraded > 0 {
                options.logger.info("sealed rows of format version 1 again in the current format", metadata: ["rows": "\(upgraded)"])
            }
        } catch {
            options.logger.notice("rows of format version 1 stay as they are for now", metadata: ["reason": "\(error)"])
        }
    }

    /// The store's random identity, fixed when it was created.
    public var storeID: UUID {
        engine.vault.storeID.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
    }
}

extension SecretStore {
    /// How to open a store.
    ///
    /// ```swift
    /// var options = SecretStore.Options()
    /// options.access = .entitled(Entitlements(applicationIdentifier: "ABCDE12345.com.example.app"))
    /// options.busyTimeout = 30
    /// let store = try SecretStore(at: url, options: options)
    /// ```
    public struct Options: Sendable {
        /// Whose view of the store this handle has. Defaults to ``Entitlements/processDefault``.
        public var access: StoreAccess
        /// The device key file; `nil` means ``StoreLocation/defaultDeviceKeyURL(environment:)``.
        public var deviceKeyURL: URL?

        /// The device key file these options name: ``deviceKeyURL``, else the default one.
        package var resolvedDeviceKeyURL: URL { deviceKeyURL ?? StoreLocation.defaultDeviceKeyURL() }
        /// Create the store when the file does not exist. Default `true`.
        public var createIfMissing: Bool
        /// How long a call waits for another process's write before failing with `storeBusy`.
        public var busyTimeout: TimeInterval
        /// The service of the one-line API (`store["account"]`). Defaults to the access's
        /// application identifier, else `"secstore"`.
        public var defaultService: String?
        /// Lock the passphrase-protected classes after this many seconds without use.
        /// `nil` (the default) keeps them unlocked until ``SecretStore/lock(forgettingFirstUnlock:)``
        /// or until the handle is released.
        public var autoLockInterval: TimeInterval?
        /// Where `AfterFirstUnlock` keys are shared between processes.
        public var firstUnlockCache: FirstUnlockCache
        /// Where the store logs (swift-log): store creation, a missing kernel keyring, a
        /// failed write through the subscript. Never an attribute value or a secret. The
        /// default discards everything; pass your application's logger to see them.
        ///
        /// ```swift
        /// options.logger = Logger(label: "com.example.app.secrets")
        /// ```
        public var logger = Logger(label: "secstore", factory: { _ in SwiftLogNoOpLogHandler() })

        /// Options with the given values; each default is the one its property documents
        /// (entitled as ``Entitlements/processDefault``, the default device key, created if
        /// missing, a 10-second busy timeout, no auto-lock, ``FirstUnlockCache/automatic``).
        ///
        /// ```swift
        /// let options = SecretStore.Options(access: .owner,
        ///                                   deviceKeyURL: URL(filePath: "/etc/myapp/device.key"),
        ///                                   createIfMissing: false)
        /// ```
        public init(access: StoreAccess = .entitled(.processDefault), deviceKeyURL: URL? = nil,
                    createIfMissing: Bool = true, busyTimeout: TimeInterval = 10, defaultService: String? = nil,
                    autoLockInterval: TimeInterval? = nil, firstUnlockCache: FirstUnlockCache = .automatic) {
            self.access = access
            self.deviceKeyURL = deviceKeyURL
            self.createIfMissing = createIfMissing
            self.busyTimeout = busyTimeout
            self.defaultService = defaultService
            self.autoLockInterval = autoLockInterval
            self.firstUnlockCache = firstUnlockCache
        }

        /// Refuses values that would make SQLite or the idle timer misbehave.
        func validate() throws {
            guard busyTimeout.isFinite, (0...86_400).contains(busyTimeout) else {
                throw SecStoreError.invalid("busyTimeout must be between 0 and 86,400 seconds.")
            }
            if let autoLockInterval {
                guard autoLockInterval.isFinite, autoLockInterval > 0, autoLockInterval <= 31_536_000 else {
                    throw SecStoreError.invalid("autoLockInterval must be more than 0 and at most a year, in seconds.")
                }
            }
        }

        var resolvedDefaultService: String {
            if let defaultService { return defaultService }
            if case .entitled(let entitlements) = access, let id = entitlements.applicationIdentifier { return id }
            return "secstore"
        }
    }
}

extension Entitlements {
    /// The entitlements of a process that declares none: application identifier
    /// `local.<executable name>`, no other groups.
    public static var processDefault: Entitlements {
        let name = URL(filePath: CommandLine.arguments.first ?? "app").lastPathComponent
        return Entitlements(applicationIdentifier: "local." + (name.isEmpty ? "app" : name))
    }
}

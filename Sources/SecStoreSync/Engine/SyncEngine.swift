import Foundation
import Logging
import SecStore
import Etcd

/// Syncs a store's synchronizable items with the other devices of its circle, through etcd
/// (docs/sync.md). One engine per store handle; `secstore sync now` runs one pass,
/// `secstore sync daemon` runs ``run()``.
///
/// ```swift
/// let engine = try SyncEngine.open(store: store)
/// let report = try await engine.syncNow()
/// print(report)   // pushed 3, applied 12, refused 0, conflicts 0, at revision 481
/// ```
package actor SyncEngine {
    let store: SecretStore
    let client: EtcdClient
    let layout: EtcdLayout
    let vault: SyncVault
    var settings: SyncSettings
    let device: [UInt8]
    let deviceKeys: SealedBox.KeyPair
    /// The circle keys of every epoch this device holds.
    var keys: [UInt32: CircleKeys]
    let logger: Logger?
    var tombstoneRetention: Duration = .seconds(30 * 24 * 3600)
    /// Runs between a push's compare-and-swap and its commit: tests make local changes there,
    /// as another process could (``setInterlude(_:)``).
    var interlude: (@Sendable () async throws -> Void)?

    init(store: SecretStore, settings: SyncSettings, client: EtcdClient, logger: Logger?) throws {
        self.store = store
        self.settings = settings
        self.client = client
        self.logger = logger
        layout = EtcdLayout(prefix: settings.prefix)
        vault = SyncVault(store: store)
        guard let device = Hex.bytes(settings.deviceID), device.count == CircleKeys.idByteCount else {
            throw SyncError.circleDamaged("this device's id in its settings")
        }
        self.device = device
        deviceKeys = try Self.deviceKeyPair(vault)
        keys = try Self.loadKeys(settings, vault)
    }

    /// The engine of a store that is in a circle (or waits to join one).
    package static func open(store: SecretStore, logger: Logger? = nil) throws -> SyncEngine {
        let vault = SyncVault(store: store)
        guard let data = try vault.read(.settings) else { throw SyncError.notConfigured }
        let settings = try JSONDecoder().decode(SyncSettings.self, from: data)
        let password = try vault.read(.etcdPassword).map { String(decoding: $0, as: UTF8.self) }
        let engine = try SyncEngine(store: store, settings: settings, client: try client(for: settings, password: password), logger: logger)
        // A device approved but stopped before its journal was turned on (the grant is kept
        // first): turning it on queues the items it already had.
        if !settings.awaitingApproval, !settings.epochs.isEmpty, try !store.syncRead({ try $0.state().enabled }) {
            try store.syncWrite { try $0.enable() }
        }
        return engine
    }

    static func client(for settings: SyncSettings, password: String?) throws -> EtcdClient {
        let urls = settings.endpoints.compactMap(URL.init(string:))
        let credentials = settings.user.map { EtcdCredentials(user: $0, password: password ?? "") }
        do {
            guard urls.count == settings.endpoints.count else { throw EtcdError.invalidEndpoint(settings.endpoints.joined(separator: ",")) }
            // etcd's own TLS, as configured: https endpoints, its CA, a client certificate.
            let secured = urls.contains { $0.scheme == "https" }
            let tls = secured ? EtcdTLS(certificateAuthorityFile: settings.certificateAuthorityFile,
                                        clientCertificateFile: settings.clientCertificateFile, clientKeyFile: settings.clientKeyFile) : nil
            return try EtcdClient(endpoints: urls, credentials: credentials, tls: tls)
        } catch let error as EtcdError {
            throw SyncError.etcd(error.description)
        }
    }

    /// This device's id, in hex.
    package var deviceID: String { settings.deviceID }

    var currentKeys: CircleKeys? { settings.currentEpoch.flatMap { keys[$0] } }

    // MARK: One pass

    /// Pulls what other devices wrote since the last pass, then pushes this device's changes.
    ///
    /// A device whose last pass is older than ``tombstoneRetention`` may have missed
    /// tombstones that were purged since: it also reconciles its synced items with the records
    /// etcd still holds (``reconcile()``).
    package func syncNow() async throws -> SyncReport {
        let now = SyncVersion.microseconds(Date())
        let last = try store.syncRead { try $0.syncedAt() }
        var report = try await pull()
        guard !settings.awaitingApproval else { throw SyncError.awaitingApproval }
        report.add(try await resealIfPending())
        if last > 0 && now - last > Self.microseconds(tombstoneRetention) { report.add(try await reconcile()) }
        report.add(try await push())
        report.purged = try await purgeTombstones(olderThan: now - Self.microseconds(tombstoneRetention))
        try store.syncWrite { try $0.setSyncedAt(now) }
        return report
    }

    /// For tests: `body` runs after each successful compare-and-swap of a push, before the
    /// store records it.
    package func setInterlude(_ body: (@Sendable () async throws -> Void)?) { interlude = body }

    /// How long a tombstone stays in etcd (30 days unless set): long enough for every device
    /// to learn of the deletion at its next pass.
    package func setTombstoneRetention(_ retention: Duration) { tombstoneRetention = retention }

    static func microseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
    }

    // MARK: Keys

    static func deviceKeyPair(_ vault: SyncVault) throws -> SealedBox.KeyPair {
        try SealedBox.KeyPair(secretKey: secureEntry(.deviceKey, byteCount: SealedBox.secretKeyByteCount, vault))
    }

    static func loadKeys(_ settings: SyncSettings, _ vault: SyncVault) throws -> [UInt32: CircleKeys] {
        guard let circleID = Hex.bytes(settings.circleID), circleID.count == CircleKeys.idByteCount else {
            throw SyncError.circleDamaged("the circle id in this device's settings")
        }
        guard !settings.epochs.isEmpty else { return [:] }
        let naming = try secureEntry(.namingKey, vault)
        var keys: [UInt32: CircleKeys] = [:]
        for epoch in settings.epochs {
            keys[epoch.epoch] = try CircleKeys(circleID: circleID, epoch: epoch.epoch,
                                               circleKey: secureEntry(.circleKey(epoch: epoch.epoch), vault), namingKey: naming)
        }
        return keys
    }

    /// A key kept in the vault, copied into guarded memory (the store's copy wiped).
    static func secureEntry(_ entry: SyncVault.Entry, byteCount: Int = CircleKeys.keyByteCount, _ vault: SyncVault) throws -> SecureBytes {
        guard var data = try vault.read(entry) else {
            throw SyncError.circleDamaged("the \(entry.account) entry is missing from the store")
        }
        defer { Wipe.data(&data) }
        guard data.count == byteCount else { throw SyncError.circleDamaged("the \(entry.account) entry has the wrong size") }
        return try data.withUnsafeBytes { try SecureBytes(copying: $0) }
    }

    func saveSettings() throws {
        try vault.write(try JSONEncoder().encode(settings), as: .settings)
    }

    /// Whether a record sealed under `epoch` may change anything here: only under the
    /// current epoch. Once a device holds a newer epoch it takes nothing new sealed under an
    /// older one, whatever revision etcd reports (the remover sealed every record again under
    /// the new epoch, after applying all there was: ``remove(device:)``); an older record it
    /// already applied is merely recognised.
    func accepts(epoch: UInt32) -> Bool {
        epoch == settings.currentEpoch
    }

    /// Runs an etcd call, turning its errors into ``SyncError/etcd(_:)``; a compacted
    /// revision passes through (the daemon catches up and watches again).
    static func callEtcd<T>(isolation: isolated (any Actor)? = #isolation, _ call: () async throws -> T) async throws -> T {
        do {
            return try await call()
        } catch let error as EtcdError {
            switch error {
            case .compacted: throw error
            case .rejected: throw SyncError.etcdRejected(error.description)
            default: throw SyncError.etcd(error.description)
            }
        }
    }

    func etcd<T>(_ call: () async throws -> T) async throws -> T { try await Self.callEtcd(call) }
}

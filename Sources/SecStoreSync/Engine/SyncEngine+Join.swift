import Foundation
import Logging
import SecStore
import Etcd

/// Creating a circle, and asking to join one.
extension SyncEngine {
    /// Creates a circle in etcd with this store as its first member, and pushes every item
    /// that syncs.
    package static func createCircle(store: SecretStore, connection: SyncConnection, logger: Logger? = nil) async throws -> SyncEngine {
        let engine = try await prepare(store: store, connection: connection, circleID: SecureRandom.bytes(CircleKeys.idByteCount),
                                       logger: logger)
        try await undoingOnFailure(store) { try await engine.publishNewCircle() }
        return engine
    }

    /// Asks to join the circle under the connection's prefix: publishes this device's public
    /// key and returns the code a member approves it with.
    package static func requestJoin(store: SecretStore, connection: SyncConnection, logger: Logger? = nil) async throws -> (SyncEngine, String) {
        let probe = try client(for: SyncSettings(endpoints: connection.endpoints, prefix: connection.prefix, user: connection.user,
                                                 certificateAuthorityFile: connection.certificateAuthorityFile,
                                                 clientCertificateFile: connection.clientCertificateFile,
                                                 clientKeyFile: connection.clientKeyFile, deviceID: "",
                                                 circleID: "", epochs: [], awaitingApproval: true),
                               password: connection.password)
        let layout = EtcdLayout(prefix: connection.prefix)
        let found = try await SyncEngine.callEtcd { try await probe.range(key: layout.circle) }
        guard let value = found.keyValues.first?.value, let circle = CircleEntries.parseCircle(value) else {
            throw SyncError.noCircle(prefix: connection.prefix)
        }
        let engine = try await prepare(store: store, connection: connection, circleID: circle.circleID, logger: logger)
        return (engine, try await undoingOnFailure(store) { try await engine.publishJoin() })
    }

    /// Runs the etcd half of `init` or `join`; when it fails (etcd unreachable, a wrong
    /// password, a circle already there), the store forgets the half-made setup, so the
    /// command can simply run again.
    private static func undoingOnFailure<T>(_ store: SecretStore, isolation: isolated (any Actor)? = #isolation,
                                            _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            try? SyncVault(store: store).removeAll()
            throw error
        }
    }

    /// Saves the connection, a new device id and key pair, into the store.
    private static func prepare(store: SecretStore, connection: SyncConnection, circleID: [UInt8], logger: Logger?) async throws -> SyncEngine {
        let vault = SyncVault(store: store)
        guard try vault.read(.settings) == nil else { throw SyncError.alreadyConfigured }
        let keyPair = try SealedBox.KeyPair()
        let settings = SyncSettings(endpoints: connection.endpoints, prefix: connection.prefix, user: connection.user,
                                    certificateAuthorityFile: connection.certificateAuthorityFile,
                                    clientCertificateFile: connection.clientCertificateFile, clientKeyFile: connection.clientKeyFile,
                                    deviceID: Hex.string(try SecureRandom.bytes(CircleKeys.idByteCount)),
                                    circleID: Hex.string(circleID), epochs: [], awaitingApproval: true)
        let client = try client(for: settings, password: connection.password)
        try vault.write(keyPair.secretKey, as: .deviceKey)
        if let password = connection.password { try vault.write(Data(password.utf8), as: .etcdPassword) }
        try vault.write(try JSONEncoder().encode(settings), as: .settings)
        return try SyncEngine(store: store, settings: settings, client: client, logger: logger)
    }

    private func publishNewCircle() async throws {
        let circleKey = try SecureBytes.random(count: CircleKeys.keyByteCount)
        let namingKey = try SecureBytes.random(count: CircleKeys.keyByteCount)
        let circleID = Hex.bytes(settings.circleID) ?? []
        let first = try CircleKeys(circleID: circleID, epoch: 1, circleKey: circleKey, namingKey: namingKey)
        let grant = CircleEntries.Grant(circleID: circleID, epoch: 1, circleKey: circleKey, namingKey: namingKey)
        let result: EtcdTxnResult
        do {
            result = try await etcd {
                try await client.txn(compare: [.absent(layout.circle)], success: [
                    .put(key: layout.circle, value: CircleEntries.circle(first)),
                    .put(key: layout.member(device), value: CircleEntries.member(device: device, publicKey: deviceKeys.publicKey, keys: first)),
                ])
            }
        } catch SyncError.etcd(let message) {
            // The answer was lost, not necessarily the write: if the circle etcd holds is this
            // one, it was made, and its keys must not be thrown away.
            if let made = try? await client.range(key: layout.circle).keyValues.first, made.value == CircleEntries.circle(first) {
                return try adopt(grant, startRevision: made.createRevision, circleRevision: made.modRevision)
            }
            throw SyncError.etcd(message)
        }
        guard result.succeeded else { throw SyncError.circleExists(prefix: settings.prefix) }
        try adopt(grant, startRevision: result.revision, circleRevision: result.revision)
    }

    private func publishJoin() async throws -> String {
        let code = try JoinCode.random()
        let salt = try SecureRandom.bytes(JoinCode.saltByteCount)
        let codeKey = try code.key(salt: salt)
        let circleID = Hex.bytes(settings.circleID) ?? []
        let value = try CircleEntries.join(circleID: circleID, device: device, publicKey: deviceKeys.publicKey, salt: salt,
                                           codeKey: codeKey)
        try vault.write(codeKey, as: .joinKey)
        _ = try await etcd { try await client.put(key: layout.join(device), value: value) }
        return code.description
    }
}

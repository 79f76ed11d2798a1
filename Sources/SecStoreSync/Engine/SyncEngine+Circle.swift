import Foundation
import Logging
import SecStore
import Etcd

/// How to reach etcd: what `sync init` and `sync join` are given, kept in the store.
package struct SyncConnection: Sendable {
    package var endpoints: [String]
    package var prefix: String
    package var user: String?
    package var password: String?
    package var certificateAuthorityFile: String?

    package init(endpoints: [String], prefix: String = "secstore", user: String? = nil, password: String? = nil,
                 certificateAuthorityFile: String? = nil) {
        self.endpoints = endpoints
        self.prefix = prefix
        self.user = user
        self.password = password
        self.certificateAuthorityFile = certificateAuthorityFile
    }
}

extension SyncEngine {
    // MARK: Creating and joining

    /// Creates a circle in etcd with this store as its first member, and pushes every item
    /// that syncs.
    package static func createCircle(store: SecretStore, connection: SyncConnection, logger: Logger? = nil) async throws -> SyncEngine {
        let engine = try await prepare(store: store, connection: connection, circleID: SecureRandom.bytes(CircleKeys.idByteCount),
                                       logger: logger)
        try await engine.publishNewCircle()
        return engine
    }

    /// Asks to join the circle under the connection's prefix: publishes this device's public
    /// key and returns the code a member approves it with.
    package static func requestJoin(store: SecretStore, connection: SyncConnection, logger: Logger? = nil) async throws -> (SyncEngine, String) {
        let probe = try client(for: SyncSettings(endpoints: connection.endpoints, prefix: connection.prefix, user: connection.user,
                                                 certificateAuthorityFile: connection.certificateAuthorityFile, deviceID: "",
                                                 circleID: "", epochs: [], awaitingApproval: true),
                               password: connection.password)
        let layout = EtcdLayout(prefix: connection.prefix)
        let found = try await SyncEngine.callEtcd { try await probe.range(key: layout.circle) }
        guard let value = found.keyValues.first?.value, let circle = CircleEntries.parseCircle(value) else {
            throw SyncError.noCircle(prefix: connection.prefix)
        }
        let engine = try await prepare(store: store, connection: connection, circleID: circle.circleID, logger: logger)
        return (engine, try await engine.publishJoin())
    }

    /// Saves the connection, a new device id and key pair, into the store.
    private static func prepare(store: SecretStore, connection: SyncConnection, circleID: [UInt8], logger: Logger?) async throws -> SyncEngine {
        let vault = SyncVault(store: store)
        guard try vault.read(.settings) == nil else { throw SyncError.alreadyConfigured }
        let keyPair = try SealedBox.KeyPair()
        let settings = SyncSettings(endpoints: connection.endpoints, prefix: connection.prefix, user: connection.user,
                                    certificateAuthorityFile: connection.certificateAuthorityFile,
                                    deviceID: Hex.string(try SecureRandom.bytes(CircleKeys.idByteCount)),
                                    circleID: Hex.string(circleID), epochs: [], awaitingApproval: true)
        let client = try client(for: settings, password: connection.password)
        try keyPair.secretKey.withUnsafeBytes { try vault.write(Data($0), as: .deviceKey) }
        if let password = connection.password { try vault.write(Data(password.utf8), as: .etcdPassword) }
        try vault.write(try JSONEncoder().encode(settings), as: .settings)
        return try SyncEngine(store: store, settings: settings, client: client, logger: logger)
    }

    private func publishNewCircle() async throws {
        let circleKey = try SecureBytes.random(count: CircleKeys.keyByteCount)
        let namingKey = try SecureBytes.random(count: CircleKeys.keyByteCount)
        let circleID = Hex.bytes(settings.circleID) ?? []
        let first = try CircleKeys(circleID: circleID, epoch: 1, circleKey: circleKey, namingKey: namingKey)
        let result = try await etcd {
            try await client.txn(compare: [.absent(layout.circle)], success: [
                .put(key: layout.circle, value: CircleEntries.circle(first)),
                .put(key: layout.member(device), value: CircleEntries.member(device: device, publicKey: deviceKeys.publicKey, keys: first)),
            ])
        }
        guard result.succeeded else {
            try vault.removeAll()
            throw SyncError.circleExists(prefix: settings.prefix)
        }
        try adopt(CircleEntries.Grant(circleID: circleID, epoch: 1, circleKey: circleKey, namingKey: namingKey),
                  startRevision: result.revision)
    }

    private func publishJoin() async throws -> String {
        let code = try JoinCode.random()
        let salt = try SecureRandom.bytes(JoinCode.saltByteCount)
        let codeKey = try code.key(salt: salt)
        let circleID = Hex.bytes(settings.circleID) ?? []
        let value = try CircleEntries.join(circleID: circleID, device: device, publicKey: deviceKeys.publicKey, salt: salt,
                                           codeKey: codeKey)
        try codeKey.withUnsafeBytes { try vault.write(Data($0), as: .joinKey) }
        _ = try await etcd { try await client.put(key: layout.join(device), value: value) }
        return code.description
    }

    // MARK: Approving and removing

    /// Approves the waiting device whose code this is: hands it the circle's keys, sealed to
    /// its public key and authenticated with the code.
    package func approve(code typed: String) async throws -> String {
        guard let keys = currentKeys, let code = JoinCode(typed: typed) else {
            throw currentKeys == nil ? SyncError.awaitingApproval : SyncError.unknownCode(matches: 0)
        }
        let waiting = try await etcd { try await client.range(prefix: layout.joins) }
        var matches: [(kv: EtcdKeyValue, device: [UInt8], publicKey: [UInt8], codeKey: SecureBytes)] = []
        for kv in waiting.keyValues {
            guard case .join(let joiner) = layout.kind(of: kv.key),
                  let parsed = try CircleEntries.parseJoin(kv.value, circleID: keys.circleID, device: joiner, code: code)
            else { continue }
            matches.append((kv, joiner, parsed.publicKey, parsed.codeKey))
        }
        guard matches.count == 1, let match = matches.first else { throw SyncError.unknownCode(matches: matches.count) }
        let sealed = try CircleEntries.sealGrant(try grant(for: keys), to: match.publicKey)
        let mac = try CircleEntries.codeMAC(match.codeKey, CircleEntries.grantMessage(epoch: keys.epoch, device: match.device, sealed: sealed))
        let result = try await etcd {
            try await client.txn(compare: [.unchanged(match.kv.key, modRevision: match.kv.modRevision)], success: [
                .put(key: layout.grant(epoch: keys.epoch, device: match.device), value: sealed + mac),
                .put(key: layout.member(match.device), value: CircleEntries.member(device: match.device, publicKey: match.publicKey, keys: keys)),
                .delete(key: match.kv.key),
            ])
        }
        guard result.succeeded else { throw SyncError.raced }
        return Hex.string(match.device)
    }

    /// Removes a member: a new epoch whose keys go to every other member, so the removed
    /// device cannot read what is written from now on; every record is sealed again under it.
    package func remove(device prefix: String) async throws -> SyncReport {
        guard let keys = currentKeys else { throw SyncError.awaitingApproval }
        let members = try await verifiedMembers(keys)
        let matching = members.filter { Hex.string($0.device).hasPrefix(prefix.lowercased()) && $0.device != device }
        guard !prefix.isEmpty, matching.count == 1, let removed = matching.first else { throw SyncError.unknownDevice(prefix) }
        let circleEntry = try await etcd { try await client.range(key: layout.circle) }
        guard let circleKV = circleEntry.keyValues.first else { throw SyncError.noCircle(prefix: settings.prefix) }
        let next = CircleEntries.Grant(circleID: keys.circleID, epoch: keys.epoch + 1,
                                       circleKey: try SecureBytes.random(count: CircleKeys.keyByteCount),
                                       namingKey: try Self.secureEntry(.namingKey, vault))
        let nextKeys = try CircleKeys(circleID: next.circleID, epoch: next.epoch, circleKey: next.circleKey, namingKey: next.namingKey)
        var operations: [EtcdOperation] = [
            .put(key: layout.circle, value: CircleEntries.circle(nextKeys)),
            .delete(key: layout.member(removed.device)),
        ]
        for member in members where member.device != removed.device {
            let sealed = try CircleEntries.sealGrant(next, to: member.publicKey)
            let mac = keys.mac(CircleEntries.grantMessage(epoch: next.epoch, device: member.device, sealed: sealed))
            operations.append(.put(key: layout.grant(epoch: next.epoch, device: member.device), value: sealed + mac))
            operations.append(.put(key: layout.member(member.device),
                                   value: CircleEntries.member(device: member.device, publicKey: member.publicKey, keys: nextKeys)))
        }
        let result = try await etcd {
            try await client.txn(compare: [.unchanged(layout.circle, modRevision: circleKV.modRevision)], success: operations)
        }
        guard result.succeeded else { throw SyncError.raced }
        try adopt(next, startRevision: result.revision)
        return try await resealAll()
    }

    /// Seals every record this device knows again under the current epoch (after a rotation).
    private func resealAll() async throws -> SyncReport {
        var report = try await pull()
        try store.syncWrite { session in
            for record in try session.records() { try session.requeue(record) }
        }
        report.add(try await push())
        return report
    }

    /// The members whose entries authenticate under `keys`.
    func verifiedMembers(_ keys: CircleKeys) async throws -> [(device: [UInt8], publicKey: [UInt8])] {
        let entries = try await etcd { try await client.range(prefix: layout.members) }
        return entries.keyValues.compactMap { kv in
            guard case .member(let member) = layout.kind(of: kv.key),
                  let publicKey = CircleEntries.parseMember(kv.value, device: member, keys: keys) else { return nil }
            return (member, publicKey)
        }
    }

    private func grant(for keys: CircleKeys) throws -> CircleEntries.Grant {
        CircleEntries.Grant(circleID: keys.circleID, epoch: keys.epoch,
                            circleKey: try keys.withCircleKey { try SecureBytes(copying: $0) },
                            namingKey: try Self.secureEntry(.namingKey, vault))
    }

    // MARK: Receiving keys

    /// Takes the keys of a grant addressed to this device: for a device waiting to join,
    /// authenticated by its code's key; for a member, by the current epoch's circle key and
    /// only if etcd never rewrote the grant.
    func adoptGrant(_ kv: EtcdKeyValue, epoch: UInt32) throws {
        guard keys[epoch] == nil, kv.value.count > 32 else { return }
        let sealed = Array(kv.value.dropLast(32)), mac = Array(kv.value.suffix(32))
        let message = CircleEntries.grantMessage(epoch: epoch, device: device, sealed: sealed)
        let authentic: Bool
        if settings.awaitingApproval {
            authentic = try vault.read(.joinKey).map { data in
                try data.withUnsafeBytes { SealedBox.constantTimeEqual(try CircleEntries.codeMAC(try SecureBytes(copying: $0), message), mac) }
            } ?? false
        } else {
            authentic = kv.createRevision == kv.modRevision && (currentKeys?.verify(mac: mac, of: message) ?? false)
                && epoch == (settings.currentEpoch ?? 0) + 1
        }
        guard authentic, let grant = try CircleEntries.openGrant(sealed, with: deviceKeys), grant.epoch == epoch,
              Hex.string(grant.circleID) == settings.circleID else {
            logger?.warning("sync: refused a grant for epoch \(epoch): it does not authenticate")
            return
        }
        try adopt(grant, startRevision: kv.createRevision)
    }

    /// Keeps an epoch's keys in the store and starts using them.
    private func adopt(_ grant: CircleEntries.Grant, startRevision: Int64) throws {
        let joining = settings.awaitingApproval
        if joining { try grant.namingKey.withUnsafeBytes { try vault.write(Data($0), as: .namingKey) } }
        try grant.circleKey.withUnsafeBytes { try vault.write(Data($0), as: .circleKey(epoch: grant.epoch)) }
        settings.epochs.append(SyncSettings.Epoch(epoch: grant.epoch, startRevision: startRevision))
        settings.awaitingApproval = false
        try saveSettings()
        keys = try Self.loadKeys(settings, vault)
        if joining {
            try vault.remove(.joinKey)
            try store.syncWrite { try $0.enable() }
        }
    }

    static func callEtcd<T>(_ call: () async throws -> T) async throws -> T {
        do {
            return try await call()
        } catch let error as EtcdError {
            throw SyncError.etcd(error.description)
        }
    }
}

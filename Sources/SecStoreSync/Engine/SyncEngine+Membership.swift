import Foundation
import Logging
import SecStore
import Etcd

/// Letting devices in and taking them out.
extension SyncEngine {
    /// At most this many join requests are checked against a code: each costs an Argon2id
    /// derivation (about 80 ms), and anyone who can write to etcd can add requests.
    package static let maximumWaitingJoins = 16

    /// Approves the waiting device whose code this is: hands it the circle's keys, sealed to
    /// its public key and authenticated with the code. More than ``maximumWaitingJoins``
    /// requests waiting is an error that says how to clear them, not minutes of derivations.
    package func approve(code typed: String) async throws -> String {
        guard let keys = currentKeys, let code = JoinCode(typed: typed) else {
            throw currentKeys == nil ? SyncError.awaitingApproval : SyncError.unknownCode(matches: 0)
        }
        let waiting = try await etcd { try await client.range(prefix: layout.joins) }
        guard waiting.keyValues.count <= Self.maximumWaitingJoins else {
            throw SyncError.tooManyJoinRequests(count: waiting.keyValues.count, prefix: settings.prefix)
        }
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
            // The approver must hold the current epoch: a grant of a retired one would leave the
            // new device unable to open anything.
            try await client.txn(compare: [.unchanged(match.kv.key, modRevision: match.kv.modRevision),
                                           EtcdCompare(key: layout.circle, target: .value(CircleEntries.circle(keys)), result: .equal)],
                                 success: [
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
    ///
    /// The device first applies everything etcd holds, and the rotation goes through only if
    /// no record changed since (else it tries again, at most three times): members refuse any
    /// record of the old epoch they have not applied (``accepts(epoch:)``), so the remover
    /// must hold every one of them to seal it again.
    package func remove(device prefix: String) async throws -> SyncReport {
        var report = SyncReport()
        for _ in 0..<3 {
            report.add(try await pull())
            if try await rotate(removing: prefix, appliedUpTo: report.revision) {
                report.add(try await resealIfPending())
                return report
            }
        }
        throw SyncError.raced
    }

    /// Starts the next epoch without the member whose id starts with `prefix`, provided no
    /// record changed after `applied` and the circle entry did not change. Returns false when
    /// a record changed (pull and try again).
    func rotate(removing prefix: String, appliedUpTo applied: Int64) async throws -> Bool {
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
            try await client.txn(compare: [.unchanged(layout.circle, modRevision: circleKV.modRevision),
                                           .unchanged(prefix: layout.records, since: applied)],
                                 success: operations, failure: [.range(key: layout.circle)])
        }
        guard result.succeeded else {
            if case .range(let circle)? = result.responses.first, circle.keyValues.first?.modRevision == circleKV.modRevision {
                return false   // a record changed: apply it first
            }
            throw SyncError.raced
        }
        try adopt(next, startRevision: result.revision, circleRevision: result.revision, resealing: true)
        return true
    }

    /// After this device began an epoch (``SyncSettings/resealPending``): queues every record
    /// it knows to be sealed again under it, then pushes. A remover stopped in between
    /// resumes here at its next pass; queueing twice is harmless.
    func resealIfPending() async throws -> SyncReport {
        guard settings.resealPending == true else { return SyncReport() }
        try store.syncWrite { session in
            for record in try session.records() { try session.requeue(record) }
        }
        settings.resealPending = nil
        try saveSettings()
        return try await push()
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
}

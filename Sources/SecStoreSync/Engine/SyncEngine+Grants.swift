import Foundation
import Logging
import SecStore
import Etcd

/// Receiving a circle epoch's keys.
extension SyncEngine {
    /// Takes the keys of a grant addressed to this device: for a device waiting to join,
    /// authenticated by its code's key; for a member, by the current epoch's circle key. Either
    /// only if etcd never rewrote the grant. A grant refused is counted in `report`.
    func adoptGrant(_ kv: EtcdKeyValue, epoch: UInt32, report: inout SyncReport) throws {
        guard keys[epoch] == nil else { return }
        guard kv.value.count > 32 else { return report.refuse(kv.key, .malformed) }
        let sealed = Array(kv.value.dropLast(32)), mac = Array(kv.value.suffix(32))
        let message = CircleEntries.grantMessage(epoch: epoch, device: device, sealed: sealed)
        var authentic = kv.createRevision == kv.modRevision
        if settings.awaitingApproval {
            if var data = try vault.read(.joinKey) {
                defer { Wipe.data(&data) }
                let key = try data.withUnsafeBytes { try SecureBytes(copying: $0) }
                let expected = try CircleEntries.codeMAC(key, message)
                authentic = authentic && ConstantTime.equals(expected, mac)
            } else {
                authentic = false
            }
        } else {
            authentic = authentic && (currentKeys?.verify(mac: mac, of: message) ?? false) && epoch == (settings.currentEpoch ?? 0) + 1
        }
        guard authentic, let grant = try CircleEntries.openGrant(sealed, with: deviceKeys), grant.epoch == epoch,
              Hex.string(grant.circleID) == settings.circleID else {
            return report.refuse(kv.key, .unauthentic)
        }
        // A rotation writes its grants and the circle entry in one transaction; a join's
        // grant comes after the circle entry, which the first pull then records.
        try adopt(grant, startRevision: kv.createRevision, circleRevision: settings.awaitingApproval ? nil : kv.createRevision)
    }

    /// Keeps an epoch's keys in the store and starts using them; `resealing` when this device
    /// began the epoch and must seal every record again under it.
    func adopt(_ grant: CircleEntries.Grant, startRevision: Int64, circleRevision: Int64?, resealing: Bool = false) throws {
        let joining = settings.awaitingApproval
        if joining { try vault.write(grant.namingKey, as: .namingKey) }
        try vault.write(grant.circleKey, as: .circleKey(epoch: grant.epoch))
        settings.epochs.append(SyncSettings.Epoch(epoch: grant.epoch, startRevision: startRevision, circleRevision: circleRevision))
        settings.awaitingApproval = false
        if resealing { settings.resealPending = true }
        try saveSettings()
        keys = try Self.loadKeys(settings, vault)
        if joining {
            try vault.remove(.joinKey)
            try store.syncWrite { try $0.enable() }
        }
    }
}

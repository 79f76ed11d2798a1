import Foundation
import Logging
import SecStore
import Etcd

/// Receiving a circle epoch's keys.
extension SyncEngine {
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
                try data.withUnsafeBytes { ConstantTime.equals(try CircleEntries.codeMAC(try SecureBytes(copying: $0), message), mac) }
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
    func adopt(_ grant: CircleEntries.Grant, startRevision: Int64) throws {
        let joining = settings.awaitingApproval
        if joining { try vault.write(grant.namingKey, as: .namingKey) }
        try vault.write(grant.circleKey, as: .circleKey(epoch: grant.epoch))
        settings.epochs.append(SyncSettings.Epoch(epoch: grant.epoch, startRevision: startRevision))
        settings.awaitingApproval = false
        try saveSettings()
        keys = try Self.loadKeys(settings, vault)
        if joining {
            try vault.remove(.joinKey)
            try store.syncWrite { try $0.enable() }
        }
    }
}

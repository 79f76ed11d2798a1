import Foundation
import SecStore
import Etcd

/// Whether the circle entry a pull finds is the one this device's epoch began with
/// (docs/sync.md, "Remove"): a device never applies or pushes once the circle has moved on
/// without it, or was moved back by someone holding an old key.
extension SyncEngine {
    /// Checks the circle entry (`P/circle`) found among changed keys, after this device took
    /// the grants addressed to it. Throws, before any record is applied, when it names an epoch
    /// this device holds no key for (``SyncError/rotatedOut(epoch:)``), an older epoch or the
    /// current one rewritten since it began (``SyncError/circleRolledBack(found:held:)``), or
    /// does not authenticate (``SyncError/circleDamaged(_:)``).
    func checkCircle(_ kv: EtcdKeyValue) throws {
        guard let held = settings.currentEpoch else { return }
        guard let parsed = CircleEntries.parseCircle(kv.value), Hex.string(parsed.circleID) == settings.circleID else {
            throw SyncError.circleDamaged("the circle entry names another circle, or is not one")
        }
        if parsed.epoch > held { throw SyncError.rotatedOut(epoch: parsed.epoch) }
        if parsed.epoch < held { throw SyncError.circleRolledBack(found: parsed.epoch, held: held) }
        guard let keys = currentKeys, kv.value == CircleEntries.circle(keys) else {
            throw SyncError.circleDamaged("the circle entry for key epoch \(held)")
        }
        guard let index = settings.epochs.firstIndex(where: { $0.epoch == held }) else { return }
        if let began = settings.epochs[index].circleRevision {
            // Only `sync init` and `sync remove` write the circle entry, each with a new epoch.
            guard began == kv.modRevision else { throw SyncError.circleRolledBack(found: held, held: held) }
        } else {
            // First seen (a device that joined, or kept its settings from before this check).
            settings.epochs[index].circleRevision = kv.modRevision
            try saveSettings()
        }
    }
}

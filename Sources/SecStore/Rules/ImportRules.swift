import Foundation

/// What an import (an encrypted backup, ``SecretStore/importBackup(from:passphrase:conflictPolicy:progress:)``,
/// or the `secstore` tool's plaintext `import --format env|json|csv`) may write, whoever
/// made the file it reads: both apply these rules, through this one file.
///
/// - No item of the reserved group ``syncGroup``: sync keeps its own entries there (its
///   settings, etcd password, device key and circle keys; docs/sync.md), and an entry planted
///   by a file would steer sync (another etcd, a key the file's author knows). A plaintext
///   import is refused whole, naming the item (``checkImportable(_:itemClass:origin:outcome:)``:
///   its file can be edited); an encrypted backup's such items are left out and counted
///   (``ImportSummary/skippedReserved``), since a backup cannot be edited and refusing it whole
///   would make every other item in it unrestorable.
/// - A stored `…ThisDeviceOnly` item is never replaced: accessibility is not part of the
///   primary key, so a file's item can share one with it, and no backup or export holds its
///   secret (they never leave the machine), so replacing it would destroy the one copy. It is
///   kept, and counted apart (``ImportSummary/keptThisDeviceOnly``).
///
/// ```swift
/// try ImportRules.checkImportable(item.attributes, itemClass: item.itemClass, origin: "items.json item 2")
/// if ImportRules.keepsStored(existing.accessibility) { … }
/// ```
package enum ImportRules {
    /// The access group of sync's own entries (`SecStoreSync`'s `SyncVault`).
    package static let syncGroup = "secstore.sync"

    /// Whether `group` is ``syncGroup``: bytes compared, as group names always are.
    package static func isReserved(_ group: String?) -> Bool {
        group.map { UTF8Bytes.equal($0, syncGroup) } ?? false
    }

    /// Refuses an item of the reserved group with `invalidParameter`, naming it by `origin`
    /// (where the file holds it) and its class.
    package static func checkImportable(_ attributes: Attributes, itemClass: ItemClass, origin: String) throws {
        guard isReserved(attributes.accessGroup) else { return }
        throw SecStoreError.invalid("\(origin) is a \(itemClass.rawValue) item of the access group \(syncGroup), which is reserved for sync's own keys and settings: no import writes there. Remove that item from the file; sync makes its own entries (`secstore sync init` or `join`).")
    }

    /// Whether a stored item of `accessibility` stays when an imported item has its primary
    /// key, whatever the conflict policy says: `…ThisDeviceOnly` items do.
    package static func keepsStored(_ accessibility: Accessibility?) -> Bool {
        accessibility?.isThisDeviceOnly ?? false
    }
}

import Foundation
import SecStore

/// The items a plaintext export writes: those the item options match, with their secrets,
/// without `…ThisDeviceOnly` items (they never leave the machine, as in the encrypted
/// backup), items whose access control can never be satisfied here, and damaged items
/// (reported apart).
struct PlaintextSelection {
    var items: [Item] = []
    var damaged: [PersistentReference] = []
    /// Malformed rows among the matches that could not be named (``ItemSearch/DamageReport``).
    var malformedRows = 0
    var unreadable: [PersistentReference] = []
    var skippedThisDeviceOnly = 0

    static func read(_ options: ItemOptions, classes: [ItemClass], from store: SecretStore) throws -> PlaintextSelection {
        var selection = PlaintextSelection()
        let found = try ItemSearch.findReportingDamage(options, in: store, classes: classes,
                                                       returning: [.attributes, .persistentReference])
        selection.damaged = found.damaged
        selection.malformedRows = found.malformedRows
        for var item in found.items {
            guard let reference = item.persistentReference else { continue }
            if item.attributes.accessibility?.isThisDeviceOnly == true {
                selection.skippedThisDeviceOnly += 1
                continue
            }
            do {
                item.data = try store.items(matching: Query(persistentReference: reference, returning: .data))[0].data ?? Data()
            } catch let error as SecStoreError where error.code == .corruptData {
                selection.damaged.append(reference)
                continue
            } catch let error as SecStoreError where error.code == .authenticationFailed && item.attributes.accessControlFlags != nil {
                selection.unreadable.append(reference)
                continue
            }
            selection.items.append(item)
        }
        return selection
    }

    /// How many matching items were left out as damaged.
    var leftOutDamaged: Int { damaged.count + malformedRows }
}

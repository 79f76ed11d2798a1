import Foundation
import SecStore

/// Collection labels (the Collection's read-write `Label`). A collection is an access group,
/// which has no label of its own in the store, so a label is kept as one generic password of the
/// group: service ``service``, account `label`, the label in `label`. Searches for Secret Service
/// items name another service, so it is never an item. Stored `always` (`dk`): a label is no
/// secret, and a locked store must still show its collections' names.
struct CollectionLabels {
    static let service = "org.freedesktop.secrets.collection"
    let store: SecretStore

    /// The label set for `group`, or `nil`.
    func label(of group: String) -> String? {
        let query = Query(service: Self.service, account: "label", accessGroup: group, returning: .attributes)
        return (try? store.items(matching: query))?.first?.attributes.label
    }

    /// Sets the label of `group`.
    func setLabel(_ label: String, of group: String) throws {
        let query = Query(service: Self.service, account: "label", accessGroup: group, returning: [])
        do {
            _ = try store.update(matching: query, with: ItemChanges(attributes: [.label: .string(label)]))
        } catch let error as SecStoreError where error.code == .itemNotFound {
            try store.add(.genericPassword(service: Self.service, account: "label", data: Data(), accessGroup: group,
                                           accessibility: .always, label: label))
        }
    }
}

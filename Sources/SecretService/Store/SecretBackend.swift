import Foundation
import SecStore

/// The Secret Service's operations on the store, in its terms (collections are access groups,
/// items are ids): the one place that builds SecStore queries. Every failure becomes a
/// ``BusError`` whose message names no secret and no attribute value.
struct SecretBackend {
    let store: SecretStore
    /// Whether `CreateItem` adds synchronizable items (`--synchronizable`, ``SyncSetting``).
    /// Replacing an item keeps its kind either way.
    var createsSynchronizable = false

    /// Whether the passphrase-protected classes are locked (nothing to unlock when the store
    /// has no passphrase).
    var isLocked: Bool { (try? store.lockState) == .locked }

    /// The label of a collection: the one set over the bus, else `Default` for the default
    /// collection and the group's name for the others.
    func collectionLabel(group: String, defaultGroup: String) -> String {
        CollectionLabels(store: store).label(of: group) ?? (VisibleGroups.same(group, defaultGroup) ? "Default" : group)
    }

    /// Whether a label was ever set for `group` (by `Label` or by CreateCollection).
    func hasCollectionLabel(group: String) -> Bool {
        CollectionLabels(store: store).label(of: group) != nil
    }

    func setCollectionLabel(_ label: String, group: String) throws(BusError) {
        try run { try CollectionLabels(store: store).setLabel(label, of: group) }
    }

    /// The items of `group` that have every pair of `attributes`.
    func search(group: String, attributes: [String: String]) throws(BusError) -> [ServiceItem] {
        try items(ItemMapping.query(group: group, id: nil, custom: attributes, returning: .attributes))
    }

    /// One item, with its secret when `withSecret`; `nil` when there is none.
    func item(group: String, id: String, withSecret: Bool = false) throws(BusError) -> ServiceItem? {
        guard ItemMapping.isValidID(id) else { return nil }
        return try items(ItemMapping.query(group: group, id: id, returning: withSecret ? [.attributes, .data] : .attributes)).first
    }

    /// Stores an item; with `replace`, an item of the collection with exactly the same
    /// attributes gets the new label and secret instead (the spec's replace). Returns its id
    /// and whether it was created.
    func create(group: String, label: String, attributes: [String: String], secret: Data, contentType: String,
                replace: Bool) throws(BusError) -> (id: String, created: Bool) {
        if replace, let existing = try search(group: group, attributes: attributes).first(where: { $0.attributes == attributes }) {
            var changes = ItemChanges(attributes: [.label: .string(label), .itemDescription: .string(contentType)], data: secret)
            changes.customAttributes = attributes
            try update(group: group, id: existing.id, changes)
            return (existing.id, false)
        }
        let id = ItemMapping.newID()
        var item = Item.genericPassword(service: ItemMapping.service, account: id, data: secret, accessGroup: group, label: label)
        item.attributes.itemDescription = contentType
        item.attributes.custom = attributes
        // whenUnlocked (the default, set by the store) is no `…ThisDeviceOnly` class, so a
        // synchronizable item does leave the device.
        if createsSynchronizable { item.attributes.isSynchronizable = true }
        try run { _ = try store.add(item) }
        return (id, true)
    }

    /// Changes one item; `NoSuchObject` when it is gone.
    func update(group: String, id: String, _ changes: ItemChanges) throws(BusError) {
        guard ItemMapping.isValidID(id) else { throw .noSuchObject("No such item.") }
        let count = try run { try store.update(matching: ItemMapping.query(group: group, id: id, returning: []), with: changes) }
        if count == 0 { throw .noSuchObject("No such item.") }
    }

    /// Deletes one item; `NoSuchObject` when it is gone.
    func delete(group: String, id: String) throws(BusError) {
        guard ItemMapping.isValidID(id) else { throw .noSuchObject("No such item.") }
        let count = try run { try store.delete(matching: ItemMapping.query(group: group, id: id, returning: [])) }
        if count == 0 { throw .noSuchObject("No such item.") }
    }

    private func items(_ query: Query) throws(BusError) -> [ServiceItem] {
        do {
            // An item in the provider's service whose account is not an id the provider made
            // (written by another program) cannot be an object path: left out, so that it does
            // not fail every search of its collection.
            // A synchronizable item from another device was made by a provider there, so its
            // account is such an id too and it gets a path like a local one.
            let found = try run { try store.items(matching: query) }.map(ServiceItem.init).filter { ItemMapping.isValidID($0.id) }
            return ItemMapping.oneByID(found)
        } catch where error.name == BusError.noSuchObject("").name {
            return []   // SecStore's itemNotFound: an empty search
        }
    }

    /// Runs a store call, translating its errors; "not found" is an empty answer, not an error.
    private func run<T>(_ body: () throws -> T) throws(BusError) -> T {
        do {
            return try body()
        } catch let error as SecStoreError {
            throw Self.translate(error)
        } catch {
            throw .failed("The store failed.")
        }
    }

    private static func translate(_ error: SecStoreError) -> BusError {
        switch error.code {
        case .interactionNotAllowed, .authenticationFailed: .isLocked("The store is locked: unlock it with `secstore unlock` or start the provider with --passphrase-file.")
        case .itemNotFound: .noSuchObject("No such item.")
        case .duplicateItem: .failed("An item with this id already exists.")
        case .invalidParameter, .dataTooLarge, .noSuchAttribute: .invalidArgs("The store refused the item: \(error.code).")
        default: .failed("The store failed: \(error.code).")
        }
    }
}

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
    func create(group: String, label: String, attributes: [String: String], secret: [UInt8], contentType: String,
                replace: Bool) throws(BusError) -> (id: String, created: Bool) {
        try Self.withStoreData(secret) { (data) throws(BusError) in
            if replace, let existing = try search(group: group, attributes: attributes).first(where: { $0.attributes == attributes }) {
                var changes = ItemChanges(attributes: [.label: .string(label), .itemDescription: .string(contentType)], data: data)
                changes.customAttributes = attributes
                try update(group: group, id: existing.id, changes)
                return (existing.id, false)
            }
            let id = ItemMapping.newID()
            var item = Item.genericPassword(service: ItemMapping.service, account: id, data: data, accessGroup: group, label: label)
            item.attributes.itemDescription = contentType
            item.attributes.custom = attributes
            // whenUnlocked (the default, set by the store) is no `…ThisDeviceOnly` class, so a
            // synchronizable item does leave the device.
            if createsSynchronizable { item.attributes.isSynchronizable = true }
            try run { _ = try store.add(item) }
            return (id, true)
        }
    }

    /// Replaces one item's secret and content type (`SetSecret`); `NoSuchObject` when it is gone.
    func setSecret(_ secret: [UInt8], contentType: String, group: String, id: String) throws(BusError) {
        try Self.withStoreData(secret) { (data) throws(BusError) in
            try update(group: group, id: id, ItemChanges(attributes: [.itemDescription: .string(contentType)], data: data))
        }
    }

    /// Runs `body` with `secret` copied into the `Data` the store takes, and zeroes that copy
    /// once `body` has returned (the items and changes it built with it are gone by then, so
    /// the copy is zeroed in place). `secret` itself is the call's argument, zeroed by the bus
    /// layer (``SecretValue``).
    private static func withStoreData<T>(_ secret: [UInt8], _ body: (Data) throws(BusError) -> T) throws(BusError) -> T {
        var data = Data(secret)
        defer { Wipe.data(&data) }
        return try body(data)
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
            var found = try run { try store.items(matching: query) }
            // The store's copies of the secrets (when asked for) are this function's: each kept
            // item's is copied into its ServiceItem, and all are zeroed before they are freed
            // (in place: `found` is their only holder once the ServiceItems are made).
            defer { found.wipeSecrets() }
            let described = found.map(ServiceItem.init)
            // An item in the provider's service whose account is not an id the provider made
            // (written by another program) cannot be an object path: left out, so that it does
            // not fail every search of its collection.
            // A synchronizable item from another device was made by a provider there, so its
            // account is such an id too and it gets a path like a local one.
            let valid = described.indices.filter { ItemMapping.isValidID(described[$0].id) }
            return ItemMapping.oneByID(valid.map { described[$0] }).map { kept in
                var item = described[valid[kept]]
                item.secret = found[valid[kept]].data.map(Self.copy)
                return item
            }
        } catch where error.name == BusError.noSuchObject("").name {
            return []   // SecStore's itemNotFound: an empty search
        }
    }

    /// A secret's bytes in a new array of their own (never one shared with `data`).
    private static func copy(_ data: Data) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: data.count) { buffer, count in
            count = data.copyBytes(to: buffer)
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

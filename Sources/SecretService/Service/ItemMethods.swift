import Foundation
import SecStore

/// `org.freedesktop.Secret.Item`.
extension SecretServiceProvider {
    func itemMethod(_ name: String, _ context: Context) throws(BusError) -> [BusValue] {
        guard case .item(let group, let id) = context.object else { throw .unknownObject("Not an item.") }
        let path = context.call.path
        switch name {
        case "Delete":
            try onExistingItem(path) { () throws(BusError) in try backend.delete(group: group, id: id) }
            notify("ItemDeleted", item: path, group: group)
            return [.objectPath(ObjectPaths.none)]
        case "GetSecret":
            guard case .objectPath(let session) = context.arguments[0] else { throw .invalidArgs("The session is an object path.") }
            try sessions.check(session, for: context.call.sender)
            let item = try existingItem(group: group, id: id, path: path, withSecret: true)
            return [SecretValue(session: session, value: item.secret ?? [], contentType: item.contentType).busValue]
        case "SetSecret":
            let secret = try SecretValue(context.arguments[0])
            try sessions.check(secret.session, for: context.call.sender)
            try onExistingItem(path) { () throws(BusError) in
                try backend.setSecret(secret.value, contentType: secret.contentType, group: group, id: id)
            }
            notify("ItemChanged", item: path, group: group)
            return []
        default:
            throw .unknownMethod("No method \(name).")
        }
    }

    /// An item's property.
    func itemProperty(_ name: String, group: String, id: String, path: String) throws(BusError) -> BusValue {
        if name == "Locked" {
            // While the store is locked an item cannot be looked up (its lookup fails with
            // IsLocked), so every item path answers true, as handle() leaves a locked store's
            // answers; unlocked, a missing item is UnknownObject, as for every other property.
            if backend.isLocked { return .boolean(true) }
            _ = try existingItem(group: group, id: id, path: path)
            return .boolean(false)
        }
        return try itemProperty(name, of: existingItem(group: group, id: id, path: path))
    }

    /// Every property of an item, read from the store once (GetAll).
    func itemProperties(group: String, id: String, path: String) throws(BusError) -> [String: BusValue] {
        let item = try existingItem(group: group, id: id, path: path)
        var values = ["Locked": BusValue.boolean(backend.isLocked)]
        for property in Interfaces.item.properties where property.name != "Locked" {
            values[property.name] = try itemProperty(property.name, of: item)
        }
        return values
    }

    private func itemProperty(_ name: String, of item: ServiceItem) throws(BusError) -> BusValue {
        switch name {
        case "Attributes": .stringDictionary(item.attributes)
        case "Label": .string(item.label)
        case "Created": Self.seconds(item.created)
        case "Modified": Self.seconds(item.modified)
        default: throw .unknownProperty("No property \(name).")
        }
    }

    /// Sets `Label` or `Attributes`.
    func setItemProperty(_ name: String, _ value: BusValue, group: String, id: String, path: String) throws(BusError) {
        var changes = ItemChanges()
        switch (name, value) {
        case ("Label", .string(let label)): changes.attributes.label = label
        case ("Attributes", let value): changes.customAttributes = try value.stringDictionary("Attributes")
        case ("Label", _): throw .invalidArgs("\(name) has the wrong type.")
        default: throw .propertyReadOnly("\(name) cannot be set.")
        }
        try onExistingItem(path) { () throws(BusError) in try backend.update(group: group, id: id, changes) }
        notify("ItemChanged", item: path, group: group)
    }

    /// Runs a write to the item at `path`; the write finds the item itself (one lookup, not a
    /// read before it), and its "no such item" is the `UnknownObject` a missing item answers
    /// with everywhere else.
    private func onExistingItem(_ path: String, _ write: () throws(BusError) -> Void) throws(BusError) {
        do throws(BusError) {
            try write()
        } catch where error.name == BusError.noSuchObject("").name {
            throw .unknownObject("No object at \(path).")
        }
    }
}

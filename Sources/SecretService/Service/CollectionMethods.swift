import Foundation

/// `org.freedesktop.Secret.Collection`.
extension SecretServiceProvider {
    static let labelProperty = "org.freedesktop.Secret.Item.Label"
    static let attributesProperty = "org.freedesktop.Secret.Item.Attributes"

    func collectionMethod(_ name: String, _ context: Context) throws(BusError) -> [BusValue] {
        guard case .collection(let group) = context.object else { throw .unknownObject("Not a collection.") }
        let arguments = context.arguments
        switch name {
        case "Delete":
            throw .notSupported("Collections are access groups: they are not deleted over the bus.")
        case "SearchItems":
            return [.objectPaths(try search(try arguments[0].stringDictionary("Attributes"), in: [group]))]
        case "CreateItem":
            let properties = try arguments[0].variantDictionary("Properties")
            let secret = try SecretValue(arguments[1])
            try sessions.check(secret.session, for: context.call.sender)
            let label: String
            switch properties[Self.labelProperty] {
            case nil: label = ""
            case .string(let text)?: label = text
            default: throw .invalidArgs("\(Self.labelProperty) is a string.")
            }
            let attributes = try properties[Self.attributesProperty]?.stringDictionary(Self.attributesProperty) ?? [:]
            let (id, created) = try backend.create(group: group, label: label, attributes: attributes, secret: secret.value,
                                                   contentType: secret.contentType, replace: arguments[2].bool ?? false)
            let itemPath = ObjectPaths.item(group: group, id: id)
            notify(created ? "ItemCreated" : "ItemChanged", item: itemPath, group: group)
            return [.objectPath(itemPath), .objectPath(ObjectPaths.none)]
        default:
            throw .unknownMethod("No method \(name).")
        }
    }

    /// A collection's property.
    func collectionProperty(_ name: String, group: String) throws(BusError) -> BusValue {
        switch name {
        case "Items": .objectPaths(try search([:], in: [group]))
        case "Label": .string(backend.collectionLabel(group: group, defaultGroup: access.defaultGroup))
        case "Locked": .boolean(backend.isLocked)
        // The store keeps no dates for access groups.
        case "Created", "Modified": .uint64(0)
        default: throw .unknownProperty("No property \(name).")
        }
    }
}

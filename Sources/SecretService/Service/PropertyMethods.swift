/// `org.freedesktop.DBus.Properties` for every object, from ``Interfaces``' property table.
extension SecretServiceProvider {
    func propertiesMethod(_ name: String, _ context: Context) throws(BusError) -> [BusValue] {
        let interfaceName = context.arguments[0].text ?? ""
        let own = Interfaces.of(context.object)[0]
        // An empty interface name means "any", as the D-Bus specification allows for Get/GetAll.
        guard interfaceName.isEmpty || interfaceName == own.name else {
            if name == "GetAll" { return [.properties([:])] }
            throw .unknownProperty("No interface \(interfaceName) with properties here.")
        }
        switch name {
        case "Get":
            let property = context.arguments[1].text ?? ""
            guard own.property(property) != nil else { throw .unknownProperty("No property \(property).") }
            return [.variant(try value(of: property, context))]
        case "GetAll":
            if case .item(let group, let id) = context.object {
                return [.properties(try itemProperties(group: group, id: id, path: context.call.path))]
            }
            var values: [String: BusValue] = [:]
            for property in own.properties { values[property.name] = try value(of: property.name, context) }
            return [.properties(values)]
        case "Set":
            let property = context.arguments[1].text ?? ""
            guard let declared = own.property(property) else { throw .unknownProperty("No property \(property).") }
            guard declared.writable else { throw .propertyReadOnly("\(property) cannot be set.") }
            let value = context.arguments[2].unwrapped
            switch context.object {
            case .item(let group, let id):
                try setItemProperty(property, value, group: group, id: id, path: context.call.path)
            case .collection(let group):
                guard case .string(let label) = value else { throw .invalidArgs("Label is a string.") }
                try backend.setCollectionLabel(label, group: group)
                notifyCollection("CollectionChanged", group: group)
            default:
                throw .propertyReadOnly("\(property) cannot be set.")
            }
            return []
        default:
            throw .unknownMethod("No method \(name).")
        }
    }

    private func value(of property: String, _ context: Context) throws(BusError) -> BusValue {
        switch context.object {
        case .service:
            return .objectPaths(context.groups.names.map(ObjectPaths.collection))
        case .collection(let group):
            return try collectionProperty(property, group: group)
        case .item(let group, let id):
            return try itemProperty(property, group: group, id: id, path: context.call.path)
        case .session:
            throw .unknownProperty("Sessions have no properties.")
        }
    }
}

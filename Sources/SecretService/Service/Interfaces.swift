/// The interfaces the provider's objects implement, as data: each method's argument and reply
/// signatures (checked before a handler runs, so a wrong signature is `InvalidArgs`) and each
/// property's type and writability. Introspection is generated from the same table.
enum Interfaces {
    struct Method {
        var name: String
        /// Arguments, as (name, signature).
        var arguments: [(String, String)]
        var results: [(String, String)]
        var signature: String { arguments.map(\.1).joined() }
    }

    struct Property {
        var name: String
        var type: String
        var writable: Bool
    }

    struct Signal {
        var name: String
        var arguments: [(String, String)]
    }

    struct Interface {
        var name: String
        var methods: [Method]
        var properties: [Property] = []
        var signals: [Signal] = []

        func method(_ name: String) -> Method? { methods.first { $0.name == name } }
        func property(_ name: String) -> Property? { properties.first { $0.name == name } }
    }

    static let service = Interface(name: "org.freedesktop.Secret.Service", methods: [
        Method(name: "OpenSession", arguments: [("algorithm", "s"), ("input", "v")], results: [("output", "v"), ("result", "o")]),
        Method(name: "CreateCollection", arguments: [("properties", "a{sv}"), ("alias", "s")], results: [("collection", "o"), ("prompt", "o")]),
        Method(name: "SearchItems", arguments: [("attributes", "a{ss}")], results: [("unlocked", "ao"), ("locked", "ao")]),
        Method(name: "Unlock", arguments: [("objects", "ao")], results: [("unlocked", "ao"), ("prompt", "o")]),
        Method(name: "Lock", arguments: [("objects", "ao")], results: [("locked", "ao"), ("Prompt", "o")]),
        Method(name: "GetSecrets", arguments: [("items", "ao"), ("session", "o")], results: [("secrets", "a{o(oayays)}")]),
        Method(name: "ReadAlias", arguments: [("name", "s")], results: [("collection", "o")]),
        Method(name: "SetAlias", arguments: [("name", "s"), ("collection", "o")], results: []),
    ], properties: [Property(name: "Collections", type: "ao", writable: false)], signals: [
        Signal(name: "CollectionCreated", arguments: [("collection", "o")]),
        Signal(name: "CollectionDeleted", arguments: [("collection", "o")]),
        Signal(name: "CollectionChanged", arguments: [("collection", "o")]),
    ])

    static let collection = Interface(name: "org.freedesktop.Secret.Collection", methods: [
        Method(name: "Delete", arguments: [], results: [("prompt", "o")]),
        Method(name: "SearchItems", arguments: [("attributes", "a{ss}")], results: [("results", "ao")]),
        Method(name: "CreateItem", arguments: [("properties", "a{sv}"), ("secret", "(oayays)"), ("replace", "b")],
               results: [("item", "o"), ("prompt", "o")]),
    ], properties: [
        Property(name: "Items", type: "ao", writable: false),
        Property(name: "Label", type: "s", writable: true),
        Property(name: "Locked", type: "b", writable: false),
        Property(name: "Created", type: "t", writable: false),
        Property(name: "Modified", type: "t", writable: false),
    ], signals: [
        Signal(name: "ItemCreated", arguments: [("item", "o")]),
        Signal(name: "ItemDeleted", arguments: [("item", "o")]),
        Signal(name: "ItemChanged", arguments: [("item", "o")]),
    ])

    static let item = Interface(name: "org.freedesktop.Secret.Item", methods: [
        Method(name: "Delete", arguments: [], results: [("Prompt", "o")]),
        Method(name: "GetSecret", arguments: [("session", "o")], results: [("secret", "(oayays)")]),
        Method(name: "SetSecret", arguments: [("secret", "(oayays)")], results: []),
    ], properties: [
        Property(name: "Locked", type: "b", writable: false),
        Property(name: "Attributes", type: "a{ss}", writable: true),
        Property(name: "Label", type: "s", writable: true),
        Property(name: "Created", type: "t", writable: false),
        Property(name: "Modified", type: "t", writable: false),
    ])

    static let session = Interface(name: "org.freedesktop.Secret.Session", methods: [
        Method(name: "Close", arguments: [], results: []),
    ])

    static let properties = Interface(name: "org.freedesktop.DBus.Properties", methods: [
        Method(name: "Get", arguments: [("interface_name", "s"), ("property_name", "s")], results: [("value", "v")]),
        Method(name: "GetAll", arguments: [("interface_name", "s")], results: [("props", "a{sv}")]),
        Method(name: "Set", arguments: [("interface_name", "s"), ("property_name", "s"), ("value", "v")], results: []),
    ], signals: [Signal(name: "PropertiesChanged", arguments: [("interface_name", "s"), ("changed_properties", "a{sv}"), ("invalidated_properties", "as")])])

    static let introspectable = Interface(name: "org.freedesktop.DBus.Introspectable", methods: [
        Method(name: "Introspect", arguments: [], results: [("xml_data", "s")]),
    ])

    static let peer = Interface(name: "org.freedesktop.DBus.Peer", methods: [
        Method(name: "Ping", arguments: [], results: []),
        Method(name: "GetMachineId", arguments: [], results: [("machine_uuid", "s")]),
    ])

    /// The interfaces of an object, its own first.
    static func of(_ object: ObjectPaths.Object) -> [Interface] {
        let own: Interface = switch object {
        case .service: service
        case .collection: collection
        case .item: item
        case .session: session
        }
        return [own, properties, introspectable, peer]
    }
}

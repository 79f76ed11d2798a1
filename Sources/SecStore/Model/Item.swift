import Foundation

/// A keychain item: its class, its attributes and its secret.
///
/// The same type describes an item to add and an item a query found; a found item carries
/// only the parts the query asked for (see ``Query/returning``).
///
/// ```swift
/// let item = Item.genericPassword(service: "api.example.com", account: "alice",
///                                 data: Data("s3cr3t".utf8))
/// try store.add(item)
/// ```
public struct Item: Sendable, Hashable, CustomStringConvertible {
    public var itemClass: ItemClass
    public var attributes: Attributes
    /// The secret (`kSecValueData`). `nil` when an item has none or a query did not ask for it.
    public var data: Data?
    /// Set on found items when the query asked for it (`kSecValuePersistentRef`).
    public internal(set) var persistentReference: PersistentReference?

    public init(itemClass: ItemClass, attributes: Attributes = [:], data: Data? = nil) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.data = data
        self.persistentReference = nil
    }

    /// A generic password named by `service` and `account`.
    public static func genericPassword(
        service: String, account: String, data: Data? = nil, accessGroup: String? = nil,
        accessibility: Accessibility? = nil, synchronizable: Bool? = nil, label: String? = nil
    ) -> Item {
        var attributes: Attributes = [.service: .string(service), .account: .string(account)]
        attributes.accessGroup = accessGroup
        attributes.accessibility = accessibility
        attributes.isSynchronizable = synchronizable
        attributes.label = label
        return Item(itemClass: .genericPassword, attributes: attributes, data: data)
    }

    /// An internet password named by `server`, `account` and the optional location fields.
    public static func internetPassword(
        server: String, account: String, data: Data? = nil, protocol: InternetProtocol? = nil,
        port: Int? = nil, path: String? = nil, authenticationType: AuthenticationType? = nil,
        securityDomain: String? = nil, accessGroup: String? = nil, accessibility: Accessibility? = nil
    ) -> Item {
        var attributes: Attributes = [.server: .string(server), .account: .string(account)]
        attributes.protocol = `protocol`
        attributes.port = port
        attributes.path = path
        attributes.authenticationType = authenticationType
        attributes.securityDomain = securityDomain
        attributes.accessGroup = accessGroup
        attributes.accessibility = accessibility
        return Item(itemClass: .internetPassword, attributes: attributes, data: data)
    }

    /// Shows the attributes and the size of the secret, never the secret.
    public var description: String {
        let secret = data.map { "<\($0.count) bytes, redacted>" } ?? "nil"
        return "Item(\(itemClass), \(attributes), data: \(secret))"
    }
}

/// What an update changes: attributes to overwrite, and optionally a new secret.
///
/// ```swift
/// try store.update(matching: Query(service: "api", account: "alice"),
///                  with: ItemChanges(data: Data("rotated".utf8)))
/// ```
public struct ItemChanges: Sendable, Hashable, CustomStringConvertible {
    public var attributes: Attributes
    public var data: Data?

    public init(attributes: Attributes = [:], data: Data? = nil) {
        self.attributes = attributes
        self.data = data
    }

    public var description: String {
        "ItemChanges(\(attributes), data: \(data.map { "<\($0.count) bytes, redacted>" } ?? "unchanged"))"
    }
}

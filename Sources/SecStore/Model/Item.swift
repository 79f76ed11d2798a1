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
    /// The item's class (`kSecClass`): which kind of secret it is, and so which attributes
    /// it may carry (``ItemClass/attributeKeys``).
    public var itemClass: ItemClass
    /// The item's attributes. On a found item, empty unless the query's ``Query/returning``
    /// includes ``ReturnOptions/attributes``; then they include the dates and defaults the
    /// store filled in.
    public var attributes: Attributes
    /// The secret (`kSecValueData`). On an item to add, `nil` stores an empty secret; on a
    /// found item, `nil` unless the query's ``Query/returning`` includes ``ReturnOptions/data``.
    public var data: Data?
    /// A handle to find the item again (`kSecValuePersistentRef`). `nil` on items you build;
    /// set on items returned by a query or an add whose `returning` includes
    /// ``ReturnOptions/persistentReference``.
    public internal(set) var persistentReference: PersistentReference?

    /// An item of any class from raw attributes; ``genericPassword(service:account:data:accessGroup:accessibility:synchronizable:label:)``
    /// and ``internetPassword(server:account:data:protocol:port:path:authenticationType:securityDomain:accessGroup:accessibility:)``
    /// are shorter for the common cases.
    ///
    /// ```swift
    /// let item = Item(itemClass: .genericPassword,
    ///                 attributes: [.service: "api.example.com", .account: "alice", .comment: "CI token"],
    ///                 data: Data("s3cr3t".utf8))
    /// ```
    public init(itemClass: ItemClass, attributes: Attributes = [:], data: Data? = nil) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.data = data
        self.persistentReference = nil
    }

    /// A generic password named by `service` and `account`. A `nil` argument leaves its
    /// attribute unset, so the store's default applies (the caller's default access group,
    /// ``Accessibility/whenUnlocked``, not synchronizable).
    ///
    /// ```swift
    /// try store.add(.genericPassword(service: "api.example.com", account: "alice",
    ///                                data: Data("s3cr3t".utf8), accessibility: .afterFirstUnlock))
    /// ```
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

    /// An internet password named by `server`, `account` and the optional location fields,
    /// which are all part of its primary key. A `nil` argument leaves its attribute unset.
    ///
    /// ```swift
    /// try store.add(.internetPassword(server: "mail.example.com", account: "alice",
    ///                                 data: Data("s3cr3t".utf8), protocol: .imaps, port: 993))
    /// ```
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
    /// Attributes to write over every matched item's; attributes not named keep their values.
    public var attributes: Attributes
    /// The new secret, or `nil` to keep each item's secret.
    public var data: Data?
    /// The new free-form attributes (``Attributes/custom``), replacing all of each item's;
    /// `nil` keeps them, `[:]` removes them.
    ///
    /// ```swift
    /// var changes = ItemChanges()
    /// changes.customAttributes = ["xdg:schema": "org.example.Mail", "user": "alice"]
    /// try store.update(matching: Query(service: "mail", account: "alice"), with: changes)
    /// ```
    public var customAttributes: [String: String]?

    /// Changes that overwrite `attributes` and, when `data` is not `nil`, the secret.
    ///
    /// ```swift
    /// let changes = ItemChanges(attributes: [.label: "Rotated token"], data: Data("new".utf8))
    /// ```
    public init(attributes: Attributes = [:], data: Data? = nil, customAttributes: [String: String]? = nil) {
        self.attributes = attributes
        self.data = data
        self.customAttributes = customAttributes
    }

    /// Shows the attributes and the size of the new secret, never the secret.
    public var description: String {
        "ItemChanges(\(attributes), data: \(data.map { "<\($0.count) bytes, redacted>" } ?? "unchanged")"
            + (customAttributes.map { ", custom: \(Attributes.describe($0))" } ?? "") + ")"
    }
}

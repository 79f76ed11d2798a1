import Foundation

/// The attributes of an item, or the equality filters of a query.
///
/// Raw access by key keeps Apple's model (any attribute, any supported value type); the
/// typed properties cover the common cases.
///
/// ```swift
/// var attributes: Attributes = [.service: "api.example.com", .account: "alice"]
/// attributes.label = "Example API"
/// attributes.accessibility = .afterFirstUnlock
/// print(attributes.account ?? "")   // "alice"
/// ```
public struct Attributes: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// The attributes that have a value, sorted by attribute code. Items carry at most a
    /// couple of dozen attributes and queries a handful, so a scan beats hashing here, and
    /// iteration comes out in code order for free.
    private var entries: [Entry]

    fileprivate struct Entry: Sendable, Hashable {
        var key: AttributeKey
        var value: AttributeValue
    }

    /// No attributes: an item with none yet, or a query that filters on nothing.
    public init() { entries = [] }

    /// No attributes yet, with room for `minimumCapacity` (a decoder that knows roughly how
    /// many it will add).
    init(minimumCapacity: Int) {
        entries = []
        entries.reserveCapacity(minimumCapacity)
    }

    /// The attributes of a dictionary, for attributes assembled at run time.
    ///
    /// ```swift
    /// var values: [AttributeKey: AttributeValue] = [.account: "alice"]
    /// if let port { values[.port] = .number(Int64(port)) }
    /// let attributes = Attributes(values)
    /// ```
    public init(_ values: [AttributeKey: AttributeValue]) {
        entries = values.map { Entry(key: $0.key, value: $0.value) }.sorted { $0.key.code < $1.key.code }
    }

    /// Attributes written as a literal, `[.service: "api.example.com", .account: "alice"]`.
    /// A key written twice keeps its last value.
    public init(dictionaryLiteral elements: (AttributeKey, AttributeValue)...) {
        self.init()
        for (key, value) in elements { self[key] = value }
    }

    /// The value of one attribute exactly as given (no conversion), or `nil` when it has none.
    /// Setting `nil` removes the attribute.
    ///
    /// ```swift
    /// attributes[.label] = "Production API token"
    /// attributes[.generic] = .data(Data([0x01, 0x02]))
    /// attributes[.comment] = nil                      // removes the comment
    /// ```
    public subscript(key: AttributeKey) -> AttributeValue? {
        get {
            for entry in entries where entry.key.code == key.code { return entry.value }
            return nil
        }
        set {
            let position = entries.firstIndex { $0.key.code >= key.code } ?? entries.endIndex
            let present = position < entries.endIndex && entries[position].key.code == key.code
            switch (newValue, present) {
            case (let value?, true): entries[position].value = value
            case (let value?, false) where position == entries.endIndex:
                // Keys often come in code order (a decoder, a dictionary's sorted keys):
                // `append` is cheaper than a generic `insert` at the end.
                entries.append(Entry(key: key, value: value))
            case (let value?, false): entries.insert(Entry(key: key, value: value), at: position)
            case (nil, true): entries.remove(at: position)
            case (nil, false): break
            }
        }
    }

    /// Free-form attributes: names and values an application chooses, such as the lookup
    /// attributes of a freedesktop Secret Service item (`xdg:schema`, `user`, `server`).
    /// They are sealed with the item's other attributes and found by exact name and value
    /// through a blind index (docs/design.md, "Free-form attributes"). In a query, an item
    /// matches when it has every pair given. ``keys``, ``count``, ``isEmpty`` and iteration
    /// cover Apple's attributes only.
    ///
    /// ```swift
    /// var item = Item.genericPassword(service: "mail", account: "alice", data: Data("pw".utf8))
    /// item.attributes.custom = ["xdg:schema": "org.example.Mail", "user": "alice"]
    /// try store.add(item)
    ///
    /// var query = Query(service: "mail", returning: .attributes)
    /// query.attributes.custom = ["user": "alice"]
    /// let found = try store.items(matching: query)
    /// ```
    public var custom: [String: String] = [:]

    /// Adds an attribute whose code is above every present one without searching (a decoder
    /// reading entries in code order); any other goes through the subscript.
    mutating func appendInCodeOrder(_ key: AttributeKey, _ value: AttributeValue) {
        if let last = entries.last, last.key.code >= key.code {
            self[key] = value
        } else {
            entries.append(Entry(key: key, value: value))
        }
    }

    /// The attributes that have a value, in code order.
    public var keys: [AttributeKey] { entries.map(\.key) }
    /// Whether no attribute has a value.
    public var isEmpty: Bool { entries.isEmpty }
    /// The number of attributes that have a value.
    public var count: Int { entries.count }

    /// The attributes that have a value, in code order.
    public func makeIterator() -> Iterator { Iterator(base: entries.makeIterator()) }

    /// Walks the attributes that have a value, in code order.
    public struct Iterator: IteratorProtocol {
        fileprivate var base: IndexingIterator<[Entry]>

        /// The next attribute and its value, or `nil` after the last.
        public mutating func next() -> (key: AttributeKey, value: AttributeValue)? {
            base.next().map { ($0.key, $0.value) }
        }
    }

    /// These attributes with `other`'s values written over them.
    ///
    /// ```swift
    /// let base: Attributes = [.service: "api", .label: "API token"]
    /// let merged = base.merging([.label: "Rotated token"])   // service "api", label "Rotated token"
    /// ```
    public func merging(_ other: Attributes) -> Attributes {
        var merged = self
        for (key, value) in other { merged[key] = value }
        return merged
    }

    /// The attributes in code order, as `[acct: "alice", svce: "api.example.com"]`;
    /// data values show only their size.
    public var description: String {
        let standard = map { "\($0.key.rawValue): \($0.value)" }
        return "[" + (standard + (custom.isEmpty ? [] : ["custom: \(Self.describe(custom))"])).joined(separator: ", ") + "]"
    }

    /// Free-form attributes as `[name: value, …]`, sorted by name.
    static func describe(_ custom: [String: String]) -> String {
        "[" + custom.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { "\($0.key): \($0.value)" }
            .joined(separator: ", ") + "]"
    }

    // MARK: Typed access

    /// `kSecAttrAccount` (`"acct"`): the account name, part of the primary key.
    /// Reads a string as is, data as UTF-8 text and a number in decimal (`nil` for a date or
    /// data that is not UTF-8); writes a string. Setting `nil` removes the attribute.
    public var account: String? {
        get { self[.account]?.stringValue }
        set { self[.account] = newValue.map(AttributeValue.string) }
    }
    /// `kSecAttrService` (`"svce"`, generic passwords): the service name, part of the primary key.
    /// Reads a string as is, data as UTF-8 text and a number in decimal (`nil` for a date or
    /// data that is not UTF-8); writes a string. Setting `nil` removes the attribute.
    public var service: String? {
        get { self[.service]?.stringValue }
        set { self[.service] = newValue.map(AttributeValue.string) }
    }
    /// `kSecAttrLabel` (`"labl"`): a user-visible name.
    /// Reads a string as is, data as UTF-8 text and a number in decimal (`nil` for a date or
    /// data that is not UTF-8); writes a string. Setting `nil` removes the attribute.
    public var label: String? {
        get { self[.label]?.stringValue }
        set { self[.label] = newValue.map(AttributeValue.string) }
    }
    /// `kSecAttrDescription` (`"desc"`): a user-visible kind, such as "application password".
    /// Reads a string as is, data as UTF-8 text and a number in decimal (`nil` for a date or
    /// data that is not UTF-8); writes a string. Setting `nil` removes the attribute.
    public var itemDescription: String? {
        get { self[.itemDescription]?.stringValue }
        set { self[.itemDescription] = newValue.map(AttributeValue.string) }
    }
    /// `kSecAttrComment` (`"icmt"`): a user-editable comment.
    /// Reads a string as is, data as UTF-8 text and a number in decimal (`nil` for a date or
    /// data that is not UTF-8); writes a string. Setting `nil` removes the attribute.
    public var comment: String? {
        get { self[.comment]?.stringValue }
        set { self[.comment] = newValue.map(AttributeValue.string) }
    }
    /// `kSecAttrGeneric` (`"gena"`, generic passwords): free-form application data.
    /// Reads data as is, a string as its UTF-8 bytes and a number as 8 little-endian bytes
    /// (`nil` for a date); writes data. Setting `nil` removes the attribute.
    public var generic: Data? {
        get { self[.generic]?.dataValue }
        set { self[.generic] = newValue.map(AttributeValue.data) }
    }
    /// `kSecAttrAccessGroup` (`"agrp"`): the keychain access group; on an item to add, `nil`
    /// means the caller's default group.
    /// Reads a string as is, data as UTF-8 text and a number in decimal (`nil` for a date or
    /// data that is not UTF-8); writes a string. Setting `nil` removes the attribute.
    public var accessGroup: String? {
        get { self[.accessGroup]?.stringValue }
        set { self[.accessGroup] = newValue.map(AttributeValue.string) }
    }
    /// `kSecAttrAccessible` (`"pdmn"`): when the secret can be read; on an item to add, `nil`
    /// means ``Accessibility/whenUnlocked``. Reads the text of the value as Apple's string
    /// (`"ak"`, `"cku"`, …), `nil` for anything else; writes that string. Setting `nil` removes it.
    public var accessibility: Accessibility? {
        get { self[.accessible]?.stringValue.flatMap(Accessibility.init(rawValue:)) }
        set { self[.accessible] = newValue.map { .string($0.rawValue) } }
    }
    /// `kSecAttrAccessControl`'s constraints (`"accc"`), such as
    /// ``AccessControlFlags/userPresence``; the item's ``accessibility`` is its protection.
    /// `nil` when the item has no access control. Setting `nil` removes it.
    ///
    /// ```swift
    /// attributes.accessControlFlags = [.userPresence]
    /// ```
    public var accessControlFlags: AccessControlFlags? {
        get {
            guard let value = self[.accessControl] else { return nil }
            // A value that is not flags fails closed: as if it asked for what Linux never has.
            return value.integerValue.flatMap { UInt(exactly: $0) }.map(AccessControlFlags.init(rawValue:)) ?? .applicationPassword
        }
        set { self[.accessControl] = newValue.map { .number(Int64(truncatingIfNeeded: $0.rawValue)) } }
    }
    /// `kSecAttrSynchronizable` (`"sync"`): whether the item is synchronizable (queries use
    /// ``Query/synchronizable`` instead). Reads the number 0 as `false` and any other number, or a string that reads as an integer,
    /// as `true` (`nil` for data, a date or other text); writes the number 0 or 1. Setting `nil`
    /// removes the attribute.
    public var isSynchronizable: Bool? {
        get { self[.synchronizable]?.boolValue }
        set { self[.synchronizable] = newValue.map(AttributeValue.bool) }
    }
    /// `kSecAttrIsInvisible` (`"invi"`): whether the item should be hidden from users.
    /// Reads the number 0 as `false` and any other number, or a string that reads as an integer,
    /// as `true` (`nil` for data, a date or other text); writes the number 0 or 1. Setting `nil`
    /// removes the attribute.
    public var isInvisible: Bool? {
        get { self[.isInvisible]?.boolValue }
        set { self[.isInvisible] = newValue.map(AttributeValue.bool) }
    }
    /// `kSecAttrIsNegative` (`"nega"`): whether the item records that there is no valid password.
    /// Reads the number 0 as `false` and any other number, or a string that reads as an integer,
    /// as `true` (`nil` for data, a date or other text); writes the number 0 or 1. Setting `nil`
    /// removes the attribute.
    public var isNegative: Bool? {
        get { self[.isNegative]?.boolValue }
        set { self[.isNegative] = newValue.map(AttributeValue.bool) }
    }
    /// `kSecAttrCreationDate` (`"cdat"`): when the item was added. Set by the store, so read-only
    /// here; `nil` unless the value is a date (found items carry it when their attributes are returned).
    public var creationDate: Date? { self[.creationDate]?.dateValue }
    /// `kSecAttrModificationDate` (`"mdat"`): when the item was added or last updated. Set by
    /// the store, so read-only here; `nil` unless the value is a date.
    public var modificationDate: Date? { self[.modificationDate]?.dateValue }
    /// `kSecAttrServer` (`"srvr"`, internet passwords): the server's host name or address.
    /// Reads a string as is, data as UTF-8 text and a number in decimal (`nil` for a date or
    /// data that is not UTF-8); writes a string. Setting `nil` removes the attribute.
    public var server: String? {
        get { self[.server]?.stringValue }
        set { self[.server] = newValue.map(AttributeValue.string) }
    }
    /// `kSecAttrSecurityDomain` (`"sdmn"`, internet passwords): the security domain (realm).
    /// Reads a string as is, data as UTF-8 text and a number in decimal (`nil` for a date or
    /// data that is not UTF-8); writes a string. Setting `nil` removes the attribute.
    public var securityDomain: String? {
        get { self[.securityDomain]?.stringValue }
        set { self[.securityDomain] = newValue.map(AttributeValue.string) }
    }
    /// `kSecAttrProtocol` (`"ptcl"`, internet passwords): the protocol's four-character code.
    /// Reads the text of the value (a string as is, UTF-8 data, a number in decimal) as an
    /// ``InternetProtocol`` without checking it is one of Apple's codes (`nil` for a date);
    /// writes the code as a string. Setting `nil` removes the attribute.
    public var `protocol`: InternetProtocol? {
        get { self[.protocol]?.stringValue.map(InternetProtocol.init(rawValue:)) }
        set { self[.protocol] = newValue.map { .string($0.rawValue) } }
    }
    /// `kSecAttrAuthenticationType` (`"atyp"`, internet passwords): the authentication scheme.
    /// Reads the text of the value as an ``AuthenticationType`` without checking it is one of
    /// Apple's codes (`nil` for a date); writes the code as a string. Setting `nil` removes it.
    public var authenticationType: AuthenticationType? {
        get { self[.authenticationType]?.stringValue.map(AuthenticationType.init(rawValue:)) }
        set { self[.authenticationType] = newValue.map { .string($0.rawValue) } }
    }
    /// `kSecAttrPort` (`"port"`, internet passwords): the port number. Reads a number, or a
    /// string that reads as an integer (`"443"`), `nil` for data, a date or other text; writes
    /// a number. Setting `nil` removes the attribute.
    public var port: Int? {
        get { self[.port]?.integerValue.map(Int.init) }
        set { self[.port] = newValue.map { .number(Int64($0)) } }
    }
    /// `kSecAttrPath` (`"path"`, internet passwords): the path component of the URL.
    /// Reads a string as is, data as UTF-8 text and a number in decimal (`nil` for a date or
    /// data that is not UTF-8); writes a string. Setting `nil` removes the attribute.
    public var path: String? {
        get { self[.path]?.stringValue }
        set { self[.path] = newValue.map(AttributeValue.string) }
    }
}

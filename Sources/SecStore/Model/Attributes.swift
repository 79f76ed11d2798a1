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
    private var storage: [AttributeKey: AttributeValue]

    public init() { storage = [:] }

    public init(_ values: [AttributeKey: AttributeValue]) { storage = values }

    public init(dictionaryLiteral elements: (AttributeKey, AttributeValue)...) {
        storage = Dictionary(elements, uniquingKeysWith: { _, last in last })
    }

    public subscript(key: AttributeKey) -> AttributeValue? {
        get { storage[key] }
        set { storage[key] = newValue }
    }

    public var keys: Dictionary<AttributeKey, AttributeValue>.Keys { storage.keys }
    public var isEmpty: Bool { storage.isEmpty }
    public var count: Int { storage.count }

    public func makeIterator() -> Dictionary<AttributeKey, AttributeValue>.Iterator { storage.makeIterator() }

    /// These attributes with `other`'s values written over them.
    public func merging(_ other: Attributes) -> Attributes {
        Attributes(storage.merging(other.storage, uniquingKeysWith: { _, new in new }))
    }

    public var description: String {
        let parts = storage.sorted { $0.key.code < $1.key.code }.map { "\($0.key.rawValue): \($0.value)" }
        return "[" + parts.joined(separator: ", ") + "]"
    }

    // MARK: Typed access

    public var account: String? {
        get { self[.account]?.stringValue }
        set { self[.account] = newValue.map(AttributeValue.string) }
    }
    public var service: String? {
        get { self[.service]?.stringValue }
        set { self[.service] = newValue.map(AttributeValue.string) }
    }
    public var label: String? {
        get { self[.label]?.stringValue }
        set { self[.label] = newValue.map(AttributeValue.string) }
    }
    public var itemDescription: String? {
        get { self[.itemDescription]?.stringValue }
        set { self[.itemDescription] = newValue.map(AttributeValue.string) }
    }
    public var comment: String? {
        get { self[.comment]?.stringValue }
        set { self[.comment] = newValue.map(AttributeValue.string) }
    }
    public var generic: Data? {
        get { self[.generic]?.dataValue }
        set { self[.generic] = newValue.map(AttributeValue.data) }
    }
    public var accessGroup: String? {
        get { self[.accessGroup]?.stringValue }
        set { self[.accessGroup] = newValue.map(AttributeValue.string) }
    }
    public var accessibility: Accessibility? {
        get { self[.accessible]?.stringValue.flatMap(Accessibility.init(rawValue:)) }
        set { self[.accessible] = newValue.map { .string($0.rawValue) } }
    }
    public var isSynchronizable: Bool? {
        get { self[.synchronizable]?.boolValue }
        set { self[.synchronizable] = newValue.map(AttributeValue.bool) }
    }
    public var isInvisible: Bool? {
        get { self[.isInvisible]?.boolValue }
        set { self[.isInvisible] = newValue.map(AttributeValue.bool) }
    }
    public var isNegative: Bool? {
        get { self[.isNegative]?.boolValue }
        set { self[.isNegative] = newValue.map(AttributeValue.bool) }
    }
    public var creationDate: Date? { self[.creationDate]?.dateValue }
    public var modificationDate: Date? { self[.modificationDate]?.dateValue }
    public var server: String? {
        get { self[.server]?.stringValue }
        set { self[.server] = newValue.map(AttributeValue.string) }
    }
    public var securityDomain: String? {
        get { self[.securityDomain]?.stringValue }
        set { self[.securityDomain] = newValue.map(AttributeValue.string) }
    }
    public var `protocol`: InternetProtocol? {
        get { self[.protocol]?.stringValue.map(InternetProtocol.init(rawValue:)) }
        set { self[.protocol] = newValue.map { .string($0.rawValue) } }
    }
    public var authenticationType: AuthenticationType? {
        get { self[.authenticationType]?.stringValue.map(AuthenticationType.init(rawValue:)) }
        set { self[.authenticationType] = newValue.map { .string($0.rawValue) } }
    }
    public var port: Int? {
        get { self[.port]?.integerValue.map(Int.init) }
        set { self[.port] = newValue.map { .number(Int64($0)) } }
    }
    public var path: String? {
        get { self[.path]?.stringValue }
        set { self[.path] = newValue.map(AttributeValue.string) }
    }
}

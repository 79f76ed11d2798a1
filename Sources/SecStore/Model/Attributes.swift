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

    public init() { entries = [] }

    public init(_ values: [AttributeKey: AttributeValue]) {
        entries = values.map { Entry(key: $0.key, value: $0.value) }.sorted { $0.key.code < $1.key.code }
    }

    public init(dictionaryLiteral elements: (AttributeKey, AttributeValue)...) {
        self.init()
        for (key, value) in elements { self[key] = value }
    }

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
            case (let value?, false): entries.insert(Entry(key: key, value: value), at: position)
            case (nil, true): entries.remove(at: position)
            case (nil, false): break
            }
        }
    }

    /// The attributes that have a value, in code order.
    public var keys: [AttributeKey] { entries.map(\.key) }
    public var isEmpty: Bool { entries.isEmpty }
    public var count: Int { entries.count }

    /// The attributes that have a value, in code order.
    public func makeIterator() -> Iterator { Iterator(base: entries.makeIterator()) }

    /// Walks the attributes that have a value, in code order.
    public struct Iterator: IteratorProtocol {
        fileprivate var base: IndexingIterator<[Entry]>

        public mutating func next() -> (key: AttributeKey, value: AttributeValue)? {
            base.next().map { ($0.key, $0.value) }
        }
    }

    /// These attributes with `other`'s values written over them.
    public func merging(_ other: Attributes) -> Attributes {
        var merged = self
        for (key, value) in other { merged[key] = value }
        return merged
    }

    public var description: String {
        "[" + map { "\($0.key.rawValue): \($0.value)" }.joined(separator: ", ") + "]"
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

import Foundation

/// What to look for, and what to return: the typed form of a `SecItemCopyMatching`
/// dictionary.
///
/// Every attribute given must be equal (an AND of equality tests). Items in other access
/// groups than the caller's, and synchronizable items unless asked for, are never seen.
///
/// ```swift
/// var query = Query(service: "api.example.com")
/// query.limit = .all
/// query.returning = [.attributes, .data]
/// let items = try store.items(matching: query)
/// ```
public struct Query: Sendable, Hashable {
    /// The class to search. May be `nil` only when ``persistentReference`` names the item.
    public var itemClass: ItemClass?
    /// Equality filters. ``AttributeKey/synchronizable`` goes in ``synchronizable`` instead.
    public var attributes: Attributes
    /// Which items to see by their `kSecAttrSynchronizable` value: by default
    /// (``SynchronizableMatch/no``) only items that are not synchronizable, as on Apple systems.
    /// Ignored when ``persistentReference`` names the item.
    public var synchronizable: SynchronizableMatch
    /// How many matches to return (`kSecMatchLimit`): ``MatchLimit/one`` by default; a
    /// ``MatchLimit/count(_:)`` below 1 is `invalidParameter`. ``SecretStore/update(matching:with:)``
    /// and ``SecretStore/delete(matching:)`` act on every match, whatever the limit.
    public var limit: MatchLimit
    /// Compare string attributes without regard to case (`kSecMatchCaseInsensitive`).
    public var caseInsensitive: Bool
    /// Find exactly this item (`kSecValuePersistentRef`); no other attribute may be given.
    public var persistentReference: PersistentReference?
    /// Internet passwords whose server is this host or a subdomain of it
    /// (`kSecMatchHostOrSubdomainOfHost`).
    public var hostOrSubdomain: String?
    /// The parts of each found item to return.
    public var returning: ReturnOptions

    /// A query with every option spelled out. The defaults find the first generic password
    /// that is not synchronizable, and return its attributes.
    ///
    /// ```swift
    /// var server = Attributes()
    /// server.server = "example.com"
    /// server.protocol = .https
    /// let query = Query(itemClass: .internetPassword, attributes: server, synchronizable: .any,
    ///                   limit: .all, returning: [.attributes, .persistentReference])
    /// ```
    public init(
        itemClass: ItemClass? = .genericPassword, attributes: Attributes = [:],
        synchronizable: SynchronizableMatch = .no, limit: MatchLimit = .one, caseInsensitive: Bool = false,
        persistentReference: PersistentReference? = nil, hostOrSubdomain: String? = nil,
        returning: ReturnOptions = .attributes
    ) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.synchronizable = synchronizable
        self.limit = limit
        self.caseInsensitive = caseInsensitive
        self.persistentReference = persistentReference
        self.hostOrSubdomain = hostOrSubdomain
        self.returning = returning
    }

    /// Generic passwords by service and/or account.
    ///
    /// ```swift
    /// let one = Query(service: "api.example.com", account: "alice", returning: .data)
    /// let all = Query(service: "api.example.com", limit: .all)
    /// ```
    public init(service: String? = nil, account: String? = nil, accessGroup: String? = nil,
                limit: MatchLimit = .one, returning: ReturnOptions = .attributes) {
        // Sized once: grown entry by entry, a service + account query allocated twice.
        var attributes = Attributes(minimumCapacity: 3)
        attributes.service = service
        attributes.account = account
        attributes.accessGroup = accessGroup
        self.init(itemClass: .genericPassword, attributes: attributes, limit: limit, returning: returning)
    }

    /// The item behind a persistent reference.
    ///
    /// ```swift
    /// let item = try store.items(matching: Query(persistentReference: reference, returning: [.attributes, .data]))[0]
    /// ```
    public init(persistentReference: PersistentReference, returning: ReturnOptions = .attributes) {
        self.init(itemClass: persistentReference.itemClass, persistentReference: persistentReference,
                  returning: returning)
    }
}

/// Which items a query sees by their `kSecAttrSynchronizable` value.
///
/// ```swift
/// var query = Query(service: "api.example.com", limit: .all)
/// query.synchronizable = .any       // local and synchronizable items alike
/// ```
public enum SynchronizableMatch: Sendable, Hashable {
    /// Only items that are not synchronizable: the default, as on Apple systems.
    case no
    /// Only synchronizable items.
    case yes
    /// Both (`kSecAttrSynchronizableAny`).
    case any

    var values: [Bool] {
        switch self {
        case .no: Self.onlyFalse
        case .yes: Self.onlyTrue
        case .any: Self.both
        }
    }

    private static let onlyFalse = [false], onlyTrue = [true], both = [false, true]
}

/// How many items a query returns (`kSecMatchLimit`).
///
/// ```swift
/// let firstTen = try store.items(matching: Query(service: "api.example.com", limit: .count(10)))
/// ```
public enum MatchLimit: Sendable, Hashable {
    /// The first match, as a single result: the default.
    case one
    /// Every match.
    case all
    /// At most this many matches.
    case count(Int)

    var maximum: Int? {
        switch self {
        case .one: 1
        case .all: nil
        case .count(let count): count
        }
    }
}

/// The parts of a found item to return (`kSecReturnData`, `kSecReturnAttributes`,
/// `kSecReturnPersistentRef`).
///
/// ```swift
/// let found = try store.items(matching: Query(service: "api.example.com", returning: [.attributes, .data]))
/// ```
public struct ReturnOptions: OptionSet, Sendable, Hashable {
    /// The options as bits: ``data`` 1, ``attributes`` 2, ``persistentReference`` 4.
    public let rawValue: UInt8
    /// The options whose bits are set in `rawValue`.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The secret.
    public static let data = ReturnOptions(rawValue: 1 << 0)
    /// The attributes, with creation and modification dates.
    public static let attributes = ReturnOptions(rawValue: 1 << 1)
    /// A ``PersistentReference`` to find the item again.
    public static let persistentReference = ReturnOptions(rawValue: 1 << 2)
    /// `kSecReturnRef`: the item as an object. Passwords have none, so nothing is read for
    /// it; the SecItem functions shape their result by it.
    package static let reference = ReturnOptions(rawValue: 1 << 3)
}

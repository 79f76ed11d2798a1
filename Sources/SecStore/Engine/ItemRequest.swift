import Foundation

/// One keychain operation, as every front end states it: the typed API (``Query``, ``Item``,
/// ``ItemChanges``), the SecItem dictionaries of `KeychainServices` and the `secstore` tool
/// all build one, and ``ItemEngine/perform(_:in:now:)`` validates it once
/// (``RequestRules``) and runs it.
///
/// A field a front end did not set stays `nil`, so the rules can tell "not given" from a
/// default: Apple's answers differ (a `kSecMatchLimit` in an update, a
/// `kSecAttrSynchronizable` beside a persistent reference).
///
/// ```swift
/// var request = ItemRequest(.copyMatching, itemClass: .genericPassword)
/// request.attributes.service = "api.example.com"
/// request.returns = .data
/// let items = try store.perform(request).items
/// ```
package struct ItemRequest: Sendable {
    /// The SecItem function the request stands for.
    package enum Operation: Sendable, CustomStringConvertible {
        case add, copyMatching, update, delete

        package var description: String {
            switch self {
            case .add: "SecItemAdd"
            case .copyMatching: "SecItemCopyMatching"
            case .update: "SecItemUpdate"
            case .delete: "SecItemDelete"
            }
        }
    }

    package var operation: Operation
    /// `kSecClass`; may be `nil` when ``persistentReference`` names the item.
    package var itemClass: ItemClass?
    /// The item's attributes (add) or the equality filters (the other operations), as given.
    package var attributes = Attributes()
    /// `kSecAttrSynchronizable` of a query or an add, when given.
    package var synchronizable: SynchronizableMatch?
    /// `kSecMatchLimit`, when given.
    package var limit: MatchLimit?
    /// `kSecMatchCaseInsensitive`.
    package var caseInsensitive = false
    /// `kSecMatchHostOrSubdomainOfHost`.
    package var hostOrSubdomain: String?
    /// `kSecValuePersistentRef`.
    package var persistentReference: PersistentReference?
    /// The `kSecReturn…` keys set to true.
    package var returns: ReturnOptions = []
    /// `kSecValueData`: the secret of an add; checked and ignored in a query, as on Apple systems.
    package var data: Data?
    /// What an update changes.
    package var changes: ItemChanges?
    /// A search returns items that fail authentication as damaged references instead of
    /// failing with `corruptData` (the `secstore` tool's listing; never Apple's API).
    package var reportsDamage = false

    package init(_ operation: Operation, itemClass: ItemClass?) {
        self.operation = operation
        self.itemClass = itemClass
    }

    /// The request of ``SecretStore/add(_:returning:)``.
    package init(adding item: Item, returning: ReturnOptions) {
        self.init(.add, itemClass: item.itemClass)
        attributes = item.attributes
        data = item.data ?? Data()
        returns = returning
    }

    /// The request of ``SecretStore/items(matching:)``, ``SecretStore/update(matching:with:)``
    /// (`changes`) or ``SecretStore/delete(matching:)``. Update and delete act on every match,
    /// so they take neither the query's limit nor its return options.
    package init(_ operation: Operation, query: Query, changes: ItemChanges? = nil) {
        self.init(operation, itemClass: query.itemClass)
        attributes = query.attributes
        // `.no` is the typed API's default, indistinguishable from "not given"; beside a
        // persistent reference the typed API ignores it (``Query/synchronizable``).
        if query.synchronizable != .no && query.persistentReference == nil {
            synchronizable = query.synchronizable
        }
        caseInsensitive = query.caseInsensitive
        hostOrSubdomain = query.hostOrSubdomain
        persistentReference = query.persistentReference
        self.changes = changes
        if operation == .copyMatching {
            limit = query.limit
            returns = query.returning
        }
    }
}

/// What ``ItemEngine/perform(_:in:now:)`` answers: the items found or added, with the parts
/// the request asked for, and how many items the operation touched. Finding nothing is an
/// empty answer here; the public API turns it into `itemNotFound` at its edge.
package struct ItemResponse: Sendable {
    package var items: [Item]
    package var count: Int
    /// With ``ItemRequest/reportsDamage``: the matching items that failed authentication, and
    /// the malformed rows whose reference is readable (``ItemsTable/RowView/readableReference``).
    package var damaged: [PersistentReference] = []
    /// With ``ItemRequest/reportsDamage``: rows the search met that are too malformed to name
    /// an item (their reference is not readable either).
    package var malformedRows = 0
}

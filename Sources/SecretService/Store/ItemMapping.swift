import Foundation
import SecStore

/// How a Secret Service item is stored: a generic password whose
/// - `service` is ``service`` for every item the provider writes (so its items are told apart
///   from an application's own),
/// - `account` is a random 32-hex-digit id, which is also the last element of the item's object path,
/// - `label` is the item's Label,
/// - free-form attributes (``Attributes/custom``) are the item's Attributes, sealed and blind-indexed,
/// - `itemDescription` (`desc`) is the secret's content type (`text/plain` when a client gives none),
/// - `accessGroup` is the collection's access group,
/// - `synchronizable` is whatever it was created with: lookups see both kinds (``query(group:id:custom:returning:)``).
enum ItemMapping {
    static let service = "org.freedesktop.secrets"
    static let defaultContentType = "text/plain"

    /// A new item id: 16 random bytes in hex, valid as an object path element.
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// Whether `id` could be an item id (so a path element never reaches a query unchecked).
    static func isValidID(_ id: String) -> Bool {
        id.utf8.count == 32 && id.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

    /// The query naming one item, or every item of a collection when `id` is `nil`. It sees
    /// synchronizable items too (`.any`): those that arrived from the owner's other devices,
    /// or were created here with `--synchronizable`, are items like the others.
    static func query(group: String, id: String?, custom: [String: String] = [:], returning: ReturnOptions) -> Query {
        var query = Query(service: service, account: id, accessGroup: group, limit: .all, returning: returning)
        query.synchronizable = .any
        query.attributes.custom = custom
        return query
    }

    /// One item per id, for paths that name one object: the positions of the items kept, in
    /// order. Two items share an id only when both kinds were stored under it (written to the
    /// store directly, or a 1-in-2^128 chance across devices): the one ``SyncPreference``
    /// prefers answers.
    static func oneByID(_ items: [ServiceItem]) -> [Int] {
        var chosen: [String: Int] = [:]
        var result: [Int] = []
        for (position, item) in items.enumerated() {
            guard let index = chosen[item.id] else {
                chosen[item.id] = result.count
                result.append(position)
                continue
            }
            if precedes(item, items[result[index]]) { result[index] = position }
        }
        return result
    }

    private static func precedes(_ item: ServiceItem, _ other: ServiceItem) -> Bool {
        SyncPreference.precedes(modified: item.modified, synchronizable: item.isSynchronizable,
                                over: other.modified, synchronizable: other.isSynchronizable)
    }
}

/// An item as the Secret Service shows it.
struct ServiceItem {
    var id: String
    var label: String
    var attributes: [String: String]
    var contentType: String
    var created: Date?
    var modified: Date?
    /// Whether the item syncs to the owner's other devices; kept by every change.
    var isSynchronizable: Bool
    /// Present only when asked for (``SecretBackend``): a copy of the store's, which the bus
    /// layer zeroes once the reply that carries it is sent (``SecretValue``).
    var secret: [UInt8]?

    /// The item's description; its secret is copied by ``SecretBackend`` for the items it keeps.
    init(_ item: Item) {
        id = item.attributes.account ?? ""
        label = item.attributes.label ?? ""
        attributes = item.attributes.custom
        contentType = item.attributes.itemDescription ?? ItemMapping.defaultContentType
        created = item.attributes.creationDate
        modified = item.attributes.modificationDate
        isSynchronizable = item.attributes.isSynchronizable ?? false
    }
}

import Foundation
import SecStore

/// A SecItem dictionary read into SecStore's terms: the class, the attributes and the
/// options Apple's keys carry. ``ItemDictionaryParser`` makes it; ``item`` and
/// ``query(returning:)`` hand it to the store.
struct ItemDictionary {
    /// `kSecAttrSynchronizable` as a dictionary gives it.
    enum Synchronizable: Equatable {
        case yes, no
        /// `kSecAttrSynchronizableAny`.
        case any
    }

    var itemClass: ItemClass
    var attributes = Attributes()
    var synchronizable: Synchronizable?
    var limit: MatchLimit?
    var caseInsensitive = false
    var hostOrSubdomain: String?
    var returns: ReturnKeys = []
    /// `kSecValueData`.
    var data: Data?
    /// `kSecValuePersistentRef`.
    var persistentReference: PersistentReference?

    init(itemClass: ItemClass, persistentReference: PersistentReference?) {
        self.itemClass = itemClass
        self.persistentReference = persistentReference
    }

    /// The item a `SecItemAdd` dictionary describes. `kSecAttrSynchronizableAny` adds a
    /// non-synchronizable item, as on Apple systems.
    var item: Item {
        var attributes = attributes
        switch synchronizable {
        case .yes: attributes[.synchronizable] = .bool(true)
        case .no: attributes[.synchronizable] = .bool(false)
        case .any, nil: break
        }
        return Item(itemClass: itemClass, attributes: attributes, data: data)
    }

    /// The search a query dictionary describes. Without `kSecAttrSynchronizable` only
    /// non-synchronizable items match, as on Apple systems.
    func query(returning: ReturnOptions) -> Query {
        let match: SynchronizableMatch = switch synchronizable {
        case .yes: .yes
        case .any: .any
        case .no, nil: .no
        }
        return Query(itemClass: itemClass, attributes: attributes, synchronizable: match, limit: limit ?? .one,
                     caseInsensitive: caseInsensitive, persistentReference: persistentReference,
                     hostOrSubdomain: hostOrSubdomain, returning: returning)
    }

    /// Whether `SecItemCopyMatching` returns one object rather than an array.
    var returnsSingleObject: Bool {
        switch limit ?? .one {
        case .one: true
        case .all: false
        case .count(let count): count == 1
        }
    }
}

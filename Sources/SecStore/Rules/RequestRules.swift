import Foundation

/// A request that passed ``RequestRules``: its class resolved, its attributes normalized,
/// every Apple rule checked. Only the engine builds one.
struct ValidRequest {
    var operation: ItemRequest.Operation
    var itemClass: ItemClass
    /// Normalized equality filters (queries), or the complete attributes of a new item (add).
    var attributes: Attributes
    /// Which items a query sees by `kSecAttrSynchronizable`.
    var synchronizable: SynchronizableMatch
    /// At most this many matches; `nil` for every match.
    var limit: Int?
    var caseInsensitive: Bool
    var hostOrSubdomain: String?
    var persistentReference: PersistentReference?
    var returns: ReturnOptions
    /// The secret of an add.
    var data: Data
    /// The normalized changes of an update.
    var changes: ItemChanges?
    /// See ``ItemRequest/reportsDamage``.
    var reportsDamage = false
}

/// Apple's rules for a whole request (reference §4): which combinations each operation
/// takes, how the class is resolved, the match limit, the defaults of a new item. Every
/// front end's request passes here once, in ``ItemEngine/perform(_:in:now:)``; the rules
/// of single values live in ``AttributeRules`` and those of access groups in ``AccessRules``.
enum RequestRules {
    static func validate(_ request: ItemRequest, access: AccessRules, now: Date) throws -> ValidRequest {
        try access.checkEntitled()
        if request.operation == .add, let data = request.data { try checkSecretSize(data.count) }
        if let data = request.changes?.data { try checkSecretSize(data.count) }
        let itemClass = try resolveClass(request)
        try checkCombinations(request, itemClass)
        var valid = ValidRequest(
            operation: request.operation, itemClass: itemClass, attributes: [:],
            synchronizable: request.persistentReference != nil ? .any : request.synchronizable ?? .no,
            limit: request.operation == .copyMatching ? try maximum(request.limit ?? .one) : nil,
            caseInsensitive: request.caseInsensitive,
            hostOrSubdomain: request.hostOrSubdomain, persistentReference: request.persistentReference,
            // An update or delete acts on every match and returns nothing, as on macOS:
            // a match limit or return keys in its query are ignored (reference §4.4).
            returns: request.operation == .copyMatching || request.operation == .add ? request.returns : [],
            data: request.data ?? Data(), changes: nil, reportsDamage: request.reportsDamage)
        switch request.operation {
        case .add:
            var attributes = request.attributes
            if let synchronizable = request.synchronizable {
                // kSecAttrSynchronizableAny in an add stores a non-synchronizable item, as on Apple systems.
                attributes[.synchronizable] = .bool(synchronizable == .yes)
            }
            valid.attributes = try newItem(attributes, of: itemClass, group: { try access.groupForNewItem(explicit: $0) },
                                           dates: .now(now))
            try AccessControlRules.checkSynchronizable(valid.attributes)
        case .copyMatching, .update, .delete:
            if request.attributes[.synchronizable] != nil {
                throw SecStoreError.invalid("Put the synchronizable filter in Query.synchronizable, not in its attributes.")
            }
            valid.attributes = try AttributeRules.normalize(request.attributes, for: itemClass)
            if let group = valid.attributes.accessGroup {
                try access.checkEntitled(toGroup: group)
            }
        }
        if let changes = request.changes {
            valid.changes = try self.changes(changes, of: itemClass, access: access)
        }
        return valid
    }

    /// `kSecClass`, or the class a persistent reference names; they must agree.
    private static func resolveClass(_ request: ItemRequest) throws -> ItemClass {
        if let reference = request.persistentReference {
            if let itemClass = request.itemClass, itemClass != reference.itemClass {
                throw SecStoreError(.noSuchClass, "The persistent reference names a \(reference.itemClass) item but the request's class is \(itemClass).")
            }
            return reference.itemClass
        }
        guard let itemClass = request.itemClass else {
            throw SecStoreError.invalid("The request names no item class. Set its class (kSecClass).")
        }
        return itemClass
    }

    /// What each operation takes (reference §4.2–4.5).
    private static func checkCombinations(_ request: ItemRequest, _ itemClass: ItemClass) throws {
        switch request.operation {
        case .add:
            if request.persistentReference != nil {
                throw SecStoreError.invalid("An add does not take a persistent reference (kSecValuePersistentRef): it names an existing item.")
            }
        case .copyMatching:
            // A persistent reference names one item: a search refuses any attribute beside it;
            // a delete ANDs them (reference §4.3, §4.5). kSecAttrSynchronizableAny is no
            // attribute (Apple skips it), and a reference already sees every item.
            let synchronizableFilter = request.synchronizable.map { $0 != .any } ?? false
            if request.persistentReference != nil && (!request.attributes.isEmpty || synchronizableFilter) {
                throw SecStoreError.invalid("A persistent reference cannot be combined with attributes in a search. Query by the reference alone.")
            }
        case .update:
            if request.changes == nil {
                throw SecStoreError.invalid("An update needs the changes to make.")
            }
        case .delete:
            break
        }
        if request.hostOrSubdomain != nil && itemClass != .internetPassword {
            throw SecStoreError(.unsupported, "Matching a host or subdomain applies to internet passwords only.")
        }
    }

    /// One maximum secret size for add, update, import and export alike
    /// (``Item/maximumDataByteCount``). Apple sets none; a store shared by processes, backed
    /// up in records and opened whole into memory needs one.
    static func checkSecretSize(_ byteCount: Int) throws {
        guard byteCount <= Item.maximumDataByteCount else {
            throw SecStoreError(.dataTooLarge, "A secret of \(byteCount) bytes is larger than SecStore keeps (\(Item.maximumDataByteCount >> 20) MiB). Keep large data in a file and store its key here.")
        }
    }

    /// The most matches a limit allows; `nil` for all. A count below 1 is `invalidParameter`.
    private static func maximum(_ limit: MatchLimit) throws -> Int? {
        if case .count(let count) = limit, count < 1 {
            throw SecStoreError.invalid("A match limit must be at least 1.")
        }
        return limit.maximum
    }

    /// The dates of a new item: now (an add, which ignores given dates), or the ones it
    /// carries, else now (a restored backup item).
    enum NewItemDates {
        case now(Date)
        case keptOrNow(Date)
    }

    /// Apple's rules for a new item: class attributes only, values converted by kind, its
    /// access group (`group` applies the caller's entitlements and default group),
    /// `WhenUnlocked` unless another accessibility is given, `sync` false unless given, and
    /// its dates.
    static func newItem(_ attributes: Attributes, of itemClass: ItemClass, group: (String?) throws -> String,
                        dates: NewItemDates) throws -> Attributes {
        var attributes = try AttributeRules.normalize(attributes, for: itemClass)
        attributes[.accessGroup] = .string(try group(attributes[.accessGroup]?.stringValue))
        attributes.accessibility = attributes.accessibility ?? .whenUnlocked
        attributes[.synchronizable] = .bool(attributes[.synchronizable]?.boolValue ?? false)
        switch dates {
        case .now(let now):
            attributes[.creationDate] = .date(now)
            attributes[.modificationDate] = .date(now)
        case .keptOrNow(let now):
            for key in [AttributeKey.creationDate, .modificationDate] {
                if let kept = attributes[key]?.dateValue, !StorableDates.contains(kept) {
                    throw SecStoreError.invalid("The item's \(key == .creationDate ? "creation" : "modification") date is not between 1970 and 9999, so it cannot be kept. Give it a date in that range, or none (the item is then dated now).")
                }
            }
            attributes[.creationDate] = attributes[.creationDate] ?? .date(now)
            attributes[.modificationDate] = attributes[.modificationDate] ?? .date(now)
        }
        return attributes
    }

    /// The rules for an update's changes: attributes of the class, values converted, a new
    /// group the caller is entitled to; the store owns the dates.
    private static func changes(_ changes: ItemChanges, of itemClass: ItemClass, access: AccessRules) throws -> ItemChanges {
        guard changes.attributes.custom.isEmpty else {
            throw SecStoreError.invalid("An update replaces free-form attributes through ItemChanges.customAttributes, not its attributes.")
        }
        var attributes = try AttributeRules.normalize(changes.attributes, for: itemClass)
        attributes[.creationDate] = nil
        attributes[.modificationDate] = nil
        try AccessControlRules.checkSynchronizable(attributes)
        if let group = attributes.accessGroup {
            try access.checkEntitled(toNewGroup: group)
        }
        if let custom = changes.customAttributes { try AttributeRules.checkCustom(custom) }
        return ItemChanges(attributes: attributes, data: changes.data, customAttributes: changes.customAttributes)
    }
}

extension ReturnOptions {
    /// What `SecItemCopyMatching` actually asks for: Apple's client adds
    /// `kSecReturnAttributes` whenever `kSecReturnData` comes with another return key
    /// (reference §4.3), so such results always carry the attributes. `SecItemAdd` and the
    /// typed API do not.
    package var addingAttributesImpliedByData: ReturnOptions {
        contains(.data) && rawValue.nonzeroBitCount > 1 ? union(.attributes) : self
    }

    /// What `SecItemAdd` and `SecItemCopyMatching` return for `kSecReturnRef` with another
    /// return key: Apple's server decrypts the whole item to make the reference and answers
    /// with every attribute, the secret and `class` (SecItemDb.c `handle_result`,
    /// `SecDbItemCopyResult`); its client, which can make no object of a password, leaves
    /// `v_Data` in the dictionary (SecItem.m `SecItemResultCopyPrepared`). `kSecReturnRef`
    /// alone still returns nothing.
    package var addingWhatAReferenceImplies: ReturnOptions {
        contains(.reference) && rawValue.nonzeroBitCount > 1 ? union([.attributes, .data]) : self
    }
}

extension Item {
    /// The largest secret an item may hold: 64 MiB. Adding, updating, importing or
    /// exporting a larger one is ``SecStoreError/Code/dataTooLarge`` (`errSecDataTooLarge`).
    ///
    /// ```swift
    /// guard data.count <= Item.maximumDataByteCount else { return storeInAFile(data) }
    /// ```
    public static let maximumDataByteCount = 64 << 20
}

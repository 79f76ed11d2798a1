import Foundation
import GRDB

/// What every operation needs to know of a stored item: which row it is, and how it is
/// protected.
struct StoredItem: Sendable {
    var id: Int64
    var ref: [UInt8]
    var itemClass: ItemClass
    var accessibility: Accessibility

    var persistentReference: PersistentReference { PersistentReference(itemClass: itemClass, id: ref) }

    /// The random half of a reference: a reference to a deleted row whose id is reused by a
    /// new item does not find the new item.
    static let referenceCheckByteCount = 8

    /// An item's 16-byte reference (and its `ref` column): the row id, big-endian, then 8
    /// random bytes. Lookups by reference go through the primary key, so `ref` needs no index.
    static func reference(id: Int64, check: ArraySlice<UInt8>) -> [UInt8] {
        withUnsafeBytes(of: id.bigEndian, Array.init) + check
    }

    /// The row id a reference names.
    static func rowID(of reference: PersistentReference) -> Int64 {
        reference.id.prefix(8).reduce(0) { $0 << 8 | Int64($1) }
    }
}

/// A whole row of the `items` table: the write path's and the whole-store scans' view.
struct ItemRow {
    var stored: StoredItem
    var tags: ItemTags
    var metadata: Data?
    var secret: Data?

    /// Every column, in the order the readers expect them.
    static let columns = "id, ref, class, accessibility, pk_tag, name_tag, account_tag, group_tag, metadata, secret"

    init(stored: StoredItem, tags: ItemTags, metadata: Data? = nil, secret: Data? = nil) {
        self.stored = stored
        self.tags = tags
        self.metadata = metadata
        self.secret = secret
    }

    var id: Int64 { stored.id }
    var ref: [UInt8] { stored.ref }
    var itemClass: ItemClass { stored.itemClass }
    var accessibility: Accessibility {
        get { stored.accessibility }
        set { stored.accessibility = newValue }
    }
    var persistentReference: PersistentReference { stored.persistentReference }

    func binding(storeID: [UInt8]) -> ItemSealing.Binding {
        ItemSealing.Binding(storeID: storeID, ref: ref, itemClass: itemClass, accessibility: accessibility, tags: tags)
    }
}

extension StoredItem {
    /// Reads the first four of ``ItemRow/columns``; `nil` when they hold no valid item (a
    /// damaged or foreign row), which callers report as corruption.
    init?(id: Int64, ref: UnsafeRawBufferPointer, classCode: Int64, accessibilityCode: Int64) {
        guard ref.count == PersistentReference.idByteCount,
              let itemClass = ItemClass(code: UInt8(truncatingIfNeeded: classCode)), classCode == Int64(itemClass.code),
              let accessibility = Accessibility(code: UInt8(truncatingIfNeeded: accessibilityCode)),
              accessibilityCode == Int64(accessibility.code)
        else { return nil }
        self.init(id: id, ref: Array(ref), itemClass: itemClass, accessibility: accessibility)
    }

    static func damagedRow(_ id: Int64, _ path: String) -> SecStoreError {
        SecStoreError(.corruptData, "Row \(id) of \(path) has an unknown class or accessibility, or malformed reference or tags. Run `secstore verify`.")
    }
}

extension ItemRow {
    /// Reads the columns of ``columns`` from a GRDB row (the scans; the read hot path uses
    /// ``SQLiteRows`` instead).
    init(_ row: Row, path: String) throws {
        let id: Int64 = row[0]
        let ref: Data = row[1] ?? Data()
        let stored = ref.withUnsafeBytes { StoredItem(id: id, ref: $0, classCode: row[2], accessibilityCode: row[3]) }
        let tags = ItemTags(primaryKey: Array(row[4] as Data? ?? Data()), name: Array(row[5] as Data? ?? Data()),
                            account: Array(row[6] as Data? ?? Data()), group: Array(row[7] as Data? ?? Data()))
        guard let stored, ItemTags.haveValidLengths(primaryKey: tags.primaryKey.count, name: tags.name.count,
                                                    account: tags.account.count, group: tags.group.count)
        else { throw StoredItem.damagedRow(id, path) }
        self.init(stored: stored, tags: tags, metadata: row[8], secret: row[9])
    }
}

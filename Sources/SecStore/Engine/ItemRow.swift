import Foundation
internal import GRDB

/// What every operation needs to know of a stored item: which row it is, and how it is
/// protected.
struct StoredItem: Sendable {
    var id: Int64
    var ref: [UInt8]
    var itemClass: ItemClass
    var accessibility: Accessibility
    /// How its blobs are sealed; a new or rewritten row is always ``ItemSealing/Format/current``.
    var format: ItemSealing.Format = .current

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
        reference.id.withUnsafeBytes { rowID(ofReference: $0) }
    }

    /// The row id the first 8 bytes of a reference name (big-endian); 0 for fewer bytes.
    static func rowID(ofReference bytes: UnsafeRawBufferPointer) -> Int64 {
        guard bytes.count >= 8 else { return 0 }
        return Int64(bitPattern: UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)))
    }
}

/// A whole row of the `items` table: the write path's and the whole-store scans' view.
struct ItemRow {
    var stored: StoredItem
    var tags: ItemTags
    var metadata: Data?
    var secret: Data?

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

    var format: ItemSealing.Format { stored.format }

    /// How the row's blobs are bound, as stored: its format, and the nonce of its secret blob.
    func binding(storeID: [UInt8]) -> ItemSealing.Binding {
        ItemSealing.Binding(storeID: storeID, ref: ref, itemClass: itemClass, accessibility: accessibility, tags: tags,
                            format: stored.format, secretNonce: Array((secret ?? Data()).prefix(AEAD.nonceByteCount)))
    }
}

extension StoredItem {
    /// Reads the identity columns of ``ItemsTable/columns``; `nil` when they hold no valid item (a
    /// damaged or foreign row), which callers report as corruption.
    ///
    /// A reference names its row by id, so a row whose id is not the one its reference names
    /// (moved to another id inside the file) is damaged, although both blobs authenticate: it
    /// cannot be reached by its reference, and reading, listing or deleting it as an item
    /// would answer for a row the store never wrote there.
    init?(id: Int64, ref: UnsafeRawBufferPointer, classCode: Int64, accessibilityCode: Int64, formatCode: Int64) {
        guard ref.count == PersistentReference.idByteCount, Self.rowID(ofReference: ref) == id,
              let format = ItemSealing.Format(rawValue: formatCode),
              let itemClass = ItemClass(code: UInt8(truncatingIfNeeded: classCode)), classCode == Int64(itemClass.code),
              let accessibility = Accessibility(code: UInt8(truncatingIfNeeded: accessibilityCode)),
              accessibilityCode == Int64(accessibility.code)
        else { return nil }
        self.init(id: id, ref: Array(ref), itemClass: itemClass, accessibility: accessibility, format: format)
    }

    static func damagedRow(_ id: Int64, _ path: String) -> SecStoreError {
        SecStoreError(.corruptData, "Row \(id) of \(path) has an unknown class, accessibility or format, malformed tags, or a reference that is malformed or names another row. Run `secstore verify`.")
    }
}

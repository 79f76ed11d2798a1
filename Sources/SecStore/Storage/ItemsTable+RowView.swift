import Foundation

extension ItemsTable {
    /// One row as SQLite hands it out, valid only during the callback that received it.
    /// Every column is read from SQLite once, when the view is made: a row is looked at
    /// several times (its identity, then the associated data of both blobs), and each
    /// `sqlite3_column_*` call costs as much as the look.
    struct RowView {
        let id: Int64
        let ref: UnsafeRawBufferPointer
        let classCode: Int64
        let accessibilityCode: Int64
        let primaryKeyTag: UnsafeRawBufferPointer
        let nameTag: UnsafeRawBufferPointer
        let accountTag: UnsafeRawBufferPointer
        let groupTag: UnsafeRawBufferPointer
        let metadata: UnsafeRawBufferPointer
        let secret: UnsafeRawBufferPointer
        /// How the row's blobs are sealed (``ItemSealing/Format``).
        let format: Int64

        /// The columns in the order of ``ItemsTable/columns``.
        init(columns: SQLiteRows.Columns) {
            id = columns.integer(0)
            ref = columns.bytes(1)
            classCode = columns.integer(2)
            accessibilityCode = columns.integer(3)
            primaryKeyTag = columns.bytes(4)
            nameTag = columns.bytes(5)
            accountTag = columns.bytes(6)
            groupTag = columns.bytes(7)
            metadata = columns.bytes(8)
            secret = columns.bytes(9)
            format = columns.integer(10)
        }

        /// The row's item, or `nil` when its class, accessibility, reference or tag lengths
        /// are not ones SecStore writes: a damaged or foreign row.
        var item: StoredItem? {
            guard ItemTags.haveValidLengths(primaryKey: primaryKeyTag.count, name: nameTag.count,
                                            account: accountTag.count, group: groupTag.count)
            else { return nil }
            return StoredItem(id: id, ref: ref, classCode: classCode, accessibilityCode: accessibilityCode, formatCode: format)
        }

        /// What a malformed row still tells: its reference, when its class and ref are readable.
        var readableReference: PersistentReference? {
            guard let itemClass = ItemClass(code: UInt8(truncatingIfNeeded: classCode)),
                  ref.count == PersistentReference.idByteCount
            else { return nil }
            return PersistentReference(itemClass: itemClass, id: Array(ref))
        }

        /// The row's tags, copied (no free-form ones: those are in `item_attributes`).
        var tags: ItemTags {
            ItemTags(primaryKey: Array(primaryKeyTag), name: Array(nameTag), account: Array(accountTag), group: Array(groupTag))
        }

        /// The whole row, copied: the view of whole-store scans.
        func copy(path: String) throws -> ItemRow {
            guard let item else { throw StoredItem.damagedRow(id, path) }
            return ItemRow(stored: item, tags: tags, metadata: Data(metadata), secret: Data(secret))
        }
    }
}

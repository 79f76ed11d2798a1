import Foundation
import GRDB

/// One row of the `items` table as the engine reads it. The blobs are present only when
/// the statement selected them.
struct ItemRow {
    var id: Int64
    var ref: [UInt8]
    var itemClass: ItemClass
    var accessibility: Accessibility
    var tags: ItemTags
    var metadata: Data?
    var secret: Data?

    /// Every column, in the order ``init(_:path:)`` reads them.
    static let columns = "id, ref, class, accessibility, pk_tag, name_tag, account_tag, group_tag, metadata, secret"

    var persistentReference: PersistentReference { PersistentReference(itemClass: itemClass, id: ref) }

    func binding(storeID: [UInt8]) -> ItemSealing.Binding {
        ItemSealing.Binding(storeID: storeID, ref: ref, itemClass: itemClass, accessibility: accessibility, tags: tags)
    }
}

extension ItemRow {
    /// Reads the columns of ``columns``.
    init(_ row: Row, path: String) throws {
        id = row[0]
        let refData: Data = row[1]
        ref = Array(refData)
        guard let itemClass = ItemClass(code: row[2]), let accessibility = Accessibility(code: row[3]),
              ref.count == PersistentReference.idByteCount
        else {
            throw SecStoreError(.corruptData, "Row \(row[0] as Int64) of \(path) has an unknown class or accessibility. Run `secstore verify`.")
        }
        self.itemClass = itemClass
        self.accessibility = accessibility
        tags = ItemTags(primaryKey: Array(row[4] as Data), name: Array(row[5] as Data? ?? Data()),
                        account: Array(row[6] as Data), group: Array(row[7] as Data))
        metadata = row[8]
        secret = row[9]
    }
}

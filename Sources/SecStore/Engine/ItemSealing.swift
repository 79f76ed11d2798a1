import Foundation

/// Seals and opens the two blobs of an item row. The associated data binds each blob to
/// its store, its item, its column, its class, its accessibility and every tag of its row,
/// so a blob copied to another row, column or store, or a row whose tags were edited, fails
/// to open and is reported as corruption.
enum ItemSealing {
    enum Column: UInt8 {
        case metadata = 0x6D  // "m"
        case secret = 0x73    // "s"
    }

    struct Binding {
        var storeID: [UInt8]
        var ref: [UInt8]
        var itemClass: ItemClass
        var accessibility: Accessibility
        var tags: ItemTags

        func associatedData(_ column: Column) -> [UInt8] {
            var ad = Array("secstore/item/v1".utf8)
            ad.reserveCapacity(ad.count + 16 + 16 + 3 + 32 + 3 * 17)
            ad += storeID
            ad += ref
            ad.append(column.rawValue)
            ad.append(itemClass.code)
            ad.append(accessibility.code)
            ad += tags.primaryKey
            for tag in [tags.name, tags.account, tags.group] {
                ad.append(UInt8(tag.count))
                ad += tag
            }
            return ad
        }
    }

    static func seal(_ plaintext: some ContiguousBytes, _ column: Column, binding: Binding, keys: ItemKeys) -> Data {
        AEAD.seal(plaintext, key: column == .metadata ? keys.metadata : keys.secret,
                  associatedData: binding.associatedData(column))
    }

    static func open(_ sealed: Data, _ column: Column, binding: Binding, keys: ItemKeys) throws -> Data {
        do {
            return try AEAD.open(sealed, key: column == .metadata ? keys.metadata : keys.secret,
                                 associatedData: binding.associatedData(column))
        } catch {
            let ref = PersistentReference(itemClass: binding.itemClass, id: binding.ref)
            let part = column == .metadata ? "attributes" : "secret"
            throw SecStoreError.corrupt("The \(part) of item \(ref.hexString)")
        }
    }
}

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

    private static let domain = Array("secstore/item/v1".utf8)
    /// Where the column byte sits in the associated data, so one buffer serves both blobs.
    static let columnOffset = domain.count + 16 + PersistentReference.idByteCount

    /// `"secstore/item/v1" ‖ storeID ‖ ref ‖ column ‖ class ‖ accessibility ‖ pk_tag
    /// ‖ len ‖ name_tag ‖ len ‖ account_tag ‖ len ‖ group_tag` (docs/design.md).
    static func associatedData(storeID: [UInt8], ref: UnsafeRawBufferPointer, column: Column, classCode: UInt8,
                               accessibilityCode: UInt8, primaryKey: UnsafeRawBufferPointer, name: UnsafeRawBufferPointer,
                               account: UnsafeRawBufferPointer, group: UnsafeRawBufferPointer) -> [UInt8] {
        var ad = domain
        ad.reserveCapacity(columnOffset + 3 + primaryKey.count + 3 + name.count + account.count + group.count)
        ad += storeID
        ad.append(contentsOf: ref)
        ad.append(column.rawValue)
        ad.append(classCode)
        ad.append(accessibilityCode)
        ad.append(contentsOf: primaryKey)
        for tag in [name, account, group] {
            ad.append(UInt8(truncatingIfNeeded: tag.count))  // lengths are validated when rows are read
            ad.append(contentsOf: tag)
        }
        return ad
    }

    /// The identity of a row as the write path knows it.
    struct Binding {
        var storeID: [UInt8]
        var ref: [UInt8]
        var itemClass: ItemClass
        var accessibility: Accessibility
        var tags: ItemTags

        func associatedData(_ column: Column) -> [UInt8] {
            ref.withUnsafeBytes { ref in
                tags.primaryKey.withUnsafeBytes { pk in
                    tags.name.withUnsafeBytes { name in
                        tags.account.withUnsafeBytes { account in
                            tags.group.withUnsafeBytes { group in
                                ItemSealing.associatedData(
                                    storeID: storeID, ref: ref, column: column, classCode: itemClass.code,
                                    accessibilityCode: accessibility.code, primaryKey: pk, name: name, account: account, group: group)
                            }
                        }
                    }
                }
            }
        }
    }

    static func seal(_ plaintext: some ContiguousBytes, _ column: Column, binding: Binding, keys: ItemKeys,
                     nonce: ArraySlice<UInt8>? = nil) -> Data {
        AEAD.seal(plaintext, key: key(column, keys), associatedData: binding.associatedData(column), nonce: nonce)
    }

    /// Opens a blob whose associated data the caller built (column byte already set).
    static func open(_ sealed: some ContiguousBytes, _ column: Column, associatedData: [UInt8], keys: ItemKeys,
                     reference: @autoclosure () -> PersistentReference) throws -> Data {
        do {
            return try AEAD.open(sealed, key: key(column, keys), associatedData: associatedData)
        } catch {
            throw SecStoreError.corrupt(column.part, of: reference())
        }
    }

    /// Opens a blob for `body` only, in a buffer wiped afterwards (``AEAD/withOpened(_:key:associatedData:_:)``).
    static func withOpened<T>(_ sealed: UnsafeRawBufferPointer, _ column: Column, associatedData: [UInt8], keys: ItemKeys,
                              reference: @autoclosure () -> PersistentReference,
                              _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        let outcome: Result<T, Error>
        do {
            outcome = .success(try AEAD.withOpened(sealed, key: key(column, keys), associatedData: associatedData, body))
        } catch is CryptoFailure {
            throw SecStoreError.corrupt(column.part, of: reference())
        }
        return try outcome.get()
    }

    /// Checks that a blob is authentic without decrypting it.
    static func verify(_ sealed: UnsafeRawBufferPointer, _ column: Column, associatedData: [UInt8], keys: ItemKeys,
                       reference: @autoclosure () -> PersistentReference) throws {
        guard AEAD.verify(sealed, key: key(column, keys), associatedData: associatedData) else {
            throw SecStoreError.corrupt(column.part, of: reference())
        }
    }

    static func open(_ sealed: Data, _ column: Column, binding: Binding, keys: ItemKeys) throws -> Data {
        try open(sealed, column, associatedData: binding.associatedData(column), keys: keys,
                 reference: PersistentReference(itemClass: binding.itemClass, id: binding.ref))
    }

    private static func key(_ column: Column, _ keys: ItemKeys) -> SecureBytes {
        column == .metadata ? keys.metadata : keys.secret
    }
}

extension ItemSealing.Column {
    /// The part of the item this column seals, as errors name it.
    var part: SecStoreError.ItemPart { self == .metadata ? .attributes : .secret }
}

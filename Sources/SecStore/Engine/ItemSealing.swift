import Foundation

/// Seals and opens the two blobs of an item row. The associated data binds each blob to
/// its store, its item, its column, its class, its accessibility and every tag of its row,
/// so a blob copied to another row, column or store, or a row whose tags were edited, fails
/// to open and is reported as corruption. In format version 2 the metadata's associated
/// data also names the secret blob's nonce, so the two blobs of one row version stay
/// together: an older secret put back beside newer metadata (or older metadata beside a
/// newer secret) fails to open, and every read authenticates both blobs.
enum ItemSealing {
    enum Column: UInt8 {
        case metadata = 0x6D  // "m"
        case secret = 0x73    // "s"
    }

    /// How a row's blobs are sealed: the `items.format` column.
    enum Format: Int64, Sendable {
        /// Rows written before format version 2: unpadded, each blob bound to the row only.
        case version1 = 1
        /// Padded plaintexts (``Padding``); the metadata bound to the secret's nonce.
        case version2 = 2

        /// What every write produces.
        static let current = Format.version2

        /// Made once: every read writes it into associated data.
        fileprivate var domain: [UInt8] {
            switch self {
            case .version1: Self.version1Domain
            case .version2: Self.version2Domain
            }
        }

        private static let version1Domain = Array("secstore/item/v1".utf8)
        private static let version2Domain = Array("secstore/item/v2".utf8)
    }

    /// Where the column byte sits in the associated data, so one buffer serves both blobs
    /// (both domains have the same length).
    static let columnOffset = Format.current.domain.count + 16 + PersistentReference.idByteCount

    /// `domain ‖ storeID ‖ ref ‖ column ‖ class ‖ accessibility ‖ pk_tag ‖ len ‖ name_tag
    /// ‖ len ‖ account_tag ‖ len ‖ group_tag`, then for the metadata of a version-2 row the
    /// secret blob's nonce (docs/design.md). Built for the metadata column;
    /// ``switchToSecret(_:format:)`` turns it into the secret's.
    static func associatedData(format: Format, storeID: [UInt8], ref: UnsafeRawBufferPointer, classCode: UInt8,
                               accessibilityCode: UInt8, primaryKey: UnsafeRawBufferPointer, name: UnsafeRawBufferPointer,
                               account: UnsafeRawBufferPointer, group: UnsafeRawBufferPointer,
                               secretBlob: UnsafeRawBufferPointer) -> [UInt8] {
        var ad: [UInt8] = []
        write(&ad, format: format, storeID: storeID, ref: ref, classCode: classCode, accessibilityCode: accessibilityCode,
              primaryKey: primaryKey, name: name, account: account, group: group, secretBlob: secretBlob)
        return ad
    }

    /// ``associatedData(format:storeID:ref:classCode:accessibilityCode:primaryKey:name:account:group:secretBlob:)``
    /// written over `ad`, reusing its storage: a search builds one per row it opens.
    static func write(_ ad: inout [UInt8], format: Format, storeID: [UInt8], ref: UnsafeRawBufferPointer, classCode: UInt8,
                      accessibilityCode: UInt8, primaryKey: UnsafeRawBufferPointer, name: UnsafeRawBufferPointer,
                      account: UnsafeRawBufferPointer, group: UnsafeRawBufferPointer, secretBlob: UnsafeRawBufferPointer) {
        let column = Column.metadata
        ad.removeAll(keepingCapacity: true)
        ad.reserveCapacity(columnOffset + 3 + primaryKey.count + 3 + name.count + account.count + group.count + AEAD.nonceByteCount)
        ad += format.domain
        ad += storeID
        ad.append(contentsOf: ref)
        ad.append(column.rawValue)
        ad.append(classCode)
        ad.append(accessibilityCode)
        ad.append(contentsOf: primaryKey)
        // Each tag after its length (lengths are validated when rows are read); not looped
        // over an array of the three, which would be allocated for every row read.
        func appendWithLength(_ tag: UnsafeRawBufferPointer) {
            ad.append(UInt8(truncatingIfNeeded: tag.count))
            ad.append(contentsOf: tag)
        }
        appendWithLength(name)
        appendWithLength(account)
        appendWithLength(group)
        if format == .version2 {
            // A blob too short to hold a nonce fails to open anyway; bind what is there.
            ad.append(contentsOf: UnsafeRawBufferPointer(rebasing: secretBlob.prefix(AEAD.nonceByteCount)))
        }
    }

    /// Turns the metadata's associated data into the secret's, in place.
    static func switchToSecret(_ ad: inout [UInt8], format: Format, secretBlob: UnsafeRawBufferPointer) {
        ad[columnOffset] = Column.secret.rawValue
        if format == .version2 { ad.removeLast(min(secretBlob.count, AEAD.nonceByteCount)) }
    }

    /// The identity of a row: what the write path seals under, and what whole-store scans
    /// open a stored row with.
    struct Binding {
        var storeID: [UInt8]
        var ref: [UInt8]
        var itemClass: ItemClass
        var accessibility: Accessibility
        var tags: ItemTags
        var format: Format = .current
        /// The secret blob, or at least its nonce (its first 24 bytes): version-2 metadata names it.
        var secretNonce: [UInt8] = []

        func associatedData(_ column: Column) -> [UInt8] {
            ref.withUnsafeBytes { ref in
                tags.primaryKey.withUnsafeBytes { pk in
                    tags.name.withUnsafeBytes { name in
                        tags.account.withUnsafeBytes { account in
                            tags.group.withUnsafeBytes { group in
                                secretNonce.withUnsafeBytes { secret in
                                    var ad = ItemSealing.associatedData(
                                        format: format, storeID: storeID, ref: ref, classCode: itemClass.code,
                                        accessibilityCode: accessibility.code, primaryKey: pk, name: name, account: account,
                                        group: group, secretBlob: secret)
                                    if column == .secret { ItemSealing.switchToSecret(&ad, format: format, secretBlob: secret) }
                                    return ad
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Seals `plaintext`, padded, in the current format. The binding of a metadata blob
    /// must carry the nonce of the secret blob sealed (or kept) beside it.
    static func seal(_ plaintext: some ContiguousBytes, _ column: Column, binding: Binding, keys: ItemKeys,
                     nonce: ArraySlice<UInt8>? = nil) -> Data {
        precondition(binding.format == .current, "writes seal in the current format")
        var padded = plaintext.withUnsafeBytes(Padding.pad)
        defer { Wipe.bytes(&padded) }
        return AEAD.seal(padded, key: key(column, keys), associatedData: binding.associatedData(column), nonce: nonce)
    }

    /// Opens a blob whose associated data the caller built (column already set): the
    /// plaintext, without its padding, copied once out of the wiped buffer it is opened into.
    static func open(_ sealed: some ContiguousBytes, _ column: Column, format: Format, associatedData: [UInt8], keys: ItemKeys,
                     reference: @autoclosure () -> PersistentReference) throws -> Data {
        try sealed.withUnsafeBytes { sealed in
            try withOpened(sealed, column, format: format, associatedData: associatedData, keys: keys,
                           reference: reference()) { plain in
                plain.isEmpty ? Data() : Data(bytes: plain.baseAddress!, count: plain.count)
            }
        }
    }

    /// Opens a blob for `body` only, in a buffer wiped afterwards (``AEAD/withOpened(_:key:associatedData:_:)``).
    static func withOpened<T>(_ sealed: UnsafeRawBufferPointer, _ column: Column, format: Format, associatedData: [UInt8],
                              keys: ItemKeys, reference: @autoclosure () -> PersistentReference,
                              _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        let outcome: Result<T, Error>
        do {
            outcome = .success(try AEAD.withOpened(sealed, key: key(column, keys), associatedData: associatedData) { plain in
                guard format == .version2 else { return try body(plain) }
                guard let length = Padding.unpaddedLength(plain) else { throw CryptoFailure.malformedCiphertext }
                return try body(UnsafeRawBufferPointer(rebasing: plain.prefix(length)))
            })
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
        try open(sealed, column, format: binding.format, associatedData: binding.associatedData(column), keys: keys,
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

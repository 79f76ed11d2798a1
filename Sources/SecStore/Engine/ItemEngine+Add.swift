import Foundation
internal import GRDB

extension ItemEngine {
    /// A row ready to insert: validated, defaulted, tagged and sealed.
    struct PreparedItem {
        var row: ItemRow
        var attributes: Attributes
        var metadata: Data
        var secret: Data
    }

    /// Seals a new row for complete attributes (group, accessibility, `sync` and dates set).
    func sealNewRow(_ itemClass: ItemClass, attributes: Attributes, secret: Data, in db: Database) throws -> PreparedItem {
        let attributes = AttributeRules.fillingPrimaryKeyDefaults(attributes, for: itemClass)
        let accessibility = attributes.accessibility ?? .whenUnlocked
        if let flags = attributes.accessControlFlags {
            try AccessControlRules.checkNewItem(flags, storeHasPassphrase: vault.hasPassphrase)
        }
        let keys = try vault.itemKeys(for: accessibility, in: db)
        try vault.checkClassExists(accessibility, in: db)
        // The reference's random half and both nonces in one draw from the system's CSPRNG.
        let random = try SecureRandom.bytes(StoredItem.referenceCheckByteCount + 2 * AEAD.nonceByteCount)
        let id = try ItemsTable.nextRowID(in: db)
        let stored = StoredItem(id: id, ref: StoredItem.reference(id: id, check: random.prefix(StoredItem.referenceCheckByteCount)),
                                itemClass: itemClass, accessibility: accessibility)
        let row = ItemRow(stored: stored, tags: planner.groupTags.tags(for: itemClass, attributes: attributes))
        return try seal(row: row, attributes: attributes, secret: secret, keys: keys,
                        nonces: random.dropFirst(StoredItem.referenceCheckByteCount))
    }

    /// Seals both blobs of `row` in the current format: the secret first, then the metadata,
    /// whose associated data names the secret's nonce.
    ///
    /// - Parameter nonces: 48 fresh random bytes, the metadata's nonce then the secret's; drawn
    ///   here, in one call to the system's CSPRNG (each is a system call), when `nil`.
    func seal(row: ItemRow, attributes: Attributes, secret: Data, keys: ItemKeys,
              nonces: ArraySlice<UInt8>? = nil) throws -> PreparedItem {
        var row = row
        row.stored.format = .current
        row.secret = nil
        let nonces = try nonces ?? SecureRandom.bytes(2 * AEAD.nonceByteCount)[...]
        let metadataNonce = nonces.prefix(AEAD.nonceByteCount)
        let secretNonce = nonces.dropFirst(AEAD.nonceByteCount)
        let sealedSecret = ItemSealing.seal(secret, .secret, binding: row.binding(storeID: vault.storeID), keys: keys, nonce: secretNonce)
        return PreparedItem(
            row: row, attributes: attributes,
            metadata: sealMetadata(attributes, row: row, besideSecret: sealedSecret, keys: keys, nonce: metadataNonce),
            secret: sealedSecret)
    }

    /// Seals attributes in the current format, bound to the secret blob kept beside them
    /// (its first 24 bytes, the nonce, are enough).
    func sealMetadata(_ attributes: Attributes, row: ItemRow, besideSecret secretBlob: some DataProtocol, keys: ItemKeys,
                      nonce: ArraySlice<UInt8>? = nil) -> Data {
        var binding = row.binding(storeID: vault.storeID)
        binding.format = .current
        binding.secretNonce = Array(secretBlob.prefix(AEAD.nonceByteCount))
        var plain = MetadataCodec.encode(attributes)
        defer { Wipe.bytes(&plain) }
        return ItemSealing.seal(plain, .metadata, binding: binding, keys: keys, nonce: nonce)
    }

    /// Inserts a prepared item, and queues it for sync when it syncs (``SyncJournal``), in the
    /// same transaction. A primary-key collision is `duplicateItem` and writes nothing.
    func insert(_ prepared: PreparedItem, in db: Database) throws {
        try ItemsTable.insert(prepared.row, metadata: prepared.metadata, secret: prepared.secret, digest: vault.itemsDigest, in: db)
        if SyncJournal.isEligible(prepared.attributes) {
            try SyncJournal.noteChanged(itemID: prepared.row.id, eligible: true, now: Date(), in: db)
        }
    }
}

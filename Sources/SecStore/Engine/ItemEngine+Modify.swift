import Foundation
internal import GRDB

extension ItemEngine {
    /// Validated changes for an update.
    struct PreparedChanges {
        var attributes: Attributes
        var data: Data?
        /// ``ItemChanges/customAttributes``: the new free-form pairs, or `nil` to keep each item's.
        var customAttributes: [String: String]?
        /// True when the changes alter a row's tags or class key: its secret is then sealed
        /// again, since the secret's associated data names them.
        var rebindsRow: Bool
    }

    /// Binds validated changes to the store: the class key of a new accessibility must
    /// exist, and a change of a primary-key attribute or of the accessibility re-seals the
    /// secret.
    func bind(_ changes: ItemChanges, of itemClass: ItemClass, in db: Database) throws -> PreparedChanges {
        if let flags = changes.attributes.accessControlFlags {
            try AccessControlRules.checkNewItem(flags, storeHasPassphrase: vault.hasPassphrase)
        }
        if let accessibility = changes.attributes.accessibility {
            _ = try vault.itemKeys(for: accessibility, in: db)
            try vault.checkClassExists(accessibility, in: db)
        }
        let bindingKeys = Set(itemClass.primaryKey + [.accessible])
        return PreparedChanges(attributes: changes.attributes, data: changes.data, customAttributes: changes.customAttributes,
                               rebindsRow: changes.attributes.keys.contains(where: bindingKeys.contains))
    }

    /// Applies `changes` to every item `plan` matches, in the caller's transaction, and
    /// returns how many changed (0 when nothing matched). A collision on a primary key is
    /// `duplicateItem`; the caller's rollback undoes all.
    func update(_ plan: QueryPlan, with changes: PreparedChanges, in db: Database, now: Date) throws -> Int {
        // Free-form tags name the class and `sync`: new pairs, or a new `sync`, need new tags.
        let retagsCustom = changes.customAttributes != nil || changes.rebindsRow
        var matches = try matchesForUpdate(plan, changes, in: db)
        // The secrets opened to be sealed again are this function's to wipe.
        defer { matches.zeroSecrets() }
        guard !matches.isEmpty else { return 0 }
        for match in matches {
            guard var attributes = match.attributes else { continue }
            guard let stored = match.stored, let contribution = match.contribution else {
                throw SecStoreError(.storeUnavailable, "An update did not keep the row it must replace; nothing was changed. This is a SecStore defect: please report it.")
            }
            let previous = attributes[.modificationDate]?.dateValue ?? .distantPast
            attributes = attributes.merging(changes.attributes)
            if let custom = changes.customAttributes { attributes.custom = custom }
            attributes[.modificationDate] = .date(max(now, previous.addingTimeInterval(0.000_001)))
            var item = match.item
            item.accessibility = attributes.accessibility ?? item.accessibility
            let row = ItemRow(stored: item, tags: tags(of: match, stored, attributes, changes))
            let keys = try vault.itemKeys(for: row.accessibility, in: db)
            if !Self.resealsSecret(of: match.item, changes) {
                let metadata = sealMetadata(attributes, row: row, besideSecret: stored.secretBlob, keys: keys)
                try ItemsTable.updateMetadata(row, metadata: metadata, secretBlob: stored.secretBlob, previous: contribution,
                                              digest: vault.itemsDigest, in: db)
            } else {
                // Opened by find for exactly these rows (needs(forUpdating:)); never an empty stand-in.
                guard let secret = changes.data ?? match.secret else {
                    throw SecStoreError(.storeUnavailable, "An update could not read the secret of an item it must seal again; nothing was changed. This is a SecStore defect: please report it.")
                }
                let prepared = try seal(row: row, attributes: attributes, secret: secret, keys: keys)
                if !changes.rebindsRow && match.item.format == .current {
                    // Same primary key and class: the same tags, so the indexes stay untouched.
                    try ItemsTable.updateBlobs(prepared.row, metadata: prepared.metadata, secret: prepared.secret,
                                               previous: contribution, digest: vault.itemsDigest, in: db)
                } else {
                    try ItemsTable.updateSealedRow(prepared.row, metadata: prepared.metadata, secret: prepared.secret,
                                                   previous: contribution, digest: vault.itemsDigest, in: db)
                }
            }
            if retagsCustom { try ItemsTable.replaceCustomTags(row.tags.custom, id: row.id, in: db) }
            try SyncJournal.noteChanged(itemID: row.id, eligible: SyncJournal.isEligible(attributes), now: now, in: db)
        }
        return matches.count
    }

    /// The tags of an updated row. A change that keeps the primary key and the accessibility
    /// (so the class and `sync` too) keeps the row's tags: they are the stored ones, already
    /// authenticated with its blobs, and are not computed again; only free-form tags are, when
    /// the pairs change. A row of an older format has all its tags computed afresh.
    private func tags(of match: Found, _ stored: StoredRow, _ attributes: Attributes, _ changes: PreparedChanges) -> ItemTags {
        guard !changes.rebindsRow, match.item.format == .current else {
            return planner.groupTags.tags(for: match.item.itemClass, attributes: attributes)
        }
        var tags = stored.tags
        if changes.customAttributes != nil {
            tags.custom = vault.indexer.customTags(for: match.item.itemClass, attributes: attributes)
        }
        return tags
    }

    /// Whether an update seals a row's secret again: a new secret, a change the secret's
    /// associated data names (primary key, accessibility), or a row in an older format (sealed
    /// again whole). Otherwise only the metadata is sealed again, beside the same secret blob.
    static func resealsSecret(of item: StoredItem, _ changes: PreparedChanges) -> Bool {
        changes.data != nil || changes.rebindsRow || item.format != .current
    }

    /// What an update opens of each match: its attributes, and its secret only where
    /// ``resealsSecret(of:_:)`` seals the old secret again. An update of attributes alone
    /// never decrypts a secret.
    static func needs(forUpdating changes: PreparedChanges) -> Needs {
        Needs(attributes: true, secret: changes.data == nil && changes.rebindsRow, changes: true,
              secretOfOlderFormats: changes.data == nil, keepsStoredRow: true)
    }

    /// The items an update changes, opened as ``needs(forUpdating:)`` says.
    func matchesForUpdate(_ plan: QueryPlan, _ changes: PreparedChanges, in db: Database) throws -> [Found] {
        try find(plan, in: db, needs: Self.needs(forUpdating: changes), limit: nil)
    }

    /// Deletes every item `plan` matches, in the caller's transaction, and returns how many
    /// (0 when nothing matched). Each row is authenticated first: a damaged row is reported,
    /// never silently removed.
    func delete(_ plan: QueryPlan, in db: Database) throws -> Int {
        let matches = try find(plan, in: db, needs: Needs(keepsContribution: true), limit: nil)
        for match in matches {
            try ItemsTable.delete(id: match.item.id, previous: match.contribution, digest: vault.itemsDigest, in: db)
        }
        return matches.count
    }
}

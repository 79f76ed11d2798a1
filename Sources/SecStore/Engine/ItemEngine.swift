import Foundation
internal import GRDB

/// The machinery behind ``SecretStore``: it owns the database, the keys and the caller's
/// access, and runs every item operation inside one SQLite statement or transaction.
final class ItemEngine: Sendable {
    let database: StoreDatabase
    let vault: KeyVault
    let access: StoreAccess
    let rules: AccessRules
    let planner: QueryPlanner

    init(database: StoreDatabase, vault: KeyVault, access: StoreAccess) {
        self.database = database
        self.vault = vault
        self.access = access
        rules = AccessRules(access)
        planner = QueryPlanner(indexer: vault.indexer, rules: rules)
    }

    /// An item a query matched, opened as far as the caller needs.
    struct Found {
        var item: StoredItem
        var attributes: Attributes?
        var secret: Data?
        /// A row that failed authentication, kept only when ``Needs/reportsDamage``.
        var isDamaged = false
        /// The row's tags and sealed secret as the file holds them, kept when
        /// ``Needs/keepsStoredRow``.
        var stored: StoredRow?
        /// The row's contribution to the items digest (``ItemsDigest``), kept when
        /// ``Needs/keepsStoredRow`` or ``Needs/keepsContribution``: taken out when the caller
        /// replaces or deletes the row in the same transaction, without reading it again.
        var contribution: [UInt8]?
    }

    /// What an update of a matched row needs of it as the file holds it, in the same
    /// transaction, without reading the row again.
    struct StoredRow {
        /// Its tags (no free-form ones): an update that keeps them seals against these.
        var tags: ItemTags
        /// Its sealed secret: new metadata sealed beside it names its nonce, and the row's
        /// new contribution to the digest covers it.
        var secretBlob: [UInt8]
    }

    /// What to open of each matched row.
    struct Needs {
        var attributes = false
        var secret = false
        /// The caller changes the item: its access control must allow it, as for reading the secret.
        var changes = false
        /// A row that fails authentication is returned as damaged instead of failing the
        /// whole call (the `secstore` tool's listing; never Apple's API).
        var reportsDamage = false
        /// The secret of rows sealed in an older format only: an update that keeps each
        /// item's secret seals those rows again whole, and leaves the others' secrets sealed.
        var secretOfOlderFormats = false
        /// Each match's ``StoredRow`` and digest contribution: the caller replaces the rows.
        var keepsStoredRow = false
        /// Each match's digest contribution: the caller deletes the rows.
        var keepsContribution = false

        /// Whether a row's secret is decrypted and returned.
        func opensSecret(of item: StoredItem) -> Bool {
            secret || (secretOfOlderFormats && item.format != .current)
        }

        /// Whether any row's secret may be decrypted: the matches then hold secrets, which
        /// the array holding them must not leave behind when it grows (``HoldsSecret``).
        var opensAnySecret: Bool { secret || secretOfOlderFormats }

        /// Whether each match's access control (``AccessControlRules``) must be checked.
        var checksAccessControl: Bool { secret || changes }
    }

    /// Starts a write: another process may have changed the key rows since this handle last
    /// read them (a passphrase set, removed, or a class key replaced).
    func beginWrite(_ db: Database) throws {
        try vault.reloadIfChanged(db)
    }

    /// Runs `plan` and opens each row. Both blobs of every matched row are authenticated,
    /// whatever the caller asked for, so a damaged item never answers a query: it fails the
    /// call with `corruptData`. Rows whose class is locked fail it with
    /// `interactionNotAllowed`, as on Apple systems.
    func find(_ plan: QueryPlan, in db: Database, needs: Needs, limit: Int?) throws -> [Found] {
        try find(plan, on: SearchConnection(onQueue: db), needs: needs, limit: limit)
    }

    /// ``find(_:in:needs:limit:)`` on a connection the search holds for itself
    /// (``StoreDatabase/readStatement(_:)``). A row too malformed to be an item (an unknown
    /// class, accessibility or format byte, malformed tags or reference) fails the search
    /// with `corruptData`, or, when `malformed` is given (searches that report damage), is
    /// handed to it with its reference when that much is readable, and the search goes on.
    func find(_ plan: QueryPlan, on connection: SearchConnection, needs: Needs, limit: Int?,
              malformed: ((PersistentReference?) -> Void)? = nil) throws -> [Found] {
        try find(plan, on: connection, needs: needs, limit: limit, malformed: malformed) { $0 }
    }

    /// ``find(_:on:needs:limit:malformed:)``, each match handed to `result` as it is found and
    /// the results returned: a search that answers with ``Item``s makes each one at once,
    /// without keeping a ``Found`` for it (a listing's matches were copied twice, once to
    /// sort them and once into their items).
    func find<Match: HoldsSecret>(_ plan: QueryPlan, on connection: SearchConnection, needs: Needs, limit: Int?,
                     malformed: ((PersistentReference?) -> Void)? = nil,
                     result: (consuming Found) -> Match) throws -> [Match] {
        let decodeAttributes = needs.attributes || plan.needsAttributes
        let shape = planner.shape(of: plan, limit: limit)
        // When the matches hold secrets, each block the array leaves as it grows has its short
        // secrets zeroed (``HoldsSecret``).
        let zeroesWhatItLeaves = needs.opensAnySecret
        var found: [Match] = []
        // Each match's row id, for the matches of a statement that does not return them in id
        // order: sorted afterwards (``Shape/unordered``).
        var ids: [Int64] = []
        // The class keys of the last row: a listing's rows nearly all share a class, so the
        // vault (a lock and a lookup) is asked once per class rather than once per row.
        var lastKeys: (accessibility: Accessibility, keys: ItemKeys)?
        // One associated-data buffer for every row: rewritten, never reallocated.
        var ad: [UInt8] = []
        try ItemsTable.select(shape, text: { planner.sql(for: shape) }, arguments: plan.arguments, on: connection) { row in
            guard let item = row.item else {
                guard let malformed else { throw StoredItem.damagedRow(row.id, database.path) }
                malformed(row.readableReference)
                return true
            }
            do {
                ItemSealing.write(
                    &ad, format: item.format, storeID: vault.storeID, ref: row.ref, classCode: item.itemClass.code,
                    accessibilityCode: item.accessibility.code, primaryKey: row.primaryKeyTag, name: row.nameTag,
                    account: row.accountTag, group: row.groupTag, secretBlob: row.secret)
                var keys = try lastKeys.flatMap { $0.accessibility == item.accessibility ? $0.keys : nil }
                    ?? vault.itemKeys(for: item.accessibility, on: connection)
                // Kept after this row's opens: a retry may have replaced them with reloaded keys.
                defer { lastKeys = (item.accessibility, keys) }
                // Attributes that are not needed are authenticated without being decrypted.
                var attributes: Attributes?
                var flags: AccessControlFlags?
                if decodeAttributes {
                    // Decoded straight from the wiped buffer the blob is opened into: the
                    // plaintext is never copied to the heap.
                    attributes = try withRetry(&keys, item, connection) { keys in
                        try ItemSealing.withOpened(row.metadata, .metadata, format: item.format, associatedData: ad, keys: keys,
                                                   reference: item.persistentReference, MetadataCodec.decode(_:))
                    }
                    flags = attributes?.accessControlFlags
                } else if needs.checksAccessControl {
                    // Only the flags are needed: read in a wiped stack buffer, nothing allocated.
                    flags = try withRetry(&keys, item, connection) { keys in
                        try ItemSealing.withOpened(row.metadata, .metadata, format: item.format, associatedData: ad, keys: keys,
                                                   reference: item.persistentReference, MetadataCodec.accessControlFlags(in:))
                    }
                } else {
                    _ = try open(row.metadata, .metadata, ad, item, &keys, connection, decrypt: false)
                }
                let matches = attributes.map { Self.satisfies($0, plan) } ?? true
                // Access control before the secret is decrypted: a refused item's secret never is.
                if matches && needs.checksAccessControl, let flags {
                    try AccessControlRules.checkUse(flags, passphraseProvenAt: vault.passphraseProvenAt)
                }
                ItemSealing.switchToSecret(&ad, format: item.format, secretBlob: row.secret)
                let opensSecret = needs.opensSecret(of: item)
                var secret = try open(row.secret, .secret, ad, item, &keys, connection, decrypt: opensSecret && matches)
                guard matches else { return true }
                if !opensSecret { Wipe.data(&secret) }
                if shape.unordered { ids.append(item.id) }
                found.append(result(Found(item: item, attributes: attributes, secret: opensSecret ? secret : nil,
                                          stored: needs.keepsStoredRow ? StoredRow(tags: row.tags, secretBlob: Array(row.secret)) : nil,
                                          contribution: needs.keepsStoredRow || needs.keepsContribution ? vault.itemsDigest.hash(row) : nil)),
                             zeroingWhatItLeaves: zeroesWhatItLeaves)
                return limit.map { found.count < $0 } ?? true
            } catch let error as SecStoreError where needs.reportsDamage && error.code == .corruptData {
                if shape.unordered { ids.append(item.id) }
                found.append(result(Found(item: item, attributes: nil, secret: nil, isDamaged: true)), zeroingWhatItLeaves: zeroesWhatItLeaves)
                return true
            }
        }
        // Results come in id order whatever the statement's order (``QueryPlan/Shape/unordered``).
        return shape.unordered ? Self.sorted(&found, byID: ids) : found
    }

    /// `found` in the order of their row `ids`. The ids are sorted with their positions, and
    /// each match is moved once: sorting the matches themselves moved and copied every one
    /// about log₂ n times (a listing of 1,000 items spent 8 % of its time there). The short
    /// secrets `found` holds inline are zeroed once they are copied into the sorted array.
    private static func sorted<Match: HoldsSecret>(_ found: inout [Match], byID ids: [Int64]) -> [Match] {
        // Often already in order: an index's entries for one key are in row id order.
        guard !ids.indices.dropFirst().allSatisfy({ ids[$0 - 1] < ids[$0] }) else { return found }
        var order = ids.indices.map { (id: ids[$0], index: $0) }
        order.sort { $0.id < $1.id }
        let sorted = order.map { found[$0.index] }
        found.zeroInlineSecrets()
        return sorted
    }

    /// Opens a blob; when that fails because another process replaced this class's key
    /// (the key rows changed since this handle read them), reloads the keys and tries again.
    /// Returns empty data when `decrypt` is false (the blob is then only authenticated).
    private func open(_ sealed: UnsafeRawBufferPointer, _ column: ItemSealing.Column, _ ad: [UInt8], _ item: StoredItem,
                      _ keys: inout ItemKeys, _ connection: SearchConnection, decrypt: Bool) throws -> Data {
        func attempt(_ keys: ItemKeys) throws -> Data {
            guard decrypt else {
                try ItemSealing.verify(sealed, column, associatedData: ad, keys: keys, reference: item.persistentReference)
                return Data()
            }
            return try ItemSealing.open(sealed, column, format: item.format, associatedData: ad, keys: keys,
                                        reference: item.persistentReference)
        }
        return try withRetry(&keys, item, connection, attempt)
    }

    /// Runs `body` with the class's keys; when it fails because another process replaced
    /// the class key (the key rows changed since this handle read them), reloads the keys
    /// and runs it once more.
    private func withRetry<T>(_ keys: inout ItemKeys, _ item: StoredItem, _ connection: SearchConnection,
                              _ body: (ItemKeys) throws -> T) throws -> T {
        do {
            return try body(keys)
        } catch {
            guard try connection.withDatabase({ try vault.reloadIfChanged($0) }) else { throw error }
            keys = try vault.itemKeys(for: item.accessibility, on: connection)
            return try body(keys)
        }
    }

    private static func satisfies(_ attributes: Attributes, _ plan: QueryPlan) -> Bool {
        if let syncs = plan.syncFilter, !syncs.contains(attributes[.synchronizable]?.boolValue ?? false) {
            return false
        }
        if let host = plan.hostOrSubdomain, !AttributeRules.isHostOrSubdomain(attributes[.server], of: host) {
            return false
        }
        // Free-form pairs match exactly (bytes, never case-folded): their tags found candidate rows only.
        for (name, wanted) in plan.attributeFilters.custom {
            guard let value = attributes.custom[name], UTF8Bytes.equal(value, wanted) else { return false }
        }
        for (key, wanted) in plan.attributeFilters {
            let caseInsensitive = plan.caseInsensitive && key != .accessGroup
            if !AttributeRules.matches(attributes[key], wanted, key: key, caseInsensitive: caseInsensitive) {
                return false
            }
        }
        return true
    }
}

import Foundation
internal import GRDB

/// Walks every item row of a store, for the owner's whole-store operations (verify,
/// statistics, export). Rows stream through a cursor: memory stays flat with store size.
struct RowScanner {
    let engine: ItemEngine

    /// Whole-store operations act for the Unix user who owns the file.
    static func requireOwner(_ access: StoreAccess, _ operation: String) throws {
        guard case .owner = access else {
            throw SecStoreError(.missingEntitlement, "\(operation) covers every access group, so it needs owner access. Open the store with `StoreAccess.owner` (the `secstore` tool does).")
        }
    }

    func count(in db: Database) throws -> Int {
        try ItemsTable.count(in: db)
    }

    /// Calls `body` with each row, blobs included, in id order. A row too malformed to read
    /// (unknown class, bad reference or tag lengths) fails the walk with `corruptData`, or
    /// goes to `malformed` when given: its id, and its reference when that much is readable.
    ///
    /// Returns whether the rows walked match the store's items digest (``ItemsDigest``):
    /// false when rows were deleted, reverted or copied in behind SecStore's back.
    @discardableResult
    func forEachRow(in db: Database, malformed: ((Int64, PersistentReference?) throws -> Void)? = nil,
                    _ body: (ItemRow) throws -> Void) throws -> Bool {
        try engine.vault.reloadIfChanged(db)
        let digest = engine.vault.itemsDigest
        var sum = MultisetDigest.empty
        try ItemsTable.forEachRow(in: db) { view in
            sum.add(digest.hash(view))
            let row: ItemRow
            do {
                row = try view.copy(path: engine.database.path)
            } catch let error as SecStoreError where error.code == .corruptData && malformed != nil {
                try malformed?(view.id, view.readableReference)
                return
            }
            try body(row)
        }
        return try ItemsDigest.stored(in: db) == sum
    }

    /// Opens both blobs of `row`. Throws `interactionNotAllowed` when its class is locked
    /// and `corruptData` when a blob fails authentication. With `checkingAccessControl`, the
    /// item's access control is applied first, as a read applies it (``AccessControlRules``):
    /// export and replacing an item hand out or drop its secret, so they need the same proof.
    func open(_ row: ItemRow, in db: Database, checkingAccessControl: Bool = false) throws -> (attributes: Attributes, secret: Data) {
        let attributes = try self.attributes(of: row, in: db)
        if checkingAccessControl, let flags = attributes.accessControlFlags {
            try AccessControlRules.checkUse(flags, passphraseProvenAt: engine.vault.passphraseProvenAt)
        }
        let keys = try engine.vault.itemKeys(for: row.accessibility, in: db)
        let secret = try ItemSealing.open(row.secret ?? Data(), .secret, binding: row.binding(storeID: engine.vault.storeID), keys: keys)
        return (attributes, secret)
    }

    /// Opens `row`'s attributes only: its secret is neither decrypted nor authenticated.
    func attributes(of row: ItemRow, in db: Database) throws -> Attributes {
        let keys = try engine.vault.itemKeys(for: row.accessibility, in: db)
        var plain = try ItemSealing.open(row.metadata ?? Data(), .metadata, binding: row.binding(storeID: engine.vault.storeID), keys: keys)
        defer { Wipe.data(&plain) }
        return try MetadataCodec.decode(plain)
    }
}

extension RowScanner {
    /// Whether the free-form attribute tags stored for `row` are exactly those of the pairs
    /// its authenticated `attributes` hold.
    func customTagsMatch(_ row: ItemRow, _ attributes: Attributes, in db: Database) throws -> Bool {
        let expected = Set(engine.vault.indexer.customTags(for: row.itemClass, attributes: attributes))
        let stored = try ItemsTable.customTags(id: row.id, in: db)
        return stored.count == expected.count && Set(stored) == expected
    }
}

/// How far a long operation has come, for progress bars.
///
/// ```swift
/// let report = try ownerStore.verify { progress in
///     print("\(Int(progress.fraction * 100))% of \(progress.total) items")
/// }
/// ```
public struct OperationProgress: Sendable, Hashable {
    /// Items processed so far.
    public var completed: Int
    /// Items the operation processes in all.
    public var total: Int

    /// `completed / total`, from 0 to 1; 1 when there is nothing to do.
    public var fraction: Double { total == 0 ? 1 : Double(completed) / Double(total) }
}

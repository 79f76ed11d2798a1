import Foundation
internal import GRDB

/// The keyed digest over every row of the `items` table (format version 2), kept in
/// `store.itemsDigest` and updated by ``ItemsTable`` with each write, in the same
/// transaction: O(1) work per row written.
///
/// `verify` and the other whole-store scans recompute it; a difference means rows were
/// deleted, reverted to an older version or copied in, inside the file, by something other
/// than SecStore. What it cannot see is the whole file (digest included) replaced by an
/// older copy: `docs/reliability.md` says what would close that.
struct ItemsDigest: Sendable {
    private let hasher: BlindIndexer
    /// The store's path, for messages.
    let path: String

    /// - Parameter key: from the master key, so only a holder of the device key can
    ///   compute a row's contribution.
    init(key: SecureBytes, path: String) {
        hasher = BlindIndexer(key: key)
        self.path = path
    }

    /// A row's contribution: keyed BLAKE2b-256 over every column as stored, each length-prefixed.
    func hash(_ row: ItemsTable.RowView) -> [UInt8] {
        var message = Array("secstore/row/v2".utf8)
        message.reserveCapacity(message.count + 64 + row.metadata.count + row.secret.count + 11 * 4)
        for value in [row.id, row.classCode, row.accessibilityCode, row.format] {
            message += withUnsafeBytes(of: value.bigEndian, Array.init)
        }
        for blob in [row.ref, row.primaryKeyTag, row.nameTag, row.accountTag, row.groupTag, row.metadata, row.secret] {
            message += withUnsafeBytes(of: UInt32(truncatingIfNeeded: blob.count).bigEndian, Array.init)
            message.append(contentsOf: blob)
        }
        return hasher.digest(message, byteCount: MultisetDigest.byteCount)
    }

    /// The digest of every row, recomputed from the file.
    func computed(in db: Database) throws -> MultisetDigest {
        var sum = MultisetDigest.empty
        try ItemsTable.forEachRow(in: db) { sum.add(hash($0)) }
        return sum
    }

    /// Whether the stored digest matches the rows as they are.
    func matches(in db: Database) throws -> Bool {
        guard let stored = try Self.stored(in: db) else { return false }
        return try computed(in: db) == stored
    }

    /// The digest the file records; `nil` when it is missing or malformed.
    static func stored(in db: Database) throws -> MultisetDigest? {
        guard let data = try Data.fetchOne(db, sql: "SELECT itemsDigest FROM store") else { return nil }
        return MultisetDigest(stored: Array(data))
    }

    /// How `verify` words a mismatch.
    static let mismatchProblem = "the items do not match the store's digest over them: items were deleted, reverted to an older version or copied in, inside the file, by something other than SecStore"

    static func save(_ digest: MultisetDigest, in db: Database) throws {
        try db.execute(sql: "UPDATE store SET itemsDigest = ?", arguments: [Data(digest.bytes)])
    }

    /// Records the rows as they are now: after a migration from version 1, and when the owner
    /// accepts a store whose digest no longer matches (`secstore verify --accept-current-items`).
    func reset(in db: Database) throws {
        try Self.save(try computed(in: db), in: db)
    }

    /// Runs `write`, which changes the rows with ids `ids` (inserts, replaces or deletes
    /// them), and moves the stored digest from their old versions to their new ones.
    /// Fails with `corruptData` when the stored digest is missing or malformed: writes
    /// cannot keep a digest that is already gone in step.
    func updating<T>(ids: [Int64], in db: Database, _ write: () throws -> T) throws -> T {
        guard var sum = try Self.stored(in: db) else {
            throw SecStoreError(.corruptData, "The store \(path) has lost the digest over its items, so it cannot tell whether items were removed or reverted. Run `secstore verify`; if it shows nothing else wrong, `secstore verify --accept-current-items` records the items as they are.")
        }
        for id in ids { try ItemsTable.withRow(id: id, in: db) { sum.remove(hash($0)) } }
        let result = try write()
        for id in ids { try ItemsTable.withRow(id: id, in: db) { sum.add(hash($0)) } }
        try Self.save(sum, in: db)
        return result
    }
}

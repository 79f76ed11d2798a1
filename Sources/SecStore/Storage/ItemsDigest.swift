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

    /// Keyed with a subkey of the master key (``MasterSubkeys/itemsDigestHasher``), so only a
    /// holder of the device key can compute a row's contribution.
    init(hasher: BlindIndexer, path: String) {
        self.hasher = hasher
        self.path = path
    }

    /// A row's contribution: keyed BLAKE2b-256 over every column as stored, each length-prefixed.
    func hash(_ row: ItemsTable.RowView) -> [UInt8] {
        hash(id: row.id, classCode: row.classCode, accessibilityCode: row.accessibilityCode, format: row.format) { message in
            // One call per column, not a loop over an array of them: that array would be
            // allocated for every row hashed.
            message.appendBlob(row.ref)
            message.appendBlob(row.primaryKeyTag)
            message.appendBlob(row.nameTag)
            message.appendBlob(row.accountTag)
            message.appendBlob(row.groupTag)
            message.appendBlob(row.metadata)
            message.appendBlob(row.secret)
        }
    }

    /// The contribution a row will have once written with these values: the columns of `row`
    /// and the two blobs (the same encoding as ``hash(_:)`` of the stored row, without reading
    /// it back). The blobs are the ones bound to the `INSERT` or `UPDATE`, or, for a blob the
    /// statement leaves as it is, the stored one.
    func hash(of row: ItemRow, metadata: Data, secret: some ContiguousBytes) -> [UInt8] {
        hash(id: row.id, classCode: Int64(row.itemClass.code), accessibilityCode: Int64(row.accessibility.code),
             format: row.format.rawValue) { message in
            message.appendBlob(row.ref)
            message.appendBlob(row.tags.primaryKey)
            message.appendBlob(row.tags.name)
            message.appendBlob(row.tags.account)
            message.appendBlob(row.tags.group)
            metadata.withUnsafeBytes { message.appendBlob($0) }
            secret.withUnsafeBytes { message.appendBlob($0) }
        }
    }

    /// `"secstore/row/v2" ‖ id ‖ class ‖ accessibility ‖ format (each i64 BE) ‖ what
    /// `writeBlobs` writes` (ref, the four tags, metadata and secret, each u32 BE length ‖
    /// bytes), written straight into the hash: the row is not copied into one message first.
    private func hash(id: Int64, classCode: Int64, accessibilityCode: Int64, format: Int64,
                      writeBlobs: (inout DigestWriter) -> Void) -> [UInt8] {
        hasher.digest(byteCount: MultisetDigest.byteCount) { message in
            message.append(contentsOf: Self.domain)
            message.append(bigEndian: id)
            message.append(bigEndian: classCode)
            message.append(bigEndian: accessibilityCode)
            message.append(bigEndian: format)
            writeBlobs(&message)
        }
    }

    private static let domain = Array("secstore/row/v2".utf8)

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
        var stored: MultisetDigest?
        // Cached statements: every item write reads and writes the digest.
        try SQLiteRows.forEach(try db.cachedStatement(sql: "SELECT itemsDigest FROM store"), arguments: [], in: db) { columns in
            stored = MultisetDigest(stored: Array(columns.bytes(0)))
            return false
        }
        return stored
    }

    /// How `verify` words a mismatch.
    static let mismatchProblem = "the items do not match the store's digest over them: items were deleted, reverted to an older version or copied in, inside the file, by something other than SecStore"

    static func save(_ digest: MultisetDigest, in db: Database) throws {
        try SQLiteRows.execute(try db.cachedStatement(sql: "UPDATE store SET itemsDigest = ?"), arguments: [.blob(digest.bytes)], in: db)
    }

    /// Records the rows as they are now: after a migration from version 1, and when the owner
    /// accepts a store whose digest no longer matches (`secstore verify --accept-current-items`).
    func reset(in db: Database) throws {
        try Self.save(try computed(in: db), in: db)
    }

    /// The contribution of row `id` as the file holds it; `nil` when there is no such row.
    /// For writers that did not find the row themselves in this transaction.
    func contribution(ofRow id: Int64, in db: Database) throws -> [UInt8]? {
        var found: [UInt8]?
        try ItemsTable.withRow(id: id, in: db) { found = hash($0) }
        return found
    }

    /// Fails with `corruptData` when the stored digest is missing or malformed: what every
    /// write checks first, also one that finds nothing to change.
    func checkWritable(in db: Database) throws {
        _ = try storedForWriting(in: db)
    }

    /// Runs `insert`, which adds one new row whose contribution is `rowHash`, and adds it to
    /// the stored digest. Nothing to subtract and nothing to read back.
    func inserting(_ rowHash: [UInt8], in db: Database, _ insert: () throws -> Void) throws {
        try moving(removing: nil, adding: rowHash, in: db, insert)
    }

    /// Runs `write`, which replaces the row whose contribution was `previous` (``hash(_:)``,
    /// taken in this transaction) by one whose contribution is `new`, or deletes it (`new`
    /// nil), and moves the stored digest accordingly: the caller knows both, so no row is read.
    /// Fails with `corruptData` when the stored digest is missing or malformed: writes cannot
    /// keep a digest that is already gone in step.
    func replacing<T>(_ previous: [UInt8], with new: [UInt8]?, in db: Database, _ write: () throws -> T) throws -> T {
        try moving(removing: previous, adding: new, in: db, write)
    }

    private func moving<T>(removing previous: [UInt8]?, adding new: [UInt8]?, in db: Database, _ write: () throws -> T) throws -> T {
        var sum = try storedForWriting(in: db)
        let result = try write()
        if let previous { sum.remove(previous) }
        if let new { sum.add(new) }
        try Self.save(sum, in: db)
        return result
    }

    private func storedForWriting(in db: Database) throws -> MultisetDigest {
        guard let sum = try Self.stored(in: db) else {
            throw SecStoreError(.corruptData, "The store \(path) has lost the digest over its items, so it cannot tell whether items were removed or reverted. Run `secstore verify`; if it shows nothing else wrong, `secstore verify --accept-current-items` records the items as they are.")
        }
        return sum
    }
}

private extension DigestWriter {
    /// One blob of a row's message: its length (u32 BE), then its bytes.
    mutating func appendBlob(_ blob: UnsafeRawBufferPointer) {
        append(bigEndian: UInt32(truncatingIfNeeded: blob.count))
        append(contentsOf: blob)
    }

    /// The same for a blob held in an array.
    mutating func appendBlob(_ blob: [UInt8]) {
        blob.withUnsafeBytes { appendBlob($0) }
    }
}

import CSodium
import Foundation
import GRDBSQLite

/// The floor SecStore is measured against: the least work a point read of an encrypted
/// secret can do. Its own SQLite file through the raw C API (no GRDB), a table
/// `(id INTEGER PRIMARY KEY, k BLOB, v BLOB)` with an index on `k`, WAL and
/// `synchronous=FULL` like a store; `v` is the XChaCha20-Poly1305 sealed secret
/// (`nonce ‖ ciphertext ‖ tag`, associated data `k`).
///
/// One read binds `k` to a prepared statement that is reused, steps it once, and opens `v`
/// into a reusable buffer: one B-tree lookup and one AEAD open, nothing else.
final class RawBaseline {
    let path: String
    private var db: OpaquePointer?
    private var select: OpaquePointer?
    private var insert: OpaquePointer?
    private var update: OpaquePointer?
    private var delete: OpaquePointer?
    private let aeadKey: UnsafeMutablePointer<UInt8>
    private let plaintext: UnsafeMutablePointer<UInt8>

    static let nonceByteCount = Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
    static let overhead = nonceByteCount + Int(crypto_aead_xchacha20poly1305_ietf_ABYTES)

    init(path: String) throws {
        self.path = path
        aeadKey = .allocate(capacity: Int(crypto_aead_xchacha20poly1305_ietf_KEYBYTES))
        randombytes_buf(aeadKey, Int(crypto_aead_xchacha20poly1305_ietf_KEYBYTES))
        plaintext = .allocate(capacity: 4096)
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            throw BenchmarkError("cannot open the baseline database \(path): \(message)")
        }
        try execute("""
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = FULL;
            CREATE TABLE IF NOT EXISTS items (id INTEGER PRIMARY KEY, k BLOB NOT NULL, v BLOB NOT NULL);
            CREATE INDEX IF NOT EXISTS items_by_k ON items(k);
            """)
        select = try prepare("SELECT v FROM items WHERE k = ?")
        insert = try prepare("INSERT INTO items (k, v) VALUES (?, ?)")
        update = try prepare("UPDATE items SET v = ? WHERE k = ?")
        delete = try prepare("DELETE FROM items WHERE k = ?")
    }

    deinit {
        sqlite3_finalize(select)
        sqlite3_finalize(insert)
        sqlite3_finalize(update)
        sqlite3_finalize(delete)
        sqlite3_close_v2(db)
        sodium_memzero(aeadKey, Int(crypto_aead_xchacha20poly1305_ietf_KEYBYTES))
        aeadKey.deallocate()
        plaintext.deallocate()
    }

    /// Inserts items `0..<count` in transactions of ``Workload/batchSize`` rows.
    func fill(count: Int) throws {
        var index = 0
        while index < count {
            try execute("BEGIN IMMEDIATE")
            let end = min(count, index + Workload.batchSize)
            while index < end {
                try insertRow(index)
                index += 1
            }
            try execute("COMMIT")
        }
    }

    /// One insert in its own (autocommit) transaction: a durable write, one WAL fsync.
    func durableInsert(_ index: Int) throws {
        try insertRow(index)
    }

    /// One update of item `index`'s sealed value (a new nonce) in its own transaction.
    func durableUpdate(_ index: Int) throws {
        let key = Workload.baselineKey(index)
        let sealed = seal(Workload.secret(index &+ 1), key: key)
        defer { sqlite3_reset(update) }
        let status = key.withUnsafeBytes { k in
            sealed.withUnsafeBytes { v in
                sqlite3_bind_blob(update, 1, v.baseAddress, Int32(v.count), nil)
                sqlite3_bind_blob(update, 2, k.baseAddress, Int32(k.count), nil)
                return sqlite3_step(update)
            }
        }
        guard status == SQLITE_DONE, sqlite3_changes(db) == 1 else { throw BenchmarkError("baseline update failed: \(message)") }
    }

    /// One delete of item `index` in its own transaction.
    func durableDelete(_ index: Int) throws {
        let key = Workload.baselineKey(index)
        defer { sqlite3_reset(delete) }
        let status = key.withUnsafeBytes { k in
            sqlite3_bind_blob(delete, 1, k.baseAddress, Int32(k.count), nil)
            return sqlite3_step(delete)
        }
        guard status == SQLITE_DONE, sqlite3_changes(db) == 1 else { throw BenchmarkError("baseline delete failed: \(message)") }
    }

    /// Looks up a key that is not in the table (16 bytes): one B-tree descent that finds
    /// nothing. Returns 1 for the miss, so the caller can count them.
    @inline(never)  // one symbol per read side, so profilers can attribute each
    func readMiss(key: UnsafePointer<UInt8>) throws -> UInt8 {
        defer { sqlite3_reset(select) }
        sqlite3_bind_blob(select, 1, key, Int32(Workload.keyByteCount), nil)  // nil = SQLITE_STATIC
        let status = sqlite3_step(select)
        guard status == SQLITE_DONE else {
            throw BenchmarkError("baseline: a key that was never inserted was found, or the lookup failed: \(message)")
        }
        return 1
    }

    /// Copies the write-ahead log into the database file and empties it
    /// (`PRAGMA wal_checkpoint(TRUNCATE)`), so that the file's size is the data's.
    func checkpoint() throws {
        try execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Reads and opens the secret stored under `key` (16 bytes); returns its first byte
    /// so the caller can fold it into a checksum the optimizer cannot drop.
    @inline(never)  // one symbol per read side, so profilers can attribute each
    func read(key: UnsafePointer<UInt8>) throws -> UInt8 {
        defer { sqlite3_reset(select) }
        sqlite3_bind_blob(select, 1, key, Int32(Workload.keyByteCount), nil)  // nil = SQLITE_STATIC
        guard sqlite3_step(select) == SQLITE_ROW else {
            throw BenchmarkError("baseline: no row for a key that was inserted: \(message)")
        }
        let count = Int(sqlite3_column_bytes(select, 0))
        guard count >= Self.overhead, count - Self.overhead <= 4096,
              let sealed = sqlite3_column_blob(select, 0)?.assumingMemoryBound(to: UInt8.self)
        else { throw BenchmarkError("baseline: malformed sealed value") }
        var written: UInt64 = 0
        let status = crypto_aead_xchacha20poly1305_ietf_decrypt(
            plaintext, &written, nil,
            sealed + Self.nonceByteCount, UInt64(count - Self.nonceByteCount),
            key, UInt64(Workload.keyByteCount),
            sealed, aeadKey)
        guard status == 0 else { throw BenchmarkError("baseline: a sealed value failed to open") }
        return plaintext[0]
    }

    /// Reads item `index` and checks its secret: the warm-up's correctness check.
    func verify(_ index: Int) throws {
        let key = Workload.baselineKey(index)
        _ = try key.withUnsafeBufferPointer { try read(key: $0.baseAddress!) }
        let expected = Workload.secret(index)
        guard (0..<expected.count).allSatisfy({ plaintext[$0] == expected[$0] }) else {
            throw BenchmarkError("baseline: item \(index) read back a different secret")
        }
    }

    /// `nonce ‖ ciphertext ‖ tag` of `secret`, associated data `key`.
    private func seal(_ secret: [UInt8], key: [UInt8]) -> [UInt8] {
        var sealed = [UInt8](repeating: 0, count: Self.overhead + secret.count)
        sealed.withUnsafeMutableBufferPointer { out in
            let base = out.baseAddress!
            randombytes_buf(base, Self.nonceByteCount)
            var written: UInt64 = 0
            _ = crypto_aead_xchacha20poly1305_ietf_encrypt(
                base + Self.nonceByteCount, &written, secret, UInt64(secret.count),
                key, UInt64(key.count), nil, base, aeadKey)
        }
        return sealed
    }

    private func insertRow(_ index: Int) throws {
        let key = Workload.baselineKey(index)
        let sealed = seal(Workload.secret(index), key: key)
        defer { sqlite3_reset(insert) }
        let status = key.withUnsafeBytes { k in
            sealed.withUnsafeBytes { v in
                sqlite3_bind_blob(insert, 1, k.baseAddress, Int32(k.count), nil)
                sqlite3_bind_blob(insert, 2, v.baseAddress, Int32(v.count), nil)
                return sqlite3_step(insert)
            }
        }
        guard status == SQLITE_DONE else { throw BenchmarkError("baseline insert failed: \(message)") }
    }

    private func execute(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchmarkError("baseline SQL failed (\(sql.prefix(40))…): \(message)")
        }
    }

    private func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK else {
            throw BenchmarkError("cannot prepare \(sql): \(message)")
        }
        return statement
    }

    private var message: String { db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory" }
}

/// The benchmark could not do its work (not a missed target: those are results).
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

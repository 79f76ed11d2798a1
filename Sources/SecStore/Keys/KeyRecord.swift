import Foundation
internal import GRDB

/// How a class key is wrapped in the `keys` table.
enum KeyProtection: Int64, Sendable {
    /// Under the class wrap key (from the master key): readable whenever the device key is.
    case device = 0
    /// Under a key that needs both the class wrap key and the passphrase.
    case passphrase = 1
}

/// The rows of the `keys` table: `master`, and `class.<accessibility>` per class.
struct KeyRecord {
    var name: String
    var protection: KeyProtection
    var sealed: Data
    /// The row's ``KeyTable`` binding (format version 2); `nil` for the master key and for
    /// a class row written but not yet bound in the same transaction.
    var binding: Data?

    static let masterName = "master"

    static func name(for accessibility: Accessibility) -> String { "class." + accessibility.rawValue }

    /// The class a `class.…` row belongs to; `nil` for the master key.
    var accessibility: Accessibility? {
        guard name.hasPrefix("class.") else { return nil }
        return Accessibility(rawValue: String(name.dropFirst("class.".count)))
    }

    static func fetch(_ db: Database, name: String) throws -> KeyRecord? {
        try fetchAll(db, sql: "SELECT name, protection, sealed, binding FROM keys WHERE name = ?", arguments: [name]).first
    }

    static func fetchClassKeys(_ db: Database) throws -> [KeyRecord] {
        try fetchAll(db, sql: "SELECT name, protection, sealed, binding FROM keys WHERE name LIKE 'class.%'", arguments: [])
    }

    private static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments) throws -> [KeyRecord] {
        try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
            guard let protection = KeyProtection(rawValue: row["protection"]) else {
                throw SecStoreError.corrupt("The key record \(row["name"] as String)")
            }
            return KeyRecord(name: row["name"], protection: protection, sealed: row["sealed"], binding: row["binding"])
        }
    }

    /// Binds a wrapped key to its store, its name and how it is protected.
    static func associatedData(storeID: [UInt8], name: String, protection: KeyProtection) -> [UInt8] {
        Array("secstore/key/v1".utf8) + storeID + Array(name.utf8) + [UInt8(protection.rawValue)]
    }

    /// Seals `key` under `wrappingKey` and writes the row (insert or replace), unbound: the
    /// transaction that writes class rows ends with ``KeyTable/bindAll(_:)``.
    static func write(_ db: Database, name: String, protection: KeyProtection, key: SecureBytes,
                      wrappingKey: SecureBytes, storeID: [UInt8]) throws {
        let ad = associatedData(storeID: storeID, name: name, protection: protection)
        let sealed = key.withUnsafeBytes { AEAD.seal($0, key: wrappingKey, associatedData: ad) }
        try db.execute(sql: "INSERT OR REPLACE INTO keys (name, protection, sealed) VALUES (?, ?, ?)",
                       arguments: [name, protection.rawValue, sealed])
    }

    /// The key inside this row, or `nil` when `wrappingKey` is not the one it was sealed with.
    /// The key, in guarded memory; `nil` when the record fails authentication. Guarded memory
    /// that cannot be had (the `mlock` limit) is an error, not a wrong key.
    func unwrap(with wrappingKey: SecureBytes, storeID: [UInt8]) throws -> SecureBytes? {
        try withUnwrapped(with: wrappingKey, storeID: storeID) { try SecureBytes(copying: $0) }
    }

    /// Runs `body` with the unwrapped key in a buffer wiped afterwards (never on the heap);
    /// `nil` when the record fails authentication or holds no key of the right length.
    func withUnwrapped<T>(with wrappingKey: SecureBytes, storeID: [UInt8], _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T? {
        let ad = Self.associatedData(storeID: storeID, name: name, protection: protection)
        let outcome: Result<T, any Error>?
        do {
            outcome = try sealed.withUnsafeBytes { sealed in
                try AEAD.withOpened(sealed, key: wrappingKey, associatedData: ad) { key -> Result<T, any Error>? in
                    guard key.count == KeyDerivation.keyByteCount else { return nil }
                    return Result { try body(key) }
                }
            }
        } catch is CryptoFailure {
            return nil
        }
        return try outcome?.get()
    }
}

/// The passphrase's Argon2id salt and limits, kept in the `store` row. No secret.
struct PassphraseRecord: Equatable {
    var salt: [UInt8]
    var limits: PasswordHashingLimits

    static func fetch(_ db: Database) throws -> PassphraseRecord? {
        guard let row = try Row.fetchOne(db, sql: "SELECT passphraseSalt, passphraseOperations, passphraseMemory FROM store"),
              let salt = row["passphraseSalt"] as Data?
        else { return nil }
        guard salt.count == PasswordHashing.saltByteCount,
              let operations = (row["passphraseOperations"] as Int64?).flatMap(UInt64.init(exactly:)),
              let memory = (row["passphraseMemory"] as Int64?).flatMap(Int.init(exactly:))
        else { throw SecStoreError.corrupt("The passphrase record") }
        let limits = PasswordHashingLimits(operations: operations, memoryBytes: memory)
        // Bounds keep a damaged record from asking Argon2id for absurd work or memory.
        guard limits.isAcceptable else {
            throw SecStoreError.corrupt("The passphrase record")
        }
        return PassphraseRecord(salt: Array(salt), limits: limits)
    }

    func save(_ db: Database) throws {
        try db.execute(sql: "UPDATE store SET passphraseSalt = ?, passphraseOperations = ?, passphraseMemory = ?",
                       arguments: [Data(salt), Int64(limits.operations), Int64(limits.memoryBytes)])
    }

    static func clear(_ db: Database) throws {
        try db.execute(sql: "UPDATE store SET passphraseSalt = NULL, passphraseOperations = NULL, passphraseMemory = NULL")
    }
}

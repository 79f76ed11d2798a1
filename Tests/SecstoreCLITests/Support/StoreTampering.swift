import Foundation
import GRDB

/// Damages a store file on purpose, the way a disk error or an attacker would: straight
/// through SQLite, below the engine.
enum StoreTampering {
    /// Flips one bit in the middle of the sealed secret of the item whose persistent
    /// reference is `referenceHex` (the 4 class letters, then the row's 16-byte `ref`).
    static func flipSecretByte(store: URL, referenceHex: String) throws {
        let reference = try requireBytes(hex: referenceHex)
        let rowReference = Data(reference.dropFirst(4))
        let queue = try DatabaseQueue(path: store.path)
        try queue.write { db in
            guard var secret = try Data.fetchOne(db, sql: "SELECT secret FROM items WHERE ref = ?", arguments: [rowReference]) else {
                throw TamperingError.noSuchRow(referenceHex)
            }
            let index = secret.startIndex + secret.count / 2
            secret[index] ^= 0x01
            try db.execute(sql: "UPDATE items SET secret = ? WHERE ref = ?", arguments: [secret, rowReference])
            guard db.changesCount == 1 else { throw TamperingError.noSuchRow(referenceHex) }
        }
    }

    /// Sets a column of the row of the item `referenceHex` to `value`, as a damaged or
    /// foreign row holds it: `accessibility` 99 is no class SecStore writes.
    static func setColumn(_ column: String, to value: any DatabaseValueConvertible, store: URL, referenceHex: String) throws {
        let rowReference = Data(try requireBytes(hex: referenceHex).dropFirst(4))
        let queue = try DatabaseQueue(path: store.path)
        try queue.write { db in
            try db.execute(sql: "UPDATE items SET \(column) = ? WHERE ref = ?", arguments: [value, rowReference])
            guard db.changesCount == 1 else { throw TamperingError.noSuchRow(referenceHex) }
        }
    }

    /// Runs `sql` on the store file, as the sqlite3 tool would: a trigger, a table or an index
    /// planted in the schema.
    static func execute(_ sql: String, store: URL) throws {
        let queue = try DatabaseQueue(path: store.path)
        try queue.write { try $0.execute(sql: sql) }
        try queue.close()
    }

    enum TamperingError: Error {
        case noSuchRow(String)
        case badHex(String)
    }

    private static func requireBytes(hex: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) ?? hex.endIndex
            guard let byte = UInt8(hex[index..<next], radix: 16) else { throw TamperingError.badHex(hex) }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}

import Foundation
import GRDB
import Testing
@testable import SecStore

/// A store whose format version or tables were damaged opens with `corruptData`, never a
/// trap and never a raw SQLite failure (`ioFailure`, the tool's status 1).
@Suite struct SchemaDamageTests {
    func makeStore(_ dir: TemporaryDirectory) throws {
        let store = try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL))
        try store.add(.genericPassword(service: "s", account: "a", data: Data("a".utf8), accessGroup: "G"))
    }

    func open(_ dir: TemporaryDirectory) throws -> SecretStore {
        try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL))
    }

    func isCorrupt(_ error: any Error) -> Bool { (error as? SecStoreError)?.code == .corruptData }

    /// Before: one flipped byte of the header (offset 60, `user_version`) made the version
    /// negative, and opening indexed the migration steps with it ("Index out of range").
    @Test func aNegativeFormatVersionIsDamage() throws {
        let dir = TemporaryDirectory()
        try makeStore(dir)
        try RawStoreFile(url: dir.storeURL).write { try $0.execute(sql: "PRAGMA user_version = -1") }
        #expect { try open(dir) } throws: { isCorrupt($0) }
    }

    /// Before: a version-4 file whose header says version 2 failed with "table item_attributes
    /// already exists" as an I/O failure.
    @Test func aFormatVersionBelowItsTablesIsDamage() throws {
        let dir = TemporaryDirectory()
        try makeStore(dir)
        try RawStoreFile(url: dir.storeURL).write { try $0.execute(sql: "PRAGMA user_version = 2") }
        #expect { try open(dir) } throws: { isCorrupt($0) }
    }

    /// Before: a column renamed inside `sqlite_master` (what a flipped byte there does) failed
    /// every statement that names it with "no such column" as an I/O failure.
    @Test func aDamagedTableDefinitionIsDamage() throws {
        let dir = TemporaryDirectory()
        try makeStore(dir)
        try RawStoreFile(url: dir.storeURL).write { db in
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try db.execute(sql: "UPDATE sqlite_master SET sql = replace(sql, 'secret BLOB NOT NULL', 'secrex BLOB NOT NULL') WHERE name = 'items'")
            try db.execute(sql: "PRAGMA writable_schema = OFF")
        }
        #expect {
            let store = try open(dir)
            _ = try store.items(matching: Query(service: "s", account: "a", returning: .data))
        } throws: { isCorrupt($0) }
    }
}

import Foundation
import GRDB
import Testing
@testable import SecStore

/// Damage `verify` must report rather than fail on, or miss.
@Suite struct KeyRowDamageTests {
    func ownerStore(_ dir: TemporaryDirectory) throws -> SecretStore {
        try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL, firstUnlockCache: .processMemory))
    }

    func tamper(_ store: URL, _ sql: String) throws {
        let queue = try DatabaseQueue(path: store.path)
        try queue.write { try $0.execute(sql: sql) }
        try queue.close()
    }

    /// One damaged class key row used to make every command fail, verify included, with
    /// advice to run verify.
    @Test func aDamagedClassKeyRowIsReportedAndTheOtherClassesStayUsable() throws {
        let dir = TemporaryDirectory()
        do {
            let store = try ownerStore(dir)
            try store.add(.genericPassword(service: "s", account: "unlocked", data: Data("u".utf8), accessGroup: "G"))
            try store.add(.genericPassword(service: "s", account: "always", data: Data("a".utf8), accessGroup: "G", accessibility: .always))
        }
        try tamper(dir.storeURL, "UPDATE keys SET sealed = zeroblob(length(sealed)) WHERE name = 'class.ak'")

        let store = try ownerStore(dir)
        #expect(try store.items(matching: Query(service: "s", account: "always", returning: .data))[0].data == Data("a".utf8))
        #expect { try store.items(matching: Query(service: "s", account: "unlocked", returning: .data)) } throws: {
            ($0 as? SecStoreError)?.code == .corruptData
        }
        let report = try store.verify()
        #expect(report.databaseProblems.contains { $0.contains("class.ak") }, "\(report.databaseProblems)")
        #expect(report.damagedItems.count == 1)
        #expect(report.damagedItems.first?.problem.contains("class key") == true)
        #expect(report.verifiedItems == 1)
        #expect(!report.isIntact)
    }

    /// A row moved to another id authenticates but can no longer be found by its reference.
    @Test func aRowWhoseIdDoesNotMatchItsReferenceIsDamage() throws {
        let dir = TemporaryDirectory()
        do {
            let store = try ownerStore(dir)
            try store.add(.genericPassword(service: "s", account: "moved", data: Data("m".utf8), accessGroup: "G"))
        }
        try tamper(dir.storeURL, "UPDATE items SET id = id + 1000")
        let report = try ownerStore(dir).verify()
        #expect(report.damagedItems.count == 1)
        #expect(report.damagedItems.first?.problem.contains("does not match its reference") == true, "\(report.damagedItems)")
        #expect(!report.isIntact)
    }

    /// Before: only `verify` saw a moved row. A listing returned it as an item, a read by
    /// name found nothing (`itemNotFound`), and a delete removed it without a word.
    @Test func aRowWhoseIdDoesNotMatchItsReferenceIsDamageToEveryOperation() throws {
        let dir = TemporaryDirectory()
        do {
            let store = try ownerStore(dir)
            try store.add(.genericPassword(service: "s", account: "moved", data: Data("m".utf8), accessGroup: "G"))
        }
        try tamper(dir.storeURL, "UPDATE items SET id = id + 1000")
        let store = try ownerStore(dir)
        let isCorrupt = { (error: any Error) in (error as? SecStoreError)?.code == .corruptData }
        #expect { try store.items(matching: Query(service: "s", limit: .all, returning: [.attributes, .data])) } throws: { isCorrupt($0) }
        #expect { try store.items(matching: Query(service: "s", account: "moved", returning: .data)) } throws: { isCorrupt($0) }
        #expect { try store.delete(matching: Query(service: "s", account: "moved")) } throws: { isCorrupt($0) }
        #expect(try RawStoreFile(url: dir.storeURL).items().count == 1)
    }

    /// Before: `store.keyEpoch` set to -1 (it is not authenticated) made the vault take its own
    /// reading for an older one: every class of a store without a passphrase read as locked
    /// (`interactionNotAllowed`), while `verify` said the store was intact.
    @Test(arguments: ["-1", "1.5", "'x'", "9223372036854775807"])
    func aKeyEpochNoSecStoreWritesIsDamage(_ value: String) throws {
        let dir = TemporaryDirectory()
        do {
            let store = try ownerStore(dir)
            try store.add(.genericPassword(service: "s", account: "a", data: Data("a".utf8), accessGroup: "G"))
        }
        try tamper(dir.storeURL, "UPDATE store SET keyEpoch = \(value)")
        let isCorrupt = { (error: any Error) in (error as? SecStoreError)?.code == .corruptData }
        #expect { _ = try ownerStore(dir).items(matching: Query(service: "s", account: "a", returning: .data)) } throws: { isCorrupt($0) }
        #expect { _ = try ownerStore(dir).verify() } throws: { isCorrupt($0) }
    }

    /// A class key row that fails authentication while a handle has its class open is still
    /// reported: class keys are opened lazily, so `verify` authenticates every row itself.
    /// The row is damaged and then bound again (as only a holder of the master key could), so
    /// that the key table's binding check, which catches any other edit, lets it through to
    /// the authentication; the epoch bump makes the handle read the rows again.
    @Test func aClassKeyRowFailingAuthenticationAfterItsClassWasOpenedIsReported() throws {
        let dir = TemporaryDirectory()
        let store = try ownerStore(dir)
        try store.add(.genericPassword(service: "s", account: "unlocked", data: Data("u".utf8), accessGroup: "G"))
        #expect(try store.items(matching: Query(service: "s", account: "unlocked", returning: .data))[0].data == Data("u".utf8))
        try store.engine.database.write { db in
            try db.execute(sql: "UPDATE keys SET sealed = zeroblob(length(sealed)) WHERE name = 'class.ak'")
            try store.engine.vault.keyTable.bindAll(db)
            try db.execute(sql: "UPDATE store SET keyEpoch = keyEpoch + 1")
        }
        let report = try store.verify()
        #expect(report.databaseProblems.contains { $0.contains("class.ak") && $0.contains("failed authentication") },
                "\(report.databaseProblems)")
        #expect(!report.isIntact)
    }
}

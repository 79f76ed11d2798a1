import Foundation
import GRDB
import Testing
@testable import SecStore

/// Inputs at the edges: look-alike group names, absurd limits and options, rows and records
/// damaged in ways the AEAD alone would not reach. Each must give a typed error, never a
/// crash and never another item's data.
@Suite struct HardeningTests {
    /// "é" as one code point and as "e" + U+0301 are equal Swift strings but different group
    /// names: Apple compares them exactly, and so must the entitlement checks.
    @Test func canonicallyEquivalentGroupNamesAreDifferentGroups() throws {
        let dir = TemporaryDirectory()
        let composed = "ABCDE12345.caf\u{E9}"
        let decomposed = "ABCDE12345.cafe\u{301}"
        #expect(composed == decomposed, "Swift considers them equal; SecStore must not")
        let owner = try SecretStore(at: dir.storeURL, options: .init(
            access: .entitled(Entitlements(applicationIdentifier: "owner.app", keychainAccessGroups: [composed])),
            deviceKeyURL: dir.deviceKeyURL))
        try owner.add(.genericPassword(service: "svc", account: "a", data: Data("composed".utf8), accessGroup: composed))
        let other = try SecretStore(at: dir.storeURL, options: .init(
            access: .entitled(Entitlements(applicationIdentifier: "other.app", keychainAccessGroups: [decomposed])),
            deviceKeyURL: dir.deviceKeyURL))
        let query = Query(service: "svc", account: "a", returning: .data)
        expectError(.itemNotFound) { try other.items(matching: query) }
        expectError(.missingEntitlement) { try other.items(matching: Query(service: "svc", account: "a", accessGroup: composed)) }
        expectError(.missingEntitlement) { try other.delete(matching: Query(service: "svc", account: "a", accessGroup: composed)) }
        expectError(.itemNotFound) { try other.delete(matching: Query(service: "svc", account: "a")) }
        #expect(try owner.items(matching: query).first?.data == Data("composed".utf8))
        #expect(Entitlements(applicationIdentifier: nil, keychainAccessGroups: [composed, decomposed]).accessGroups.count == 2)
    }

    /// `add` took 270 MB that `export` then refused: one limit now holds everywhere.
    @Test func oneMaximumSecretSizeForAddAndUpdate() throws {
        let dir = TemporaryDirectory()
        let store = try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL))
        let tooLarge = Data(count: Item.maximumDataByteCount + 1)
        #expect(Item.maximumDataByteCount == 64 << 20)
        #expect { try store.add(.genericPassword(service: "s", account: "big", data: tooLarge, accessGroup: "G")) } throws: {
            ($0 as? SecStoreError)?.code == .dataTooLarge && ($0 as? SecStoreError)?.status == -25302
        }
        try store.add(.genericPassword(service: "s", account: "a", data: Data(count: 1 << 20), accessGroup: "G"))
        #expect { try store.update(matching: Query(service: "s", account: "a"), with: ItemChanges(data: tooLarge)) } throws: {
            ($0 as? SecStoreError)?.code == .dataTooLarge
        }
        #expect(try store.items(matching: Query(service: "s", account: "a", returning: .data))[0].data?.count == 1 << 20)
    }

    /// Before: a 300 MiB `kSecAttrGeneric` was stored (an item no backup could then hold, and
    /// a search opening it took 900 MB), and a query value of 4 GiB stopped the process
    /// ("Not enough bits to represent the passed value", the tag's length prefix).
    @Test func oneMaximumAttributeSizeForItemsQueriesAndUpdates() throws {
        let dir = TemporaryDirectory()
        let store = try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL))
        let isTooLarge = { (error: any Error) in
            (error as? SecStoreError)?.code == .dataTooLarge && (error as? SecStoreError)?.status == -25302
        }
        let largest = AttributeRules.maximumValueByteCount
        #expect(largest == 1 << 20)
        var item = Item.genericPassword(service: "s", account: "a", data: Data("x".utf8), accessGroup: "G")
        item.attributes[.generic] = .data(Data(count: largest + 1))
        #expect { try store.add(item) } throws: { isTooLarge($0) }
        item.attributes[.generic] = nil
        item.attributes[.label] = .string(String(repeating: "l", count: largest + 1))
        #expect { try store.add(item) } throws: { isTooLarge($0) }
        item.attributes[.label] = .string(String(repeating: "l", count: largest))
        try store.add(item)

        var changes = ItemChanges()
        changes.attributes[.comment] = .string(String(repeating: "c", count: largest + 1))
        #expect { try store.update(matching: Query(service: "s", account: "a"), with: changes) } throws: { isTooLarge($0) }
        // A query value past what a 32-bit length prefix holds: refused before it is hashed.
        var query = Query(service: "s")
        query.attributes[.account] = .data(Data(count: (1 << 32) + 1))
        #expect { try store.items(matching: query) } throws: { isTooLarge($0) }
        #expect(try store.items(matching: Query(service: "s", account: "a", returning: .attributes))[0].attributes[.label] == item.attributes[.label])
    }

    @Test func hugeMatchLimitsAreServedNotCrashed() throws {
        let dir = TemporaryDirectory()
        let store = try dir.openStore()
        for index in 0..<3 {
            try store.add(.genericPassword(service: "svc", account: "a\(index)"))
        }
        #expect(try store.items(matching: Query(service: "svc", limit: .count(2))).count == 2)
        #expect(try store.items(matching: Query(service: "svc", limit: .count(Int.max))).count == 3)
        #expect(try store.items(matching: Query(service: "svc", limit: .count(2 + (1 << 40)))).count == 3)
        #expect(try store.items(matching: Query(service: "svc", limit: .count(2))).count == 2)
    }

    @Test func damagedRowShapesAreCorruptionNotCrashes() throws {
        for damage in ["UPDATE items SET name_tag = zeroblob(300)", "UPDATE items SET account_tag = zeroblob(17)",
                       "UPDATE items SET pk_tag = zeroblob(31)", "UPDATE items SET class = 2", "UPDATE items SET class = 99",
                       "UPDATE items SET ref = x'00'"] {
            let dir = TemporaryDirectory()
            let store = try dir.openStore()
            try store.add(.genericPassword(service: "svc", account: "a", data: Data("v".utf8)))
            try DatabaseQueue(path: dir.storeURL.path).write { db in try db.execute(sql: damage) }
            let owner = try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL))
            let all = Query(itemClass: damage.hasSuffix("class = 2") ? .internetPassword : .genericPassword,
                            limit: .all, returning: .data)
            // A row of no known class matches no class query; verify is what finds it.
            expectError(damage.hasSuffix("class = 99") ? .itemNotFound : .corruptData) { try owner.items(matching: all) }
            let report = try owner.verify()
            #expect(!report.isIntact, "\(damage)")
            // The row, and the digest over the rows it no longer matches.
            #expect(!report.itemsMatchDigest, "\(damage)")
            #expect(report.damagedItems.count + report.databaseProblems.count == 2, "\(damage): \(report)")
        }
    }

    @Test func damagedPassphraseRecordIsCorruptionNotACrash() throws {
        for damage in ["UPDATE store SET passphraseOperations = -1", "UPDATE store SET passphraseMemory = 1",
                       "UPDATE store SET passphraseOperations = 4000000000"] {
            let dir = TemporaryDirectory()
            do {
                let store = try dir.openStore()
                try store.setPassphraseAsOwner("pw", limits: .minimumForTesting)
                store.lock(forgettingFirstUnlock: true)
            }
            try DatabaseQueue(path: dir.storeURL.path).write { db in try db.execute(sql: damage) }
            // The record is read when the store opens: the open itself reports the damage.
            expectError(.corruptData) { try dir.openStore() }
        }
    }

    @Test func optionsOutOfRangeAreRefused() {
        let dir = TemporaryDirectory()
        for options in [SecretStore.Options(deviceKeyURL: dir.deviceKeyURL, busyTimeout: 1e10),
                        SecretStore.Options(deviceKeyURL: dir.deviceKeyURL, busyTimeout: .nan),
                        SecretStore.Options(deviceKeyURL: dir.deviceKeyURL, autoLockInterval: 1e12),
                        SecretStore.Options(deviceKeyURL: dir.deviceKeyURL, autoLockInterval: 0)] {
            expectError(.invalidParameter) { try SecretStore(at: dir.storeURL, options: options) }
        }
    }
}

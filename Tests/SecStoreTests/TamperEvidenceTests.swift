import Foundation
import GRDB
import Testing
@testable import SecStore
import SecStoreTestSupport
import SeededRandom

/// Tampering inside one store file that format version 2 detects (issue 14, items 6–8 and
/// 15): key rows bound to the passphrase state, the two blobs of a row bound together, a
/// keyed digest over all rows, and padded plaintexts. Each test does what an attacker with
/// write access to the file (but not the passphrase) can do, through plain SQLite.
@Suite struct TamperEvidenceTests {
    static let limits = PasswordHashingLimits.interactive

    func ownerStore(_ dir: TemporaryDirectory) throws -> SecretStore {
        try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL, firstUnlockCache: .processMemory))
    }

    func raw(_ dir: TemporaryDirectory) -> RawStoreFile { RawStoreFile(url: dir.storeURL) }

    func keyRow(_ dir: TemporaryDirectory, _ name: String) throws -> Row? {
        try raw(dir).read { try Row.fetchOne($0, sql: "SELECT name, protection, sealed, binding FROM keys WHERE name = ?", arguments: [name]) }
    }

    func putKeyRow(_ dir: TemporaryDirectory, _ row: Row) throws {
        try raw(dir).write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO keys (name, protection, sealed, binding) VALUES (?, ?, ?, ?)",
                           arguments: [row["name"], row["protection"], row["sealed"], row["binding"]])
        }
    }

    func isCorrupt(_ error: any Error) -> Bool { (error as? SecStoreError)?.code == .corruptData }

    // MARK: Item 6: the key table

    /// Before: the class key row from before `passphrase set`, copied back, made
    /// passphrase-protected items readable with no passphrase while `verify` said intact.
    @Test func aClassKeyRowFromBeforeThePassphraseIsRefused() throws {
        let dir = TemporaryDirectory()
        let oldRow: Row
        do {
            let store = try ownerStore(dir)
            try store.add(.genericPassword(service: "s", account: "a", data: Data("secret".utf8), accessGroup: "G"))
            oldRow = try #require(try keyRow(dir, "class.ak"))
            try store.setPassphrase("correct horse", limits: Self.limits)
        }
        try putKeyRow(dir, oldRow)

        let store = try ownerStore(dir)
        #expect { try store.items(matching: Query(service: "s", account: "a", returning: .data)) } throws: { isCorrupt($0) }
        let report = try store.verify()
        #expect(!report.isIntact)
        #expect(report.databaseProblems.contains { $0.contains("class.ak") && $0.contains("passphrase state") }, "\(report.databaseProblems)")
        // The passphrase cannot launder it: changing it refuses the tampered table.
        #expect { try store.changePassphrase(from: "correct horse", to: "new", limits: Self.limits) } throws: { isCorrupt($0) }
        #expect { try store.unlock(passphrase: "correct horse") } throws: { isCorrupt($0) }
    }

    /// Before: deleting a key row made items "locked" on a store with no passphrase.
    @Test func aMissingClassKeyRowIsDamageNotALock() throws {
        let dir = TemporaryDirectory()
        do {
            try ownerStore(dir).add(.genericPassword(service: "s", account: "a", data: Data("v".utf8), accessGroup: "G"))
        }
        try raw(dir).write { try $0.execute(sql: "DELETE FROM keys WHERE name = 'class.ak'") }
        let store = try ownerStore(dir)
        #expect(try store.lockState == .noPassphrase)
        #expect { try store.items(matching: Query(service: "s", returning: .data)) } throws: { isCorrupt($0) }
        let report = try store.verify()
        #expect(report.databaseProblems.contains { $0.contains("class.ak") && $0.contains("missing") }, "\(report.databaseProblems)")
        #expect(report.lockedItems.isEmpty)
        #expect(report.damagedItems.count == 1)
    }

    /// Before: deleting every passphrase-protected row made `unlock` accept a wrong passphrase.
    @Test func deletingTheProtectedRowsNeverMakesAWrongPassphraseRight() throws {
        let dir = TemporaryDirectory()
        do {
            let store = try ownerStore(dir)
            try store.setPassphrase("right", limits: Self.limits)
        }
        try raw(dir).write { try $0.execute(sql: "DELETE FROM keys WHERE protection = 1") }
        let store = try ownerStore(dir)
        #expect { try store.unlock(passphrase: "wrong") } throws: { isCorrupt($0) }
        #expect(try !store.verify().isIntact)
    }

    /// A row whose protection byte was flipped, or that lost its binding, is damaged too; so
    /// is a `whenPasscodeSetThisDeviceOnly` row planted in a store without a passphrase.
    @Test(arguments: [
        "UPDATE keys SET protection = 1 WHERE name = 'class.dk'",
        "UPDATE keys SET binding = NULL WHERE name = 'class.dk'",
        "UPDATE keys SET binding = zeroblob(32) WHERE name = 'class.dk'",
        "INSERT INTO keys (name, protection, sealed, binding) SELECT 'class.akpu', 0, sealed, binding FROM keys WHERE name = 'class.ak'",
    ])
    func keyRowsTheRulesRefuse(tamper: String) throws {
        let dir = TemporaryDirectory()
        do {
            try ownerStore(dir).add(.genericPassword(service: "s", account: "a", accessGroup: "G", accessibility: .afterFirstUnlock))
        }
        try raw(dir).write { try $0.execute(sql: tamper) }
        let report = try ownerStore(dir).verify()
        #expect(!report.isIntact, "\(tamper)")
        #expect(report.databaseProblems.contains { $0.hasPrefix("the key record class.") }, "\(tamper): \(report.databaseProblems)")
    }

    /// A passphrase set, changed and removed keeps every row bound: nothing to report.
    @Test func passphraseChangesKeepTheKeyTableSound() throws {
        let dir = TemporaryDirectory()
        let store = try ownerStore(dir)
        try store.add(.genericPassword(service: "s", account: "a", accessGroup: "G", accessibility: .whenUnlocked))
        try store.add(.genericPassword(service: "s", account: "b", accessGroup: "G", accessibility: .always))
        #expect(try store.verify().isIntact)
        try store.setPassphrase("one", limits: Self.limits)
        #expect(try store.verify().isIntact)
        try store.changePassphrase(from: "one", to: "two", limits: Self.limits)
        #expect(try ownerStore(dir).verify().lockedItems.count == 1)
        #expect(try ownerStore(dir).verify().isIntact)
        _ = try store.removePassphrase("two")
        #expect(try ownerStore(dir).verify().isIntact)
        #expect(try ownerStore(dir).verify().verifiedItems == 2)
    }

    // MARK: Item 7: the two blobs of a row

    /// Before: the old secret blob written back beside the new metadata was returned by `get`.
    @Test func anOlderSecretBesideNewerMetadataIsRefused() throws {
        let dir = TemporaryDirectory()
        let store = try ownerStore(dir)
        try store.add(.genericPassword(service: "s", account: "a", data: Data("before rotation".utf8), accessGroup: "G"))
        let before = try #require(try raw(dir).items().first)
        try store.update(matching: Query(service: "s", account: "a"), with: ItemChanges(attributes: [.label: "rotated"], data: Data("after rotation".utf8)))
        try raw(dir).set("secret", of: before.id, to: before.secret)

        for returning in [ReturnOptions.data, [.data, .attributes], .attributes] {
            #expect { try store.items(matching: Query(service: "s", account: "a", returning: returning)) } throws: { isCorrupt($0) }
        }
        #expect(try store.verify().damagedItems.count == 1)
    }

    /// The other way round: older metadata beside a newer secret.
    @Test func olderMetadataBesideANewerSecretIsRefused() throws {
        let dir = TemporaryDirectory()
        let store = try ownerStore(dir)
        try store.add(.genericPassword(service: "s", account: "a", data: Data("one".utf8), accessGroup: "G"))
        let before = try #require(try raw(dir).items().first)
        try store.update(matching: Query(service: "s", account: "a"), with: ItemChanges(data: Data("two".utf8)))
        try raw(dir).set("metadata", of: before.id, to: before.metadata)
        #expect { try store.items(matching: Query(service: "s", account: "a", returning: .data)) } throws: { isCorrupt($0) }
    }

    // MARK: Item 8: the rows of the store

    enum RowTampering: String, CaseIterable {
        case deleted, reverted, copiedIn
    }

    /// Deleting a row, reverting one to an older version, or copying one in: each row left
    /// authenticates, but the set no longer matches the keyed digest, and verify says so.
    @Test(arguments: RowTampering.allCases)
    func rowsDeletedRevertedOrCopiedInAreReported(tampering: RowTampering) throws {
        let dir = TemporaryDirectory()
        let store = try ownerStore(dir)
        for account in ["a", "b", "c"] {
            try store.add(.genericPassword(service: "s", account: account, data: Data(account.utf8), accessGroup: "G"))
        }
        let rows = try raw(dir).items()
        try store.update(matching: Query(service: "s", account: "b"), with: ItemChanges(data: Data("b2".utf8)))
        #expect(try store.verify().isIntact)

        switch tampering {
        case .deleted:
            try raw(dir).write { try $0.execute(sql: "DELETE FROM items WHERE id = ?", arguments: [rows[0].id]) }
        case .reverted:
            try raw(dir).write { db in
                try db.execute(sql: "UPDATE items SET metadata = ?, secret = ? WHERE id = ?",
                               arguments: [rows[1].metadata, rows[1].secret, rows[1].id])
            }
        case .copiedIn:
            // A whole older copy of a row put back after the item was deleted.
            try store.delete(matching: Query(service: "s", account: "c"))
            try raw(dir).write { db in
                try db.execute(sql: """
                    INSERT INTO items (id, ref, class, accessibility, pk_tag, name_tag, account_tag, group_tag, metadata, secret, format)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 2)
                    """, arguments: [rows[2].id, rows[2].ref, rows[2].itemClass, rows[2].accessibility, rows[2].pkTag,
                                     rows[2].nameTag, rows[2].accountTag, rows[2].groupTag, rows[2].metadata, rows[2].secret])
            }
        }
        let report = try store.verify()
        #expect(report.damagedItems.isEmpty, "every row left authenticates on its own")
        #expect(!report.itemsMatchDigest)
        #expect(!report.isIntact)
        #expect(report.databaseProblems == [ItemsDigest.mismatchProblem])

        // Export refuses to pass the damage on, unless told to back up what is there.
        let backup = dir.url.appending(path: "backup.ssb")
        #expect { try store.exportBackup(to: backup, passphrase: "b", limits: Self.limits) } throws: { isCorrupt($0) }
        #expect(!FileManager.default.fileExists(atPath: backup.path))
        let summary = try store.exportBackup(to: backup, passphrase: "b", limits: Self.limits, skippingDamaged: true)
        #expect(summary.itemsMismatchedDigest)

        // The owner accepts the items as they are; from then on the digest follows writes again.
        try store.acceptCurrentItems()
        #expect(try store.verify().isIntact)
        try store.add(.genericPassword(service: "s", account: "d", accessGroup: "G"))
        try store.update(matching: Query(service: "s", account: "d"), with: ItemChanges(data: Data("d2".utf8)))
        try store.delete(matching: Query(service: "s", account: "d"))
        #expect(try store.verify().isIntact)
    }

    /// Every writer keeps the digest in step: add, update (attributes only, free-form
    /// attributes, the secret, the primary key, the accessibility), delete, import with
    /// replace, passphrase removal (which deletes `whenPasscodeSetThisDeviceOnly` items) and
    /// removing a damaged item. An update or a delete takes the row's old contribution from
    /// the row it found and computes the new one from the values it writes, so each kind of
    /// update is here: a wrong encoding of either would show as a mismatch.
    @Test func everyWriterKeepsTheDigestInStep() throws {
        let dir = TemporaryDirectory()
        let store = try ownerStore(dir)
        try store.add(.genericPassword(service: "s", account: "a", data: Data("1".utf8), accessGroup: "G"))
        try store.add(.internetPassword(server: "h", account: "b", data: Data("2".utf8), accessGroup: "G"))
        try store.update(matching: Query(service: "s"), with: ItemChanges(attributes: [.label: "label only"]))
        try store.update(matching: Query(itemClass: .internetPassword), with: ItemChanges(data: Data("3".utf8)))
        try store.update(matching: Query(service: "s"), with: ItemChanges(customAttributes: ["xdg:schema": "org.example"]))
        try store.update(matching: Query(service: "s", account: "a"), with: ItemChanges(attributes: [.account: "a2"]))
        try store.update(matching: Query(itemClass: .internetPassword), with: ItemChanges(attributes: [.accessible: .string(Accessibility.afterFirstUnlock.rawValue)]))
        #expect(try store.verify().isIntact)
        let backup = dir.url.appending(path: "backup.ssb")
        _ = try store.exportBackup(to: backup, passphrase: "b", limits: Self.limits)
        _ = try store.importBackup(from: backup, passphrase: "b", conflictPolicy: .replace)
        try store.setPassphrase("p", limits: Self.limits)
        try store.add(.genericPassword(service: "s", account: "pc", accessGroup: "G", accessibility: .whenPasscodeSetThisDeviceOnly))
        #expect(try store.verify().isIntact)
        #expect(try store.removePassphrase("p") == 1)
        try store.delete(matching: Query(service: "s"))
        #expect(try store.verify().isIntact)

        try store.add(.genericPassword(service: "s", account: "damaged", data: Data("x".utf8), accessGroup: "G"))
        let row = try #require(try raw(dir).items().last)
        try raw(dir).set("secret", of: row.id, to: row.secret.flippingByte(at: -1))
        let damaged = try #require(try store.verify().damagedItems.first?.persistentReference)
        try store.removeDamagedItem(damaged)
        // The flipped row's contribution was never the one recorded: removing it leaves the
        // mismatch for the owner to accept.
        #expect(try !store.verify().itemsMatchDigest)
    }

    /// A store whose digest was removed refuses writes (it cannot keep a lost digest in
    /// step) and says how to go on; reads go on.
    @Test func aLostDigestStopsWritesUntilTheItemsAreAccepted() throws {
        let dir = TemporaryDirectory()
        let store = try ownerStore(dir)
        try store.add(.genericPassword(service: "s", account: "a", data: Data("v".utf8), accessGroup: "G"))
        try raw(dir).write { try $0.execute(sql: "UPDATE store SET itemsDigest = NULL") }
        #expect { try store.add(.genericPassword(service: "s", account: "b", accessGroup: "G")) } throws: { error in
            isCorrupt(error) && "\(error)".contains("--accept-current-items")
        }
        #expect(try store.items(matching: Query(service: "s", returning: .data)).count == 1)
        #expect(try !store.verify().itemsMatchDigest)
        try store.acceptCurrentItems()
        try store.add(.genericPassword(service: "s", account: "b", accessGroup: "G"))
        #expect(try store.verify().isIntact)
    }

    // MARK: Item 15: lengths

    /// Secrets of different lengths below 64 bytes seal to blobs of one length; attributes
    /// are padded the same way.
    @Test func sealedLengthsRevealOnlyABucket() throws {
        let dir = TemporaryDirectory()
        let store = try ownerStore(dir)
        try store.add(.genericPassword(service: "s", account: "a", data: Data("x".utf8), accessGroup: "G"))
        try store.add(.genericPassword(service: "s", account: "b", data: Data(repeating: 0x41, count: 40), accessGroup: "G",
                                       label: "label"))
        let rows = try raw(dir).items()
        #expect(rows.count == 2)
        #expect(rows[0].secret.count == rows[1].secret.count)
        for row in rows {
            #expect((row.metadata.count - 40) % Padding.minimumLength == 0, "nonce and tag around padded attributes")
        }
        #expect(try store.items(matching: Query(service: "s", account: "b", returning: .data))[0].data == Data(repeating: 0x41, count: 40))
    }

    @Test(arguments: [0, 1, 62, 63, 64, 65, 200, 1000, 4096, 100_000])
    func paddingRoundTripsAndBoundsTheOverhead(length: Int) throws {
        let plain = [UInt8](repeating: 0x80, count: length)   // the marker byte itself as content
        let padded = plain.withUnsafeBytes(Padding.pad)
        #expect(padded.count == Padding.paddedLength(length))
        #expect(padded.count > length)
        #expect(padded.count % Padding.minimumLength == 0)
        #expect(length < 64 || Double(padded.count) <= Double(length) * 2.05)
        #expect(length < 4096 || Double(padded.count) <= Double(length) * 1.13)
        #expect(padded.withUnsafeBytes(Padding.unpaddedLength) == length)
    }

    /// Only the layout ``Padding/pad(_:)`` writes unpads: the last non-zero byte must be the marker.
    @Test(arguments: [[UInt8](), [0, 0, 0], [0x41, 0x80, 0x01], [0x80, 0x00, 0x7F], [0x41, 0x81, 0x00]])
    func malformedPaddingIsRefused(bytes: [UInt8]) {
        #expect(bytes.withUnsafeBytes(Padding.unpaddedLength) == nil)
    }

    /// The word-at-a-time scan against the plain definition (the last non-zero byte must be
    /// 0x80; the length is its index), over buffers of every alignment and layout.
    @Test func unpaddingMatchesItsDefinition() {
        var generator = SplitMix64(seed: 0x5eed_0015)
        for _ in 0..<5_000 {
            let count = Int(generator.next() % 80)
            var bytes = (0..<count).map { _ in [0, 0, 0x80, 0x01, 0xFF][Int(generator.next() % 5)] as UInt8 }
            if count > 0, generator.next() % 2 == 0 {   // a well-formed tail half of the time
                let marker = Int(generator.next() % UInt64(count))
                bytes[marker] = 0x80
                for index in (marker + 1)..<count { bytes[index] = 0 }
            }
            let last = bytes.lastIndex { $0 != 0 }
            let expected = last.flatMap { bytes[$0] == 0x80 ? $0 : nil }
            #expect(bytes.withUnsafeBytes(Padding.unpaddedLength) == expected, "\(bytes)")
        }
    }

    @Test func unpaddingFindsTheLastMarker() {
        #expect(([0x80, 0x80, 0x00] as [UInt8]).withUnsafeBytes(Padding.unpaddedLength) == 1)
        #expect(([0x80] as [UInt8]).withUnsafeBytes(Padding.unpaddedLength) == 0)
    }
}

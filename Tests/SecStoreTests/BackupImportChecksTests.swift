import Foundation
import GRDB
import Testing
@testable import SecStore

/// What an import refuses: bytes after the final record, a record claiming a class export
/// never writes, and replacing a row it cannot authenticate.
@Suite struct BackupImportChecksTests {
    let passphrase = "backup passphrase"

    func expectDamaged(_ body: () throws -> Void) {
        #expect { try body() } throws: { ($0 as? SecStoreError)?.code == .corruptData }
    }

    /// A backup as export writes it, from records given here (export itself never writes a
    /// ThisDeviceOnly record).
    func handMadeBackup(at url: URL, records: [BackupFormat.ItemRecord]) throws {
        let limits = PasswordHashingLimits.minimumForTesting
        let salt = try SecureRandom.bytes(PasswordHashing.saltByteCount)
        let key = try PasswordHashing.deriveKey(passphrase: Array(passphrase.utf8), salt: salt, limits: limits)
        let stream = try SecretStream.Writer(key: key)
        let header = BackupFormat.Header(limits: limits, salt: salt, streamHeader: stream.header)
        var bytes = header.bytes
        func append(_ sealed: [UInt8]) { bytes += BackupFormat.le(UInt32(sealed.count)) + sealed }
        let manifest = BackupFormat.Manifest(sourceStoreID: Array(repeating: 7, count: 16), created: Date(), itemCount: UInt64(records.count))
        append(stream.seal(manifest.bytes, associatedData: header.bytes))
        for record in records { append(stream.seal(record.bytes)) }
        append(stream.seal(BackupFormat.le(UInt64(records.count)), tag: .final))
        try Data(bytes).write(to: url)
    }

    func record(_ account: String, _ accessibility: Accessibility) -> BackupFormat.ItemRecord {
        var attributes: Attributes = [.service: "svc", .account: .string(account), .accessGroup: "G"]
        attributes.accessibility = accessibility
        return BackupFormat.ItemRecord(itemClass: .genericPassword, accessibility: accessibility, attributes: attributes,
                                       secret: Data("pw".utf8))
    }

    @Test("A hand-made backup imports; the same with a ThisDeviceOnly record is damaged and imports nothing")
    func thisDeviceOnlyRecordsAreRefused() throws {
        let dir = TemporaryDirectory()
        let store = try dir.ownerStore("a")
        let good = dir.url.appending(path: "good.backup")
        try handMadeBackup(at: good, records: [record("a", .afterFirstUnlock)])
        #expect(try store.importBackup(from: good, passphrase: passphrase).added == 1)

        let bad = dir.url.appending(path: "bad.backup")
        try handMadeBackup(at: bad, records: [record("b", .whenUnlocked), record("c", .whenUnlockedThisDeviceOnly)])
        expectDamaged { _ = try store.importBackup(from: bad, passphrase: passphrase) }
        #expect(try store.find(Query(service: "svc", account: "b")).isEmpty, "nothing of a refused backup is kept")
    }

    @Test("Bytes appended after the final record make the backup damaged; nothing is imported")
    func trailingBytesAreRefused() throws {
        let dir = TemporaryDirectory()
        let source = try dir.ownerStore("source")
        try source.add(.genericPassword(service: "svc", account: "a", data: Data("pw".utf8), accessGroup: "G"))
        let backup = dir.url.appending(path: "backup")
        _ = try source.exportBackup(to: backup, passphrase: passphrase, limits: .minimumForTesting)
        let handle = try FileHandle(forWritingTo: backup)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("extra".utf8))
        try handle.close()
        let destination = try dir.ownerStore("destination")
        expectDamaged { _ = try destination.importBackup(from: backup, passphrase: passphrase) }
        #expect(try destination.find(Query(itemClass: .genericPassword, synchronizable: .any, limit: .all)).isEmpty)
    }

    @Test("Replacing a row that fails authentication is corruptData; the row stays for verify to report")
    func replaceAuthenticatesTheRowItRemoves() throws {
        let dir = TemporaryDirectory()
        let store = try dir.ownerStore("a")
        try store.add(.genericPassword(service: "svc", account: "a", data: Data("pw".utf8), accessGroup: "G"))
        let backup = dir.url.appending(path: "backup")
        _ = try store.exportBackup(to: backup, passphrase: passphrase, limits: .minimumForTesting)
        // Damage the stored secret behind the store's back.
        let queue = try DatabaseQueue(path: store.url.path)
        try queue.write { db in
            try db.execute(sql: "UPDATE items SET secret = zeroblob(length(secret))")
        }
        try queue.close()
        expectDamaged { _ = try store.importBackup(from: backup, passphrase: passphrase, conflictPolicy: .replace) }
        let report = try store.verify()
        #expect(report.damagedItems.count == 1)
    }
}

import Foundation
import GRDB
import Testing
@testable import SecStore

@Suite struct BackupTests {
    func ownerStore(_ dir: TemporaryDirectory, _ name: String = "a") throws -> SecretStore {
        try SecretStore(at: dir.url.appending(path: "\(name).secstore"),
                        options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL, firstUnlockCache: .processMemory))
    }

    /// Items of both classes, every accessibility, data and string attributes, a synchronizable one.
    func fill(_ store: SecretStore) throws {
        for (index, accessibility) in Accessibility.allCases.enumerated() where accessibility != .whenPasscodeSetThisDeviceOnly {
            var item = Item.genericPassword(service: "svc", account: "acct-\(index)", data: Data("secret-\(index)".utf8),
                                            accessGroup: index % 2 == 0 ? "G.one" : "G.two", accessibility: accessibility)
            item.attributes.label = "label \(index)"
            item.attributes.generic = Data([0, UInt8(index), 255])
            item.attributes.isInvisible = index % 3 == 0
            try store.add(item)
        }
        try store.add(.internetPassword(server: "example.com", account: "web", data: Data("pw".utf8), protocol: .https, port: 443,
                                        path: "/login", authenticationType: .htmlForm, accessGroup: "G.one"))
        var synced = Item.genericPassword(service: "svc", account: "synced", data: Data(), accessGroup: "G.two", synchronizable: true)
        synced.attributes.comment = "a comment"
        try store.add(synced)
    }

    func everything(_ store: SecretStore) throws -> [Item] {
        var all: [Item] = []
        for itemClass in ItemClass.allCases {
            let query = Query(itemClass: itemClass, synchronizable: .any, limit: .all, returning: [.attributes, .data])
            all += (try? store.items(matching: query)) ?? []
        }
        return all.sorted { "\($0.attributes)" < "\($1.attributes)" }
    }

    @Test func exportThenImportReproducesEveryExportableItemExactly() throws {
        let dir = TemporaryDirectory()
        let source = try ownerStore(dir, "source")
        try fill(source)
        let backup = dir.url.appending(path: "backup.ssb")
        let summary = try source.exportBackup(to: backup, passphrase: "backup pass", limits: .minimumForTesting)
        #expect(summary.skippedThisDeviceOnly == 3)
        // ak, ck, dk generic passwords, the internet password and the synchronizable one.
        #expect(summary.exported == 5)
        let mode = try FileManager.default.attributesOfItem(atPath: backup.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let target = try ownerStore(dir, "target")
        var progressSeen = 0
        let imported = try target.importBackup(from: backup, passphrase: "backup pass") { progressSeen = $0.completed }
        #expect(imported == ImportSummary(added: 5, skipped: 0, replaced: 0))
        #expect(progressSeen == 5)
        let expected = try everything(source).filter { !($0.attributes.accessibility?.isThisDeviceOnly ?? true) }
        #expect(try everything(target) == expected)
        #expect(try everything(target).allSatisfy { $0.attributes.accessibility?.isThisDeviceOnly == false })
    }

    @Test func conflictPolicies() throws {
        let dir = TemporaryDirectory()
        let store = try ownerStore(dir)
        try store.add(.genericPassword(service: "svc", account: "a", data: Data("original".utf8), accessGroup: "G"))
        let backup = dir.url.appending(path: "b.ssb")
        _ = try store.exportBackup(to: backup, passphrase: "p", limits: .minimumForTesting)
        try store.update(matching: Query(service: "svc", account: "a"), with: ItemChanges(data: Data("changed".utf8)))

        #expect(try store.importBackup(from: backup, passphrase: "p") == ImportSummary(added: 0, skipped: 1, replaced: 0))
        let read = { try store.items(matching: Query(service: "svc", account: "a", accessGroup: "G", returning: .data))[0].data }
        #expect(try read() == Data("changed".utf8))
        let failure = try #require(throws: SecStoreError.self) { try store.importBackup(from: backup, passphrase: "p", conflictPolicy: .fail) }
        #expect(failure.code == .duplicateItem)
        #expect(try read() == Data("changed".utf8))
        #expect(try store.importBackup(from: backup, passphrase: "p", conflictPolicy: .replace) == ImportSummary(added: 0, skipped: 0, replaced: 1))
        #expect(try read() == Data("original".utf8))
    }

    @Test func badBackupsAreRefusedAndImportNothing() throws {
        let dir = TemporaryDirectory()
        let source = try ownerStore(dir, "source")
        try fill(source)
        let backup = dir.url.appending(path: "backup.ssb")
        _ = try source.exportBackup(to: backup, passphrase: "right", limits: .minimumForTesting)
        let bytes = try Data(contentsOf: backup)
        let target = try ownerStore(dir, "target")

        let wrong = try #require(throws: SecStoreError.self) { try target.importBackup(from: backup, passphrase: "wrong") }
        #expect(wrong.code == .authenticationFailed)

        let truncated = dir.url.appending(path: "truncated.ssb")
        try bytes.prefix(bytes.count - 40).write(to: truncated)
        let cut = try #require(throws: SecStoreError.self) { try target.importBackup(from: truncated, passphrase: "right") }
        #expect(cut.code == .corruptData)

        var flipped = bytes
        flipped[bytes.count / 2] ^= 0x01
        let damaged = dir.url.appending(path: "damaged.ssb")
        try flipped.write(to: damaged)
        let bad = try #require(throws: SecStoreError.self) { try target.importBackup(from: damaged, passphrase: "right") }
        #expect(bad.code == .corruptData)

        let foreign = dir.url.appending(path: "foreign.ssb")
        try Data("not a backup at all, just text that is long enough to hold a header........".utf8).write(to: foreign)
        let notBackup = try #require(throws: SecStoreError.self) { try target.importBackup(from: foreign, passphrase: "right") }
        #expect(notBackup.code == .corruptData)

        #expect(try everything(target).isEmpty)
    }

    /// A partial backup (`skippingDamaged`) leaves out every row it cannot export and states
    /// the count of those it writes: malformed rows (a flipped class or accessibility byte,
    /// which `verify` lists too) do not stop it, and an item both damaged and unreadable here
    /// is left out once, not subtracted twice from the manifest's count.
    @Test func aPartialBackupLeavesOutMalformedRowsAndImportsWhole() throws {
        let dir = TemporaryDirectory()
        let source = try ownerStore(dir, "source")
        try source.setPassphrase("store passphrase", limits: .minimumForTesting)   // access control needs one
        var references: [String: PersistentReference] = [:]
        for account in ["kept", "badAccessibility", "badClass", "biometryDamaged"] {
            var item = Item.genericPassword(service: "svc", account: account, data: Data(account.utf8), accessGroup: "G",
                                            accessibility: .always)
            if account == "biometryDamaged" { item.attributes.accessControlFlags = .biometryAny }
            let reference = try #require(try source.add(item, returning: .persistentReference).persistentReference)
            references[account] = reference
        }
        try DatabaseQueue(path: source.url.path).write { db in
            func tamper(_ account: String, _ sql: String) throws {
                try db.execute(sql: "UPDATE items SET \(sql) WHERE ref = ?", arguments: [Data(references[account]!.data.dropFirst(4))])
                #expect(db.changesCount == 1)
            }
            try tamper("badAccessibility", "accessibility = 99")
            try tamper("badClass", "class = 9")
            try tamper("biometryDamaged", "secret = zeroblob(length(secret))")
        }
        let backup = dir.url.appending(path: "partial.ssb")
        let summary = try source.exportBackup(to: backup, passphrase: "bp", limits: .minimumForTesting, skippingDamaged: true)
        #expect(summary.exported == 1)
        #expect(Set(summary.skippedDamaged) == [references["badAccessibility"]!, references["biometryDamaged"]!])
        #expect(summary.skippedMalformedRows == 1, "the row whose class is unknown names no item")

        let target = try ownerStore(dir, "target")
        #expect(try target.importBackup(from: backup, passphrase: "bp") == ImportSummary(added: 1, skipped: 0, replaced: 0))
        #expect(try target.find(Query(service: "svc", account: "kept", returning: .data)).first?.data == Data("kept".utf8))
    }

    /// A damaged row that carries an intact item's reference (a copy of its row under another
    /// id) is left out by its row id: the intact item is still exported. Left out by
    /// reference, it went with the copy.
    @Test func aPartialBackupLeavesOutDamageByRowNotByReference() throws {
        let dir = TemporaryDirectory()
        let source = try ownerStore(dir, "source")
        for account in ["kept", "copied"] {
            try source.add(.genericPassword(service: "svc", account: account, data: Data(account.utf8), accessGroup: "G",
                                            accessibility: .always))
        }
        try DatabaseQueue(path: source.url.path).write { db in
            let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(items)").map { $0["name"] as String }.filter { $0 != "id" }
            let list = columns.joined(separator: ", ")
            // Its own primary-key tag (the column is unique); everything else the original's.
            let values = columns.map { $0 == "pk_tag" ? "randomblob(length(pk_tag))" : $0 }.joined(separator: ", ")
            try db.execute(sql: "INSERT INTO items (id, \(list)) SELECT (SELECT max(id) FROM items) + 1, \(values) FROM items ORDER BY id DESC LIMIT 1")
            #expect(db.changesCount == 1)
        }
        let summary = try source.exportBackup(to: dir.url.appending(path: "partial.ssb"), passphrase: "bp",
                                              limits: .minimumForTesting, skippingDamaged: true)
        #expect(summary.exported == 2, "both intact items; the copy names one of them but is not it")
        #expect(summary.skippedDamaged.count == 1)
    }

    /// `secstore export ~/.local/share/secstore/default.secstore --force` renamed the backup
    /// over the store it backed up: the store was gone, its ThisDeviceOnly items with it.
    @Test func anExportNeverReplacesTheStoresOwnFiles() throws {
        let dir = TemporaryDirectory()
        let store = try ownerStore(dir)
        try store.add(.genericPassword(service: "svc", account: "a", data: Data("pw".utf8), accessGroup: "G"))
        let link = dir.url.appending(path: "link-to-store")
        try FileManager.default.linkItem(at: store.url, to: link)   // a hard link: another name, the same file
        for destination in [store.url, URL(filePath: store.url.path + "-wal"), dir.deviceKeyURL, link] {
            let error = try #require(throws: SecStoreError.self) {
                try store.exportBackup(to: destination, passphrase: "bp", limits: .minimumForTesting, replacingExisting: true)
            }
            #expect(error.code == .invalidParameter && error.message.contains("own file"), "\(destination.path): \(error)")
        }
        let reopened = try ownerStore(dir)
        #expect(try reopened.find(Query(service: "svc", account: "a", returning: .data)).first?.data == Data("pw".utf8))
        #expect(try reopened.verify().isIntact)
    }

    @Test func entitledHandlesCannotExport() throws {
        let dir = TemporaryDirectory()
        let store = try dir.openStore()
        let error = try #require(throws: SecStoreError.self) {
            try store.exportBackup(to: dir.url.appending(path: "x.ssb"), passphrase: "p", limits: .minimumForTesting)
        }
        #expect(error.code == .missingEntitlement)
    }
}

@Suite struct VerifyTests {
    @Test func verifyNamesTheDamagedItemAndOnlyIt() throws {
        let dir = TemporaryDirectory()
        let store = try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL))
        var references: [PersistentReference] = []
        for index in 0..<5 {
            let added = try store.add(.genericPassword(service: "svc", account: "a\(index)", data: Data("s\(index)".utf8), accessGroup: "G"),
                                      returning: .persistentReference)
            references.append(try #require(added.persistentReference))
        }
        #expect(try store.verify().isIntact)
        #expect(try store.verify().verifiedItems == 5)

        // Damage the secret of the third item on disk: byte 31 changed (a fixed replacement
        // byte would leave it as it was once in 256 runs).
        try DatabaseQueue(path: dir.storeURL.path).write { db in
            try db.execute(sql: """
                UPDATE items SET secret = substr(secret, 1, 30)
                    || (CASE WHEN substr(secret, 31, 1) = x'00' THEN x'01' ELSE x'00' END) || substr(secret, 32)
                WHERE ref = ?
                """, arguments: [Data(references[2].data.dropFirst(4))])
            #expect(db.changesCount == 1)
        }
        let report = try store.verify()
        #expect(!report.isIntact)
        #expect(report.verifiedItems == 4)
        #expect(report.damagedItems.map(\.persistentReference) == [references[2]])
        #expect(report.damagedItems.first?.problem == "its secret failed authentication")

        // The damaged row no longer matches the store's digest either; removing it leaves
        // that for the owner to accept once the items are as they should be.
        #expect(!report.itemsMatchDigest)
        try store.removeDamagedItem(references[2])
        let afterRemoval = try store.verify()
        #expect(afterRemoval.damagedItems.isEmpty && !afterRemoval.itemsMatchDigest)
        try store.acceptCurrentItems()
        #expect(try store.verify().isIntact)
        #expect(throws: SecStoreError.self) { try store.removeDamagedItem(references[2]) }
    }

    @Test func statisticsCountByClassAccessibilityAndGroup() throws {
        let dir = TemporaryDirectory()
        let store = try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL))
        try store.add(.genericPassword(service: "s", account: "1", accessGroup: "G1"))
        try store.add(.genericPassword(service: "s", account: "2", accessGroup: "G2", accessibility: .always))
        try store.add(.internetPassword(server: "h", account: "3", accessGroup: "G2"))
        let stats = try store.statistics()
        #expect(stats.itemCount == 3)
        #expect(stats.countsByClass == [.genericPassword: 2, .internetPassword: 1])
        #expect(stats.countsByAccessibility == [.whenUnlocked: 2, .always: 1])
        #expect(stats.countsByGroup == ["G1": 1, "G2": 2])
        #expect(stats.formatVersion == 4)
        #expect(stats.lockState == .noPassphrase)
        #expect(stats.files.first?.url.path == dir.storeURL.path)
    }
}

@Suite struct BackupReplaceTests {
    /// An owner's store in `dir` holding one item.
    func storeWithOneItem(_ dir: TemporaryDirectory) throws -> SecretStore {
        let store = try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL))
        try store.add(.genericPassword(service: "s", account: "1", accessGroup: "G"))
        return store
    }

    /// The temporary files an export left in `dir` (none, whatever happened).
    func temporaries(_ dir: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.hasSuffix(".tmp") }
    }

    @Test func exportingOverAnExistingBackupReplacesIt() throws {
        let dir = TemporaryDirectory()
        let store = try storeWithOneItem(dir)
        let backup = dir.url.appending(path: "backup.ssb")
        #expect(try store.exportBackup(to: backup, passphrase: "p", limits: .minimumForTesting).exported == 1)
        try store.add(.genericPassword(service: "s", account: "2", accessGroup: "G"))
        #expect(try store.exportBackup(to: backup, passphrase: "p", limits: .minimumForTesting).exported == 2)
        let target = try SecretStore(at: dir.url.appending(path: "t.secstore"), options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL))
        #expect(try target.importBackup(from: backup, passphrase: "p").added == 2)
        // No temporary files are left next to the backup.
        #expect(try temporaries(dir).isEmpty)
    }

    /// Before: an export without replacing could only be asked for by checking first, so a
    /// file created while the backup was written (Argon2id takes a second) was replaced.
    @Test func anExportThatMayNotReplaceLeavesAFileThatAppearedMeanwhile() throws {
        let dir = TemporaryDirectory()
        let store = try storeWithOneItem(dir)
        let backup = dir.url.appending(path: "backup.ssb")
        let precious = Data("someone else's file".utf8)
        let failure = try #require(throws: SecStoreError.self) {
            try store.exportBackup(to: backup, passphrase: "p", limits: .minimumForTesting, replacingExisting: false) { _ in
                if !FileManager.default.fileExists(atPath: backup.path) { try? precious.write(to: backup) }
            }
        }
        #expect(failure.code == .duplicateItem)
        #expect(try Data(contentsOf: backup) == precious)
        #expect(try temporaries(dir).isEmpty)
    }

    /// Before: a rename put the backup in place of whatever was there; as root, `secstore export
    /// --force /dev/null` replaced the system's `/dev/null` with a private file.
    @Test func anExportNeverReplacesAFIFOOrADevice() throws {
        let dir = TemporaryDirectory()
        let store = try storeWithOneItem(dir)
        let fifo = dir.url.appending(path: "pipe")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let failure = try #require(throws: SecStoreError.self) {
            try store.exportBackup(to: fifo, passphrase: "p", limits: .minimumForTesting)
        }
        #expect(failure.code == .ioFailure && failure.message.contains("not a regular file"))
        var info = stat()
        #expect(lstat(fifo.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(try temporaries(dir).isEmpty)
    }

    @Test func aShortForeignFileIsNotABackup() throws {
        let dir = TemporaryDirectory()
        let store = try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL))
        let file = dir.url.appending(path: "short.txt")
        try Data("hello".utf8).write(to: file)
        let error = try #require(throws: SecStoreError.self) { try store.importBackup(from: file, passphrase: "p") }
        #expect(error.code == .corruptData)
        #expect(error.message.contains("not a SecStore backup"))
    }
}

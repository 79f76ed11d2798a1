import Foundation
import SecStoreTestSupport
import Testing
@testable import SecStore

/// A store file moved or deleted under a handle that has it open. No SQLite connection ever
/// creates a store's file (``DatabaseFile``): a connection opened after the file went — the
/// snapshot readers of `lockState`, `verify`, `statistics` and `export`, a statement reader,
/// the writer of a handle opening at that moment — fails with `storeUnavailable` saying that
/// the file is gone, and leaves nothing at its path.
@Suite struct StoreFileGoneTests {
    /// Calls of a handle that each open a connection of their own after the open: the snapshot
    /// readers of `lockState`, `verify`, `statistics` and `export`, and a statement reader (a
    /// search inside the handle's own transaction runs on one).
    static func operationsOpeningAConnection(_ store: SecretStore, backup: URL) -> [(String, () throws -> Void)] {
        [
            ("lockState", { _ = try store.lockState }),
            ("verify", { _ = try store.verify() }),
            ("statistics", { _ = try store.statistics() }),
            ("export", { _ = try store.exportBackup(to: backup, passphrase: "p", limits: .interactive) }),
            ("a search on a reader", { _ = try store.write { _ in try store.items(matching: Query(service: "s", account: "a")) } }),
        ]
    }

    enum Loss: String, CaseIterable, Sendable {
        /// `mv store store-wal store-shm elsewhere/`.
        case moved
        /// `rm store store-wal store-shm`.
        case deleted
    }

    /// Before: each read that opened a connection after the file went failed with "Cannot open
    /// the store (14 (unable to open database file)). Check that the path exists", which does
    /// not say what happened or what to do. (Those connections are read-only, so SQLite made
    /// no file for them; the writer's open is below.)
    @Test(arguments: Loss.allCases)
    func connectionsOpenedAfterTheFileWentSaySoAndCreateNothing(loss: Loss) throws {
        let directory = TemporaryDirectory()
        let path = directory.storeURL.path
        let elsewhere = directory.url.appending(path: "elsewhere", directoryHint: .isDirectory)
        #expect(mkdir(elsewhere.path, 0o700) == 0)
        let movedURL = elsewhere.appending(path: "test.secstore")
        do {
            let store = try directory.ownerStore("data/test")
            _ = try store.add(.genericPassword(service: "s", account: "a", data: Data("kept".utf8), accessGroup: "G"))
            for suffix in ["", "-wal", "-shm"] {
                switch loss {
                case .moved: #expect(rename(path + suffix, movedURL.path + suffix) == 0, "\(suffix)")
                case .deleted: _ = unlink(path + suffix)
                }
            }
            #expect(!FileManager.default.fileExists(atPath: path))

            let backup = elsewhere.appending(path: "backup.secstore-backup")
            for (name, operation) in Self.operationsOpeningAConnection(store, backup: backup) {
                let error = try #require(throws: SecStoreError.self, "\(name)") { try operation() }
                #expect(error.code == .storeUnavailable, "\(name): \(error)")
                #expect(error.message.contains("is gone") && error.message.contains("moved or deleted"), "\(name): \(error.message)")
                #expect(!FileManager.default.fileExists(atPath: path), "\(name) made a file at the store's old path")
            }
            #expect(!FileManager.default.fileExists(atPath: backup.path), "no backup is written from a store that is gone")
        }
        // Nothing was made at the old path, and every file there is is private.
        #expect(!FileManager.default.fileExists(atPath: path))
        for file in directory.allFiles() {
            #expect(try permissionBits(of: file) == 0o600, "\(file.path)")
        }
        if loss == .moved {
            // The store that moved lost nothing, and opens where it now is.
            let moved = try SecretStore(at: movedURL, options: .init(access: .owner, deviceKeyURL: directory.deviceKeyURL,
                                                                     createIfMissing: false, firstUnlockCache: .processMemory))
            #expect(try moved.items(matching: Query(service: "s", account: "a", returning: .data)).first?.data == Data("kept".utf8))
            #expect(try moved.verify().isIntact)
        }
    }

    /// An owner store at `data/test` holding one item (service `s`, account `a`, group `G`,
    /// `secret`), and an empty private directory `elsewhere` beside it; `movedURL` is where the
    /// store goes when a test moves it there.
    private static func storeWithRoomToMove(secret: String) throws -> (directory: TemporaryDirectory, store: SecretStore, movedURL: URL) {
        let directory = TemporaryDirectory()
        let elsewhere = directory.url.appending(path: "elsewhere", directoryHint: .isDirectory)
        #expect(mkdir(elsewhere.path, 0o700) == 0)
        let store = try directory.ownerStore("data/test")
        _ = try store.add(.genericPassword(service: "s", account: "a", data: Data(secret.utf8), accessGroup: "G"))
        return (directory, store, elsewhere.appending(path: "test.secstore"))
    }

    /// Before: a handle whose store was moved away and replaced by another store (a restored
    /// copy, a new store) opened its later connections on the new file, so it read one store
    /// while its writer wrote the other. Every connection now checks that its name still
    /// reaches the file the open checked (``DatabaseFile``).
    @Test func connectionsNeverReachAFilePutInTheStoresPlace() throws {
        let (directory, store, movedURL) = try Self.storeWithRoomToMove(secret: "first store")
        let path = directory.storeURL.path
        let elsewhere = movedURL.deletingLastPathComponent()
        for suffix in ["", "-wal", "-shm"] { #expect(rename(path + suffix, movedURL.path + suffix) == 0, "\(suffix)") }
        do {
            let replacement = try directory.ownerStore("data/test")
            _ = try replacement.add(.genericPassword(service: "s", account: "a", data: Data("second store".utf8), accessGroup: "G"))
        }

        let backup = elsewhere.appending(path: "backup.secstore-backup")
        for (name, operation) in Self.operationsOpeningAConnection(store, backup: backup) {
            let error = try #require(throws: SecStoreError.self, "\(name)") { try operation() }
            #expect(error.code == .storeUnavailable && error.message.contains("no longer the file this program opened"), "\(name): \(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: backup.path))
        // Both stores are whole, each with its own item.
        let options = SecretStore.Options(access: .owner, deviceKeyURL: directory.deviceKeyURL, createIfMissing: false,
                                          firstUnlockCache: .processMemory)
        for (url, secret) in [(movedURL, "first store"), (directory.storeURL, "second store")] {
            let reopened = try SecretStore(at: url, options: options)
            #expect(try reopened.items(matching: Query(service: "s", account: "a", returning: .data)).map(\.data) == [Data(secret.utf8)], "\(url.path)")
            #expect(try reopened.verify().isIntact, "\(url.path)")
        }
    }

    /// Before: a handle whose store was deleted, moved or replaced went on writing through the
    /// writer it opened before, and reported success: into a deleted file (every write lost when
    /// the process ended; `ack-writer` acknowledged 233 writes in the second after `rm`), or
    /// through the log at the old path that a store renamed into that path now reads (a live
    /// writer's commits after `mv restored.secstore store.secstore` left the restored store
    /// "created with another device key"). Each write transaction now checks, holding the write
    /// lock, that the path still reaches the file the open checked, and refuses otherwise.
    @Test(arguments: [Loss.moved, Loss.deleted, nil])
    func writesAfterTheFileWentOrWasReplacedAreRefused(loss: Loss?) throws {
        let (directory, store, movedURL) = try Self.storeWithRoomToMove(secret: "kept")
        let path = directory.storeURL.path
        for suffix in ["", "-wal", "-shm"] {
            if loss == .deleted { _ = unlink(path + suffix) } else { #expect(rename(path + suffix, movedURL.path + suffix) == 0) }
        }
        if loss == nil {
            // Moved away, and another store made in its place (a restored copy, a new store).
            let replacement = try directory.ownerStore("data/test")
            _ = try replacement.add(.genericPassword(service: "s", account: "a", data: Data("second store".utf8), accessGroup: "G"))
        }
        let writes: [(String, () throws -> Void)] = [
            ("add", { _ = try store.add(.genericPassword(service: "s", account: "b", data: Data("late".utf8), accessGroup: "G")) }),
            ("update", { _ = try store.update(matching: Query(service: "s", account: "a"), with: ItemChanges(data: Data("late".utf8))) }),
            ("delete", { _ = try store.delete(matching: Query(service: "s", account: "a")) }),
            ("write", { try store.write { _ = try $0.add(.genericPassword(service: "s", account: "c", data: Data("late".utf8), accessGroup: "G")) } }),
        ]
        for (name, write) in writes {
            let error = try #require(throws: SecStoreError.self, "\(name)") { try write() }
            #expect(error.code == .storeUnavailable, "\(name): \(error)")
            #expect(error.message.contains(loss == nil ? "no longer the file this program opened" : "is gone"), "\(name): \(error.message)")
        }
        let options = SecretStore.Options(access: .owner, deviceKeyURL: directory.deviceKeyURL, createIfMissing: false,
                                          firstUnlockCache: .processMemory)
        var expected: [(URL, String)] = []
        if loss != .deleted { expected.append((movedURL, "kept")) }
        if loss == nil { expected.append((directory.storeURL, "second store")) }
        for (url, secret) in expected {
            let reopened = try SecretStore(at: url, options: options)
            #expect(try reopened.items(matching: Query(service: "s", limit: .all, returning: .data)).map(\.data) == [Data(secret.utf8)], "\(url.path)")
            #expect(try reopened.verify().isIntact, "\(url.path)")
        }
    }

    /// Before: deleting a store's `-shm` (or `-wal`) while a program had the store open — files
    /// that look like leftovers — split the store in two: that program kept the old shared
    /// memory and the processes that opened the store afterwards made a new one, so each side
    /// took SQLite's write lock in its own file and wrote the one log at offsets the other did
    /// not know, and every process's writes were acknowledged. Run by hand, the 20 adds of
    /// other processes were gone once `ack-writer` went on writing. Now the handle that opened
    /// the store before refuses to write (the files it opened are no longer the store's), and
    /// skips the checkpoint on close that would fold its stale view into the file and delete
    /// the log the others use; the others' writes are kept. With the `-wal` deleted, the others
    /// cannot read the store (`storeUnavailable`, ``otherProgramsAfterTheLogWasDeletedAreToldSo()``) and the handle's writes went into a log only it
    /// still had, lost if it was killed: refused too, and its close folds what it committed
    /// before into the file.
    @Test(arguments: ["-shm", "-wal"])
    func aHandleWhoseCompanionWasDeletedStopsWriting(suffix: String) throws {
        let directory = TemporaryDirectory()
        let options = SecretStore.Options(access: .owner, deviceKeyURL: directory.deviceKeyURL, firstUnlockCache: .processMemory)
        let item = { (account: String) in Item.genericPassword(service: "s", account: account, data: Data(account.utf8), accessGroup: "G") }
        do {
            let store = try SecretStore(at: directory.storeURL, options: options)
            _ = try store.add(item("before"))
            #expect(unlink(directory.storeURL.path + suffix) == 0)
            let other = try HelperProcess(product: "secstore-test-helper").run([
                "op", "--store", directory.storeURL.path, "--device-key", directory.deviceKeyURL.path, "--owner", "yes",
                "--op", "add", "--service", "s", "--account", "other", "--in-group", "G", "--value", "other"])
            #expect(other.lines == [suffix == "-shm" ? "ok" : "error storeUnavailable \(SecStoreError.Code.storeUnavailable.status)"],
                    "\(other.output)")
            let error = try #require(throws: SecStoreError.self) { _ = try store.add(item("after")) }
            #expect(error.code == .storeUnavailable && error.message.contains(suffix), "\(error)")
        }
        let reopened = try SecretStore(at: directory.storeURL, options: options)
        let accounts = try reopened.items(matching: Query(service: "s", limit: .all, returning: .attributes)).compactMap(\.attributes.account)
        #expect(Set(accounts) == (suffix == "-shm" ? ["before", "other"] : ["before"]))
        #expect(try reopened.verify().isIntact)
    }

    /// Before: a store's `-wal` deleted while a program had the store open made every other
    /// program fail with `ioFailure` and "the disk may be full, over quota or failing" — the
    /// wrong fix, for a disk that is fine. Their shared memory describes a log that is no
    /// longer at the name (SQLite makes a new, empty one there and reads past its end). Now
    /// they get `storeUnavailable` saying the log was deleted or replaced while a program had
    /// the store open, as that program does at its next write; once it closes (its close folds
    /// what it committed into the file) the store opens again with everything in it.
    @Test func otherProgramsAfterTheLogWasDeletedAreToldSo() throws {
        let directory = TemporaryDirectory()
        let options = SecretStore.Options(access: .owner, deviceKeyURL: directory.deviceKeyURL, firstUnlockCache: .processMemory)
        let path = directory.storeURL.path
        do {
            let store = try SecretStore(at: directory.storeURL, options: options)
            _ = try store.add(Item.genericPassword(service: "s", account: "before", data: Data("before".utf8), accessGroup: "G"))
            #expect(unlink(path + "-wal") == 0)
            let other = try HelperProcess(product: "secstore-test-helper").run([
                "op", "--store", path, "--device-key", directory.deviceKeyURL.path, "--owner", "yes",
                "--op", "read", "--service", "s", "--account", "before"])
            #expect(other.lines == ["error storeUnavailable \(SecStoreError.Code.storeUnavailable.status)"], "\(other.output)")
            let cli = try ProgramRun.run(ProgramRun.productsDirectory.appending(path: "secstore"),
                                         ["--store", path, "--device-key", directory.deviceKeyURL.path, "list"],
                                         environment: ["SECSTORE_KEYRING": "off", "HOME": directory.url.path])
            #expect(cli.status != 0 && cli.stderr.contains("\(path)-wal") && cli.stderr.contains("deleted or replaced")
                    && !cli.stderr.contains("disk may be full"), "\(cli)")
        }
        let reopened = try SecretStore(at: directory.storeURL, options: options)
        #expect(try reopened.items(matching: Query(service: "s", limit: .all, returning: .attributes)).compactMap(\.attributes.account) == ["before"])
    }

    /// Before: an open that refused a store still checkpointed its log into the file when it
    /// closed. When the log is not the file's own — another store renamed over one whose writer
    /// was killed with its commits in the `-wal` (SQLite finds the log by name) — the refused
    /// open ("created with another device key") wrote the old store's pages into the new one
    /// and deleted the log: the restored store was damaged for good. An open that refuses a
    /// store now leaves its log as it is, so moving the stray `-wal` and `-shm` aside gives the
    /// store back whole.
    @Test func anOpenThatRefusesAStoreLeavesItsLogAlone() throws {
        let directory = TemporaryDirectory()
        let options = SecretStore.Options(access: .owner, deviceKeyURL: directory.deviceKeyURL, firstUnlockCache: .processMemory)
        let path = directory.storeURL.path
        let restored = directory.url.appending(path: "data/restored.secstore")
        do {
            let store = try SecretStore(at: restored, options: options)
            _ = try store.add(.genericPassword(service: "s", account: "restored", data: Data("whole".utf8), accessGroup: "G"))
        }
        _ = try SecretStore(at: directory.storeURL, options: options)
        let writer = try HelperProcess(product: "secstore-test-helper").start([
            "ack-writer", "--store", path, "--device-key", directory.deviceKeyURL.path, "--app-id", "T.a", "--group", "T.a"])
        let deadline = Date(timeIntervalSinceNow: 20)
        while Date() < deadline && (try? Data(contentsOf: URL(filePath: path + "-wal")).count) ?? 0 < 256 * 1024 { usleep(20_000) }
        writer.kill()
        _ = try? writer.finish()
        #expect(rename(restored.path, path) == 0)

        #expect(throws: SecStoreError.self, "the old store's log read into the restored one") { _ = try SecretStore(at: directory.storeURL, options: options) }
        #expect(FileManager.default.fileExists(atPath: path + "-wal"), "the refused open folded the log into the file and deleted it")
        for suffix in ["-wal", "-shm"] { _ = rename(path + suffix, restored.path + suffix) }
        let reopened = try SecretStore(at: directory.storeURL, options: options)
        #expect(try reopened.items(matching: Query(service: "s", limit: .all, returning: .data)).map(\.data) == [Data("whole".utf8)])
        #expect(try reopened.verify().isIntact)
    }

    /// Before: a file removed between the open's own checks and SQLite's open of the writer was
    /// made again by SQLite (GRDB asks for `SQLITE_OPEN_CREATE`: `O_CREAT`, mode `0644` less the
    /// umask), empty and readable by others, and the open went on to call it a damaged store;
    /// the empty file then stood in the way of `secstore create`.
    @Test func aFileThatGoesJustBeforeTheWriterOpensIsNotMadeAgain() throws {
        let directory = TemporaryDirectory()
        _ = try directory.openStore()
        let url = directory.storeURL
        var thrown: (any Error)?
        do {
            _ = try StoreDatabase(url: url, busyTimeout: 1, creating: false, beforeOpeningWriter: {
                for suffix in ["", "-wal", "-shm"] { _ = unlink(url.path + suffix) }
            })
        } catch {
            thrown = error
        }
        let mode = try? permissionBits(of: url)
        #expect(mode == nil, "a file of mode \(String(mode ?? 0, radix: 8)) was made at the store's path")
        let error = try #require(thrown as? SecStoreError, "\(String(describing: thrown))")
        #expect(error.code == .storeUnavailable && error.message.contains("is gone"), "\(error)")
        // The path is free: a new store can be created there.
        _ = try directory.openStore()
        #expect(try permissionBits(of: url) == 0o600)
    }

    /// Every connection names the file by a URI filename now (``DatabaseFile``), where `%`, `?`
    /// and `#` mean something: a store whose path holds them opens, on every kind of
    /// connection, at exactly that path.
    @Test func aPathWithURICharactersIsTheStoresPath() throws {
        let directory = TemporaryDirectory()
        let url = directory.url.appending(path: "we?ird#dir%20/st ore%3f#1.secstore")
        let options = SecretStore.Options(access: .owner, deviceKeyURL: directory.deviceKeyURL, firstUnlockCache: .processMemory)
        do {
            let store = try SecretStore(at: url, options: options)
            _ = try store.add(.genericPassword(service: "s", account: "a", data: Data("v".utf8), accessGroup: "G"))
            #expect(try store.lockState == .noPassphrase)
            #expect(try store.verify().isIntact)
            let seen = try store.write { _ in try store.items(matching: Query(service: "s", account: "a", returning: .data)) }
            #expect(seen.first?.data == Data("v".utf8))
            #expect(store.engine.database.hasReaderConnection)
        }
        let reopened = try SecretStore(at: url, options: options)
        #expect(try reopened.items(matching: Query(service: "s", account: "a", returning: .data)).first?.data == Data("v".utf8))
        let names = Set(directory.allFiles().map { $0.path.replacingOccurrences(of: directory.url.path + "/", with: "") })
        #expect(names.isSubset(of: ["we?ird#dir%20/st ore%3f#1.secstore", "we?ird#dir%20/st ore%3f#1.secstore-wal",
                                    "we?ird#dir%20/st ore%3f#1.secstore-shm", "keys/device.key"]), "\(names)")
        #expect(names.contains("we?ird#dir%20/st ore%3f#1.secstore"))
    }
}

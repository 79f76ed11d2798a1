import Foundation
import SecStore
import Testing

@Suite("secstore export and import")
struct BackupTests {
    static let backupPassphrase = "backup passphrase"

    /// Runs export with the fast KDF and the backup passphrase on standard input.
    private func export(_ store: CLIStore, to file: URL, _ extra: [String] = [], stdin: String = backupPassphrase + "\n") throws -> CLI.Result {
        try store.run(["export", file.path, "--backup-passphrase-stdin"] + CLIStore.fastKDF + extra, stdin: Data(stdin.utf8))
    }

    private func importBackup(_ store: CLIStore, from file: URL, _ extra: String..., passphrase: String = backupPassphrase) throws -> CLI.Result {
        try store.run(["import", file.path, "--backup-passphrase-stdin"] + extra, stdin: Data((passphrase + "\n").utf8))
    }

    /// Every item of a store, opened through the engine: class, attributes and secret.
    private func contents(_ store: CLIStore) throws -> [Item] {
        let handle = try store.open()
        var items: [Item] = []
        for itemClass in ItemClass.allCases {
            do {
                items += try handle.items(matching: Query(itemClass: itemClass, synchronizable: .any, limit: .all,
                                                          returning: [.attributes, .data]))
            } catch let error as SecStoreError where error.code == .itemNotFound {}
        }
        return items
    }

    /// A store with every kind of attribute and value, in every accessibility class.
    private func richStore() throws -> CLIStore {
        let store = try CLIStore.created()
        let handle = try store.open()
        var generic = Item.genericPassword(service: "api", account: "alice", data: Data("pw".utf8), accessGroup: "local.secstore",
                                           label: "Example")
        generic.attributes.comment = "a comment"
        generic.attributes.itemDescription = "application password"
        generic.attributes.generic = Data([0x00, 0x01, 0xFF])
        generic.attributes[.creator] = .number(0x61626364)
        generic.attributes.isInvisible = true
        try handle.add(generic)
        try handle.add(.internetPassword(server: "example.com", account: "bob", data: Data([0xFF, 0x00, 0x0A]), protocol: .https,
                                         port: 8443, path: "/login", authenticationType: .htmlForm, securityDomain: "realm",
                                         accessGroup: "team.shared", accessibility: .afterFirstUnlock))
        var synchronizable = Item.genericPassword(service: "sync", account: "carol", data: Data("synced".utf8),
                                                  accessGroup: "local.secstore", accessibility: .always, synchronizable: true)
        synchronizable.attributes.label = "Synced"
        try handle.add(synchronizable)
        for accessibility in Accessibility.allCases where accessibility.isThisDeviceOnly && accessibility != .whenPasscodeSetThisDeviceOnly {
            try handle.add(.genericPassword(service: "local", account: accessibility.rawValue, data: Data("stays".utf8),
                                            accessGroup: "local.secstore", accessibility: accessibility))
        }
        return store
    }

    @Test("Export then import into a fresh store reproduces every exportable item exactly, and no …ThisDeviceOnly item")
    func roundTrip() throws {
        let source = try richStore()
        let backup = source.file("backup.ssb")
        let exported = try export(source, to: backup, ["--json"])
        #expect(exported.status == Exit.success, "\(exported)")
        let summary = try exported.jsonObject()
        #expect(summary["exported"] as? Int == 3)
        #expect(summary["skippedThisDeviceOnly"] as? Int == 3)
        #expect(summary["file"] as? String == backup.path)
        let mode = try FileManager.default.attributesOfItem(atPath: backup.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let destination = try CLIStore.created()
        let imported = try importBackup(destination, from: backup, "--json")
        #expect(imported.status == Exit.success, "\(imported)")
        let counts = try imported.jsonObject()
        #expect(counts["added"] as? Int == 3 && counts["skipped"] as? Int == 0 && counts["replaced"] as? Int == 0)

        let expected = try contents(source).filter { !($0.attributes.accessibility?.isThisDeviceOnly ?? false) }
        let restored = try contents(destination)
        #expect(expected.count == 3)
        #expect(Set(restored) == Set(expected), "attributes (dates included) and secrets must match exactly")
        #expect(!restored.contains { $0.attributes.accessibility?.isThisDeviceOnly ?? true })
    }

    @Test("Importing again skips, replaces or fails by --on-conflict; text output reports the counts")
    func conflicts() throws {
        let source = try CLIStore.created()
        try source.add(service: "api", account: "alice", secret: "old")
        try source.add(service: "api", account: "bob", secret: "bob")
        let backup = source.file("backup.ssb")
        #expect(try export(source, to: backup).stdout == "Exported 2 items to \(backup.path).\n")

        let skip = try importBackup(source, from: backup)
        #expect(skip.stdout == "Imported \(backup.path): 0 added, 2 skipped, 0 replaced.\n")

        let update = try source.run("update", "--service", "api", "--account", "alice", "--value-stdin", stdin: "new")
        try #require(update.status == Exit.success)
        let fail = try importBackup(source, from: backup, "--on-conflict", "fail")
        #expect(fail.status == Exit.duplicate)
        #expect(fail.stderr.contains("replace policy"))
        #expect(try source.run("get", "--service", "api", "--account", "alice").stdout == "new")

        let replace = try importBackup(source, from: backup, "--on-conflict", "replace", "--json")
        #expect(try replace.jsonObject()["replaced"] as? Int == 2)
        #expect(try source.run("get", "--service", "api", "--account", "alice").stdout == "old")
        #expect(try source.run("import", backup.path, "--on-conflict", "merge").status == Exit.usage)
    }

    @Test("A wrong backup passphrase is status 6 and imports nothing")
    func wrongBackupPassphrase() throws {
        let source = try CLIStore.created()
        try source.add(service: "api", account: "alice", secret: "pw")
        let backup = source.file("backup.ssb")
        try #require(try export(source, to: backup).status == Exit.success)
        let destination = try CLIStore.created()
        let result = try importBackup(destination, from: backup, passphrase: "not it")
        #expect(result.status == Exit.authenticationFailed)
        #expect(result.stderr.hasPrefix("secstore: error: The backup passphrase is not correct"))
        #expect(try destination.run("list", "--json").jsonArray().isEmpty)
    }

    @Test("A file that is not a backup is status 7")
    func malformedBackup() throws {
        let store = try CLIStore.created()
        let file = store.file("notes.txt")
        try Data(String(repeating: "these are not the bytes you are looking for\n", count: 4).utf8).write(to: file)
        let result = try importBackup(store, from: file)
        #expect(result.status == Exit.damaged, "\(result)")
        #expect(result.stderr.contains("not a SecStore backup"))

        let short = store.file("short.txt")
        try Data("tiny\n".utf8).write(to: short)
        #expect(try importBackup(store, from: short).status == Exit.damaged)
        #expect(try store.run("list", "--json").jsonArray().isEmpty)

        let missing = try importBackup(store, from: store.file("missing.ssb"))
        #expect(missing.status == Exit.failure)
        #expect(missing.stderr.contains("Cannot read the backup"))
    }

    @Test("A truncated backup is status 7 and imports nothing")
    func truncatedBackup() throws {
        let source = try CLIStore.created()
        for account in ["a", "b", "c"] { try source.add(service: "api", account: account, secret: "secret-\(account)") }
        let backup = source.file("backup.ssb")
        try #require(try export(source, to: backup).status == Exit.success)
        let bytes = try Data(contentsOf: backup)
        let truncated = source.file("truncated.ssb")
        try bytes.prefix(bytes.count - 20).write(to: truncated)

        let destination = try CLIStore.created()
        let result = try importBackup(destination, from: truncated)
        #expect(result.status == Exit.damaged, "\(result)")
        #expect(result.stderr.contains("truncated") || result.stderr.contains("damaged"))
        #expect(try destination.run("list", "--json").jsonArray().isEmpty, "a truncated backup imports nothing")
    }

    @Test("export refuses to overwrite without --force, and needs the store passphrase for locked classes")
    func exportGuards() throws {
        let store = try CLIStore.created(passphrase: true)
        try store.add(service: "api", account: "alice", secret: "pw", "--passphrase-file", try store.passphraseFile())
        let backup = store.file("backup.ssb")

        let locked = try export(store, to: backup)
        #expect(locked.status == Exit.locked, "\(locked)")
        #expect(!FileManager.default.fileExists(atPath: backup.path), "a failed export leaves no file")

        // The store passphrase is the first line of standard input, the backup's the second.
        let both = try export(store, to: backup, ["--passphrase-stdin"], stdin: CLIStore.passphrase + "\n" + Self.backupPassphrase + "\n")
        #expect(both.status == Exit.success, "\(both)")

        let exists = try export(store, to: backup, ["--passphrase-stdin"], stdin: CLIStore.passphrase + "\n" + Self.backupPassphrase + "\n")
        #expect(exists.status == Exit.duplicate)
        #expect(exists.stderr.contains("--force"))
        let forced = try export(store, to: backup, ["--passphrase-stdin", "--force"], stdin: CLIStore.passphrase + "\n" + Self.backupPassphrase + "\n")
        #expect(forced.status == Exit.success)

        // A dangling symbolic link is a name taken too (it used to be replaced without --force),
        // and --force never puts a backup in place of a FIFO or a device.
        let link = store.file("link.ssb")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: store.file("nowhere").path)
        let overLink = try export(store, to: link, ["--passphrase-stdin"], stdin: CLIStore.passphrase + "\n" + Self.backupPassphrase + "\n")
        #expect(overLink.status == Exit.duplicate, "\(overLink)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == store.file("nowhere").path)
        let fifo = store.file("pipe")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let overFIFO = try export(store, to: fifo, ["--passphrase-stdin", "--force"], stdin: CLIStore.passphrase + "\n" + Self.backupPassphrase + "\n")
        #expect(overFIFO.status != Exit.success && overFIFO.stderr.contains("not a regular file"), "\(overFIFO)")
        var info = stat()
        #expect(lstat(fifo.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)

        let noBackupPassphrase = try store.run("export", store.file("other.ssb").path)
        #expect(noBackupPassphrase.status == Exit.usage)
        #expect(noBackupPassphrase.stderr.contains("--backup-passphrase-stdin"))
    }

    /// The header's Argon2id limits are read before anything is authenticated: a backup
    /// asking for a terabyte of memory once crashed the import (double free, exit 139).
    @Test("A backup whose header asks Argon2id for absurd limits is refused as damaged (status 7) before any work")
    func absurdHeaderLimitsAreRefused() throws {
        let source = try CLIStore.created()
        try source.add(service: "api", account: "alice", secret: "pw")
        let backup = source.file("backup.secbak")
        try #require(try export(source, to: backup).status == Exit.success)
        var bytes = try Data(contentsOf: backup)
        // Bytes 24..<32: the memory limit, little-endian, after the 16-byte magic and the passes.
        withUnsafeBytes(of: UInt64(1 << 40).littleEndian) { bytes.replaceSubrange(24..<32, with: $0) }
        try bytes.write(to: backup)
        let destination = try CLIStore.created()
        let result = try importBackup(destination, from: backup)
        #expect(result.status == Exit.damaged, "\(result)")
        #expect(result.stderr.contains("key-derivation limits"), "\(result.stderr)")
        #expect(try destination.run("list", "--json").jsonArray().isEmpty)
    }

    /// An empty store, and beside it a backup whose header asks Argon2id for `memory` bytes (an
    /// accepted amount, unlike the test above).
    private func backupAsking(memory: UInt64) throws -> (backup: URL, destination: CLIStore) {
        let source = try CLIStore.created()
        try source.add(service: "api", account: "alice", secret: "pw")
        let destination = try CLIStore.created()
        let backup = destination.file("backup.secbak")
        try #require(try export(source, to: backup).status == Exit.success)
        var bytes = try Data(contentsOf: backup)
        withUnsafeBytes(of: memory.littleEndian) { bytes.replaceSubrange(24..<32, with: $0) }
        try bytes.write(to: backup)
        return (backup, destination)
    }

    /// Runs `secstore import` of `backup` into `destination` through `/bin/sh` with `shell`
    /// arguments that end by exec'ing the tool.
    private func importThroughShell(_ backup: URL, into destination: CLIStore, _ shell: (URL, [String]) -> [String]) throws -> CLI.Result {
        try CLI.run(shell(CLI.executableURL, ["import", backup.path, "--backup-passphrase-stdin"] + destination.storeArguments),
                    stdin: Data((Self.backupPassphrase + "\n").utf8), home: destination.directory,
                    executable: URL(filePath: "/bin/sh"))
    }

    /// Argon2id's memory is one allocation the kernel grants by overcommit; asking for more than
    /// the process may have ended, before, in a failed allocation's vaguer message here, and in
    /// an OOM kill in a control group (the next test).
    @Test("A backup asking Argon2id for more memory than the address-space limit allows is refused first, saying what it needs and what there is")
    func headerLimitsAboveTheAddressSpaceLimit() throws {
        let (backup, destination) = try backupAsking(memory: 1 << 32)   // 4 GiB, the most SecStore accepts
        let result = try importThroughShell(backup, into: destination) { tool, arguments in
            ["-c", "ulimit -v 1048576 && exec \"$@\"", "sh", tool.path] + arguments
        }
        #expect(result.status == Exit.failure, "\(result)")
        #expect(result.stderr.contains("needs 4.0 GiB of memory") && result.stderr.contains("ulimit -v"), "\(result)")
        #expect(try destination.run("list", "--json").jsonArray().isEmpty)
    }

    /// Before, the kernel killed the import part-way through Argon2id (SIGKILL, no message),
    /// as it would in a container with less memory than a backup made elsewhere asks for.
    @Test("In a control group with less memory than a backup's Argon2id asks for, the import says so instead of being killed",
          .enabled(if: MemoryControlGroup.isAvailable, "needs root and a memory control group hierarchy"))
    func headerLimitsAboveTheControlGroupLimit() throws {
        let (backup, destination) = try backupAsking(memory: 1 << 30)   // 1 GiB
        let group = try MemoryControlGroup(limit: 256 << 20)
        defer { group.remove() }
        let result = try importThroughShell(backup, into: destination, group.shellArguments)
        #expect(result.status == Exit.failure, "\(result)")
        #expect(result.stderr.contains("needs 1.0 GiB of memory") && result.stderr.contains("control group"), "\(result)")
        #expect(try destination.run("list", "--json").jsonArray().isEmpty)
    }

    @Test("export - writes the backup to standard output (messages to standard error), and it imports; --json is refused there")
    func exportToStandardOutput() throws {
        let source = try CLIStore.created()
        try source.add(service: "api", account: "alice", secret: "pw")
        let exported = try source.run(["export", "-", "--backup-passphrase-stdin"] + CLIStore.fastKDF,
                                      stdin: Data((Self.backupPassphrase + "\n").utf8))
        #expect(exported.status == Exit.success, "\(exported)")
        #expect(exported.stdoutData.starts(with: Data("SECSTORE-BACKUP1".utf8)))
        #expect(exported.stderr.contains("Exported 1 item to standard output."))
        #expect(!FileManager.default.fileExists(atPath: source.directory.appending(path: "-").path))
        let backup = source.file("from-stdout.ssb")
        try exported.stdoutData.write(to: backup)
        let destination = try CLIStore.created()
        #expect(try importBackup(destination, from: backup).status == Exit.success)
        #expect(try destination.run("get", "--service", "api", "--account", "alice").stdout == "pw")
        #expect(try source.run("export", "-", "--json").status == Exit.usage)
    }

    @Test("Importing access-controlled items into a store without a passphrase says why (not 'wrong backup passphrase')")
    func importNeedsAStorePassphraseForAccessControl() throws {
        let source = try CLIStore.created(passphrase: true)
        let owner = try SecretStore(at: source.storeURL, options: .init(access: .owner, deviceKeyURL: source.deviceKeyURL))
        try owner.unlock(passphrase: CLIStore.passphrase)
        var item = Item.genericPassword(service: "api", account: "alice", data: Data("pw".utf8), accessGroup: "local.secstore")
        item.attributes.accessControlFlags = .userPresence
        try owner.add(item)
        let backup = source.file("controlled.ssb")
        _ = try owner.exportBackup(to: backup, passphrase: Self.backupPassphrase, limits: .minimumForTesting)
        let destination = try CLIStore.created()
        let result = try importBackup(destination, from: backup)
        #expect(result.status == Exit.authenticationFailed, "\(result)")
        #expect(result.stderr.contains("need a passphrase on the store"), "\(result.stderr)")
        #expect(!result.stderr.contains("backup passphrase is not correct"))
    }

    @Test("import --on-conflict replace keeps a stored …ThisDeviceOnly item with the backup item's primary key, and says so")
    func replaceKeepsThisDeviceOnlyItems() throws {
        let source = try CLIStore.created()
        try source.add(service: "api", account: "alice", secret: "from-backup")
        try source.add(service: "api", account: "bob", secret: "bob-from-backup")
        let backup = source.file("backup.ssb")
        try #require(try export(source, to: backup).status == Exit.success)

        // Accessibility is not part of the primary key: this item collides with the backup's.
        let destination = try CLIStore.created()
        try destination.add(service: "api", account: "alice", secret: "only-here", "--accessibility", "whenUnlockedThisDeviceOnly")
        try destination.add(service: "api", account: "bob", secret: "old-bob")
        let replaced = try importBackup(destination, from: backup, "--on-conflict", "replace", "--json")
        #expect(replaced.status == Exit.success, "\(replaced)")
        let counts = try replaced.jsonObject()
        #expect(counts["replaced"] as? Int == 1 && counts["skipped"] as? Int == 1 && counts["keptThisDeviceOnly"] as? Int == 1, "\(counts)")
        #expect(try destination.run("get", "-s", "api", "-a", "alice").stdout == "only-here", "no backup holds this secret")
        #expect(try destination.run("get", "-s", "api", "-a", "bob").stdout == "bob-from-backup")
        let attributes = try #require(try destination.run("get", "-s", "api", "-a", "alice", "--json").jsonObject()["attributes"] as? [String: Any])
        #expect(attributes["accessibility"] as? String == "whenUnlockedThisDeviceOnly")

        let text = try importBackup(destination, from: backup, "--on-conflict", "replace")
        #expect(text.stdout == "Imported \(backup.path): 0 added, 1 skipped, 1 replaced.\n", "\(text)")
        #expect(text.stderr.contains("Kept 1 stored …ThisDeviceOnly item"), "\(text.stderr)")
    }

    @Test("A backup's items of the reserved group secstore.sync are left out and reported, under every policy; the rest is restored")
    func reservedSyncGroupIsLeftOut() throws {
        let source = try CLIStore.created()
        try source.add(service: "api", account: "alice", secret: "pw")
        // The tool refuses the group (`DefaultGroup.checkUserWritable`); any program using the
        // library may still write there, and its item is exported like any other.
        var planted = Attributes()
        planted.service = "secstore.sync"
        planted.account = "settings"
        planted.accessGroup = "secstore.sync"
        try source.open().add(Item(itemClass: .genericPassword, attributes: planted,
                                   data: Data("{\"endpoints\": [\"http://evil:2379\"]}".utf8)))
        let backup = source.file("planted.ssb")
        try #require(try export(source, to: backup).status == Exit.success)

        for policy in ["skip", "replace", "fail"] {
            let destination = try CLIStore.created()
            let result = try importBackup(destination, from: backup, "--on-conflict", policy, "--json")
            #expect(result.status == Exit.success, "\(policy): \(result)")
            let counts = try result.jsonObject()
            #expect(counts["added"] as? Int == 1 && counts["skippedReserved"] as? Int == 1, "\(policy): \(counts)")
            #expect(result.stderr.contains("Left out 1 item of the access group secstore.sync"), "\(result.stderr)")
            let listed = try destination.run("list", "--json").jsonArray()
            #expect(listed.count == 1 && (listed.first?["attributes"] as? [String: Any])?["account"] as? String == "alice",
                    "only the item outside the reserved group, under \(policy): \(listed)")
        }
    }
}

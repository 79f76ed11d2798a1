import Foundation
import Testing

@Suite("secstore create and info")
struct CreateAndInfoTests {
    @Test("create makes a private store file and refuses to overwrite one")
    func createOnce() throws {
        let store = try CLIStore()
        let created = try store.run("create")
        #expect(created.status == Exit.success, "\(created)")
        #expect(created.stdout.contains("Created store \(store.storeURL.path)"))
        let mode = try FileManager.default.attributesOfItem(atPath: store.storeURL.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(FileManager.default.fileExists(atPath: store.deviceKeyURL.path))

        let again = try store.run("create")
        #expect(again.status == Exit.duplicate)
        #expect(again.stderr.hasPrefix("secstore: error: A store already exists at \(store.storeURL.path)"))
    }

    @Test("create --json reports the store, device key, id and passphrase")
    func createJSON() throws {
        let store = try CLIStore()
        let result = try store.run(["create", "--json", "--passphrase-stdin"] + CLIStore.fastKDF,
                                   stdin: Data("pass\n".utf8))
        #expect(result.status == Exit.success, "\(result)")
        let object = try result.jsonObject()
        #expect(object["store"] as? String == store.storeURL.path)
        #expect(object["deviceKey"] as? String == store.deviceKeyURL.path)
        #expect(object["passphrase"] as? Bool == true)
        #expect(UUID(uuidString: object["storeID"] as? String ?? "") != nil)
    }

    @Test("Without --store the store comes from SECSTORE_PATH and the key from SECSTORE_DEVICE_KEY")
    func environmentStore() throws {
        let store = try CLIStore()
        let environment = ["SECSTORE_PATH": store.storeURL.path, "SECSTORE_DEVICE_KEY": store.deviceKeyURL.path]
        let created = try CLI.run(["create"], home: store.directory, environment: environment)
        #expect(created.status == Exit.success, "\(created)")
        #expect(FileManager.default.fileExists(atPath: store.storeURL.path))
        let info = try CLI.run(["info", "--json"], home: store.directory, environment: environment)
        #expect(try info.jsonObject()["store"] as? String == store.storeURL.path)
    }

    @Test("Commands on a missing store fail with status 8 and say how to create it")
    func missingStore() throws {
        let store = try CLIStore()
        for command in [["info"], ["list"], ["get", "--service", "s"], ["verify"], ["lock"]] {
            let result = try store.run(command, stdin: Data())
            #expect(result.status == Exit.unavailable, "\(command): \(result)")
            #expect(result.stderr.hasPrefix("secstore: error: There is no store at \(store.storeURL.path)"))
            #expect(result.stderr.contains("secstore create"))
        }
        #expect(!FileManager.default.fileExists(atPath: store.storeURL.path), "a command other than create made a store")
    }

    @Test("A wrong, missing or exposed device key is status 8 with the fix in the message")
    func deviceKeyProblems() throws {
        let store = try CLIStore.created()
        let other = try CLIStore.created()
        let wrongKey = try CLI.run(["list", "--store", store.storeURL.path, "--device-key", other.deviceKeyURL.path], home: store.directory)
        #expect(wrongKey.status == Exit.unavailable, "\(wrongKey)")
        #expect(wrongKey.stderr.contains("created with another device key"))

        let missingKey = try CLI.run(["list", "--store", store.storeURL.path, "--device-key", store.file("none.key").path], home: store.directory)
        #expect(missingKey.status == Exit.unavailable)
        #expect(missingKey.stderr.contains("SECSTORE_DEVICE_KEY"))

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store.deviceKeyURL.path)
        let exposed = try store.run("list")
        #expect(exposed.status == Exit.unavailable, "\(exposed)")
        #expect(exposed.stderr.hasPrefix("secstore: error: "))
    }

    @Test("info shows format, counts by class, accessibility and group, lock state and files")
    func infoText() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "alice", secret: "secret-one")
        try store.add(service: "api", account: "bob", secret: "secret-two", "--group", "team.shared", "--accessibility", "afterFirstUnlock")
        let result = try store.run("info")
        #expect(result.status == Exit.success, "\(result)")
        for expected in ["Format version", "Lock state", "no passphrase", "KDF", "Items", "By class", "genp  2",
                         "whenUnlocked      1", "afterFirstUnlock  1", "local.secstore  1", "team.shared     1",
                         store.storeURL.path] {
            #expect(result.stdout.contains(expected), "missing \(expected) in:\n\(result.stdout)")
        }
        #expect(!result.stdout.contains("secret-"), "info printed a secret")
    }

    @Test("info --json has the documented shape, with KDF limits once a passphrase is set")
    func infoJSON() throws {
        let store = try CLIStore.created(passphrase: true)
        let passphrase = try store.passphraseFile()
        try store.add(service: "api", account: "alice", secret: "one", "--passphrase-file", passphrase)
        let locked = try store.run("info", "--json")
        #expect(locked.status == Exit.success, "\(locked)")
        let object = try locked.jsonObject()
        #expect(object["formatVersion"] as? Int == 4)
        #expect(object["lockState"] as? String == "locked")
        #expect(object["itemCount"] as? Int == 1)
        #expect(object["lockedItemCount"] as? Int == 1)
        #expect(object["countsByClass"] as? [String: Int] == ["genp": 1])
        #expect(object["countsByAccessibility"] as? [String: Int] == ["whenUnlocked": 1])
        #expect(object["countsByGroup"] as? [String: Int] == [:])
        let kdf = try #require(object["kdf"] as? [String: Any])
        #expect(kdf["operations"] as? Int == 1 && kdf["memoryBytes"] as? Int == 8192 && kdf["algorithm"] as? String == "argon2id")
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files.first?["path"] as? String == store.storeURL.path)
        #expect((files.first?["size"] as? Int ?? 0) > 0)

        let unlocked = try store.run("info", "--json", "--passphrase-file", passphrase)
        let counts = try unlocked.jsonObject()
        #expect(counts["lockState"] as? String == "unlocked")
        #expect(counts["countsByGroup"] as? [String: Int] == ["local.secstore": 1])
    }

    /// Argon2id limits far beyond memory once crashed `create` (a double free, exit 139) and
    /// left a store without its passphrase; now they are refused before any work.
    @Test("create with Argon2id limits beyond SecStore's maximum: usage error (status 2), nothing at the path; create then works")
    func createWithExcessiveLimitsLeavesNothing() throws {
        let store = try CLIStore()
        let passphrase = try store.passphraseFile()
        let failed = try store.run(["create", "--passphrase-file", passphrase, "--kdf-ops", "1", "--kdf-memory", "64G"], stdin: Data())
        #expect(failed.status == Exit.usage, "\(failed)")
        #expect(failed.stderr.contains("--kdf-memory"), "\(failed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store.storeURL.path))
        let weak = try store.run(["create", "--passphrase-file", passphrase] + CLIStore.fastKDF, stdin: Data())
        #expect(weak.status == Exit.success, "\(weak)")
        #expect(weak.stderr.contains("weaker than libsodium's interactive limits"), "\(weak.stderr)")
    }

    @Test("An empty file at the store path is damage (status 7) for every command, and stays empty")
    func emptyStoreFileIsDamage() throws {
        let store = try CLIStore.created()
        try Data().write(to: store.storeURL)
        for command in [["get", "--service", "s", "--account", "a"], ["list"], ["verify"], ["info"],
                        ["add", "--service", "s", "--account", "a", "--value-stdin"]] {
            let result = try store.run(command, stdin: Data("x".utf8))
            #expect(result.status == Exit.damaged, "\(command): \(result)")
        }
        #expect(try Data(contentsOf: store.storeURL).isEmpty)
    }
}

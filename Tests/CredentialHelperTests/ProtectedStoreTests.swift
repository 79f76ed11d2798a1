import Foundation
import SecStore
import Testing

/// Both helpers on a passphrase-protected store: locked, they say so and change nothing;
/// with SECSTORE_PASSPHRASE_FILE they work, as any SecStore client does.
@Suite struct ProtectedStoreTests {
    static let passphrase = "correct horse battery staple"

    /// A home whose store has a passphrase (minimal Argon2id limits: milliseconds).
    private func protectedHome() throws -> HelperHome {
        let home = try HelperHome()
        let store = try SecretStore(at: home.storeURL, options: .init(access: .owner, deviceKeyURL: home.deviceKeyURL))
        try store.setPassphrase(Self.passphrase, limits: .minimumForTesting)
        store.lock(forgettingFirstUnlock: true)
        return home
    }

    @Test func aLockedStoreIsAnErrorThatSaysHowToUnlock() throws {
        let home = try protectedHome()
        // One credential of each helper, stored while the passphrase file is given.
        home.extraEnvironment["SECSTORE_PASSPHRASE_FILE"] = try home.passphraseFile(Self.passphrase)
        try #require(try home.gitHelper("store", input: "protocol=https\nhost=example.com\nusername=alice\npassword=s3cr3t\n").status == 0)
        try #require(try home.docker("store", input: #"{"ServerURL":"registry.example.com","Username":"alice","Secret":"s3cr3t"}"#).status == 0)
        home.extraEnvironment["SECSTORE_PASSPHRASE_FILE"] = nil

        let store = try home.gitHelper("store", input: "protocol=https\nhost=example.com\nusername=alice\npassword=s3cr3t\n")
        #expect(store.status == 1)
        #expect(store.stderr.contains("locked") && store.stderr.contains("secstore unlock --for"), "\(store)")
        let get = try home.gitHelper("get", input: "protocol=https\nhost=example.com\n")
        #expect(get.status == 1 && get.stdout.isEmpty && get.stderr.contains("locked"))

        let docker = try home.docker("store", input: #"{"ServerURL":"registry.example.com","Username":"alice","Secret":"s3cr3t"}"#)
        #expect(docker.status == 1 && docker.stdout.contains("locked"), "\(docker)")
        #expect(!docker.stdout.contains("s3cr3t"))
        #expect(try home.docker("get", input: "registry.example.com").stdout.contains("locked"))
        #expect(try home.docker("list").stdout.contains("locked"))

        let erase = try home.gitHelper("erase", input: "protocol=https\nhost=example.com\n")
        #expect(erase.status == 1 && erase.stderr.contains("locked"))

        let owner = try home.open()
        try owner.unlock(passphrase: Self.passphrase)
        let items = try owner.find(Query(itemClass: .internetPassword, limit: .all, returning: [.attributes, .data]))
        #expect(items.count == 2, "nothing was stored, replaced or erased while locked")
        #expect(items.allSatisfy { $0.data == Data("s3cr3t".utf8) })
    }

    @Test func aPassphraseFileUnlocksEachRun() throws {
        let home = try protectedHome()
        home.extraEnvironment["SECSTORE_PASSPHRASE_FILE"] = try home.passphraseFile(Self.passphrase)
        #expect(try home.gitHelper("store", input: "protocol=https\nhost=example.com\nusername=alice\npassword=s3cr3t\n").status == 0)
        #expect(try home.gitHelper("get", input: "protocol=https\nhost=example.com\n").stdout == "username=alice\npassword=s3cr3t\n")
        #expect(try home.docker("store", input: #"{"ServerURL":"registry.example.com","Username":"bob","Secret":"pw"}"#).status == 0)
        #expect(try home.docker("list").stdout == #"{"https://registry.example.com":"bob"}"# + "\n")

        // Through git as well.
        let (result, fields) = try home.fill("protocol=https\nhost=example.com")
        #expect(result.status == 0 && fields["password"] == "s3cr3t")
    }

    @Test func aWrongOrExposedPassphraseFileIsRefused() throws {
        let home = try protectedHome()
        home.extraEnvironment["SECSTORE_PASSPHRASE_FILE"] = try home.passphraseFile("wrong passphrase")
        let wrong = try home.gitHelper("get", input: "protocol=https\nhost=example.com\n")
        #expect(wrong.status == 1 && wrong.stderr.contains("passphrase"), "\(wrong)")
        #expect(!wrong.stderr.contains("wrong passphrase"))

        let exposed = try home.passphraseFile(Self.passphrase)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: exposed)
        home.extraEnvironment["SECSTORE_PASSPHRASE_FILE"] = exposed
        let refused = try home.docker("list")
        #expect(refused.status == 1 && !refused.stdout.contains(Self.passphrase), "\(refused)")
    }
}

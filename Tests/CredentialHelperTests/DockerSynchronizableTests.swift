import Foundation
import SecStore
import Testing

/// docker-credential-secstore and synchronizable credentials (docs/sync.md): docker names
/// only the program (`credsStore`), so `SECSTORE_SYNCHRONIZABLE=1` in its environment makes
/// `store` add synchronizable items; `get`, `list` and `erase` see both kinds regardless.
@Suite struct DockerSynchronizableTests {
    private static let group = "local.docker-credential-secstore"

    private func credentials(_ url: String, _ username: String, _ secret: String) -> String {
        #"{"ServerURL":"\#(url)","Username":"\#(username)","Secret":"\#(secret)"}"#
    }

    @Test func theEnvironmentVariableStoresASynchronizableItem() throws {
        let home = try HelperHome()
        home.extraEnvironment["SECSTORE_SYNCHRONIZABLE"] = "1"
        let stored = try home.docker("store", input: credentials("https://index.docker.io/v1/", "alice", "s3cr3t"))
        #expect(stored.status == 0 && stored.stdout.isEmpty, "\(stored)")

        let synced = try home.internetPasswords(synchronizable: .yes)
        try #require(synced.count == 1, "\(synced)")
        #expect(synced[0].attributes.isSynchronizable == true)
        #expect(synced[0].attributes.label == "Docker Credentials" && synced[0].attributes.accessGroup == Self.group)
        #expect(synced[0].attributes.accessibility == .whenUnlocked, "not a …ThisDeviceOnly class: it may leave the device")
        #expect(try home.internetPasswords(synchronizable: .no).isEmpty)

        // Seen without the variable too.
        home.extraEnvironment["SECSTORE_SYNCHRONIZABLE"] = nil
        #expect(try home.docker("get", input: "https://index.docker.io/v1/").stdout
                == credentials("https://index.docker.io/v1/", "alice", "s3cr3t") + "\n")
        #expect(try home.docker("list").stdout == #"{"https://index.docker.io/v1/":"alice"}"# + "\n")
        #expect(try home.docker("erase", input: "https://index.docker.io/v1/").status == 0)
        #expect(try home.internetPasswords(synchronizable: .any).isEmpty)
    }

    @Test func withoutTheVariableTheCredentialStaysOnThisDevice() throws {
        let home = try HelperHome()
        try #require(try home.docker("store", input: credentials("registry.example.com", "alice", "local")).status == 0)
        home.extraEnvironment["SECSTORE_SYNCHRONIZABLE"] = "0"
        try #require(try home.docker("store", input: credentials("registry.example.org", "alice", "local")).status == 0)
        #expect(try home.internetPasswords(synchronizable: .no).count == 2)
        #expect(try home.internetPasswords(synchronizable: .yes).isEmpty)
    }

    @Test func theOptionDoesWhatTheVariableDoes() throws {
        let home = try HelperHome()
        try #require(try home.docker("--synchronizable", "store", input: credentials("registry.example.com", "alice", "s3cr3t")).status == 0)
        #expect(try home.internetPasswords(synchronizable: .yes).map(\.attributes.server) == ["registry.example.com"])
        let help = try home.docker("--help")
        #expect(help.status == 0 && help.stdout.contains("SECSTORE_SYNCHRONIZABLE") && help.stdout.contains("--synchronizable"), "\(help)")
    }

    @Test func aBadValueIsRefusedOnStandardOutput() throws {
        let home = try HelperHome()
        home.extraEnvironment["SECSTORE_SYNCHRONIZABLE"] = "sometimes"
        let refused = try home.docker("store", input: credentials("registry.example.com", "alice", "s3cr3t"))
        #expect(refused.status == 1 && refused.stdout == "SECSTORE_SYNCHRONIZABLE must be 1 or 0\n", "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: home.storeURL.path))
    }

    @Test func aSynchronizableCredentialFromElsewhereIsSeenAndErased() throws {
        let home = try HelperHome()
        try home.addInternetPassword(server: "registry.example.com", account: "alice", password: "from-another-device",
                                     group: Self.group, synchronizable: true, label: "Docker Credentials")
        #expect(try home.docker("get", input: "registry.example.com").stdout
                == credentials("registry.example.com", "alice", "from-another-device") + "\n")
        #expect(try home.docker("list").stdout == #"{"https://registry.example.com":"alice"}"# + "\n")
        let erased = try home.docker("erase", input: "registry.example.com")
        #expect(erased.status == 0 && erased.stdout.isEmpty, "\(erased)")
        #expect(try home.internetPasswords(synchronizable: .any).isEmpty)
    }

    @Test func storeUpdatesTheCredentialOfTheURLAndKeepsItsKind() throws {
        let home = try HelperHome()
        try home.addInternetPassword(server: "registry.example.com", account: "alice", password: "old",
                                     group: Self.group, synchronizable: true, label: "Docker Credentials")
        try #require(try home.docker("store", input: credentials("registry.example.com", "bob", "new")).status == 0)
        let synced = try home.internetPasswords(synchronizable: .yes)
        #expect(synced.map(\.attributes.account) == ["bob"] && synced.map(\.data) == [Data("new".utf8)])
        #expect(try home.internetPasswords(synchronizable: .no).isEmpty, "no second credential kept on this device")

        try #require(try home.docker("store", input: credentials("registry.example.org", "alice", "old")).status == 0)
        home.extraEnvironment["SECSTORE_SYNCHRONIZABLE"] = "1"
        try #require(try home.docker("store", input: credentials("registry.example.org", "alice", "new")).status == 0)
        #expect(try home.internetPasswords(synchronizable: .no).map(\.data) == [Data("new".utf8)],
                "the variable does not move an existing credential into sync")
    }

    @Test func whenBothKindsExistTheNewestAnswersAndStoreKeepsTheSynchronizableOne() throws {
        let home = try HelperHome()
        try home.addInternetPassword(server: "registry.example.com", account: "synced-user", password: "synced",
                                     group: Self.group, synchronizable: true, label: "Docker Credentials")
        try home.addInternetPassword(server: "registry.example.com", account: "local-user", password: "local",
                                     group: Self.group, synchronizable: false, label: "Docker Credentials")
        #expect(try home.docker("get", input: "registry.example.com").stdout
                == credentials("registry.example.com", "local-user", "local") + "\n", "the newest answers")
        #expect(try home.docker("list").stdout == #"{"https://registry.example.com":"local-user"}"# + "\n")

        try #require(try home.docker("store", input: credentials("registry.example.com", "carol", "rotated")).status == 0)
        #expect(try home.internetPasswords(synchronizable: .no).isEmpty)
        let synced = try home.internetPasswords(synchronizable: .yes)
        #expect(synced.map(\.attributes.account) == ["carol"] && synced.map(\.data) == [Data("rotated".utf8)])

        try home.addInternetPassword(server: "registry.example.com", account: "local-user", password: "local",
                                     group: Self.group, synchronizable: false, label: "Docker Credentials")
        #expect(try home.docker("erase", input: "registry.example.com").status == 0)
        #expect(try home.internetPasswords(synchronizable: .any).isEmpty)
    }

    @Test("docker login stores a synchronizable credential with SECSTORE_SYNCHRONIZABLE=1; docker logout erases it",
          .enabled(if: Run.which("docker") != nil, "docker is not installed"))
    func dockerLoginAndLogout() throws {
        let home = try HelperHome()
        let registry = try BasicAuthServer(username: "alice", password: "s3cr3t")
        defer { registry.stop() }
        let server = "127.0.0.1:\(registry.port)"
        home.extraEnvironment["SECSTORE_SYNCHRONIZABLE"] = "1"
        let login = try home.dockerClient(["login", "--username", "alice", "--password-stdin", server], input: "s3cr3t\n")
        #expect(login.status == 0 && login.stdout.contains("Login Succeeded"), "\(login)")
        #expect(home.dockerConfig.contains("secstore") && !home.dockerConfig.contains(Data("alice:s3cr3t".utf8).base64EncodedString()))

        let synced = try home.internetPasswords(synchronizable: .yes)
        try #require(synced.count == 1, "\(synced)")
        #expect(synced[0].attributes.server == "127.0.0.1" && synced[0].attributes.port == Int(registry.port))
        #expect(synced[0].attributes.account == "alice" && synced[0].data == Data("s3cr3t".utf8))
        #expect(try home.internetPasswords(synchronizable: .no).isEmpty)

        home.extraEnvironment["SECSTORE_SYNCHRONIZABLE"] = nil
        let logout = try home.dockerClient(["logout", server])
        #expect(logout.status == 0, "\(logout)")
        #expect(try home.internetPasswords(synchronizable: .any).isEmpty)
    }

    @Test("docker login finds a synchronizable credential from elsewhere, and a new login updates it keeping its kind",
          .enabled(if: Run.which("docker") != nil, "docker is not installed"))
    func dockerLoginWithASynchronizableCredential() throws {
        let home = try HelperHome()
        let registry = try BasicAuthServer(username: "alice", password: "from-another-device")
        defer { registry.stop() }
        let server = "127.0.0.1:\(registry.port)"
        try home.addInternetPassword(server: "127.0.0.1", account: "alice", password: "from-another-device", group: Self.group,
                                     synchronizable: true, port: Int(registry.port), label: "Docker Credentials")
        // No username or password given: docker asks the helper's get for stored credentials
        // and names their user (checking them needs a daemon, which this test has not).
        let stored = try home.dockerClient(["login", server])
        #expect(stored.stderr.contains("existing credentials") && stored.stderr.contains("[Username: alice]"), "\(stored)")

        registry.setLogin(username: "alice", password: "rotated")
        let rotated = try home.dockerClient(["login", "--username", "alice", "--password-stdin", server], input: "rotated\n")
        #expect(rotated.status == 0, "\(rotated)")
        #expect(try home.internetPasswords(synchronizable: .yes).map(\.data) == [Data("rotated".utf8)])
        #expect(try home.internetPasswords(synchronizable: .no).isEmpty)
    }
}

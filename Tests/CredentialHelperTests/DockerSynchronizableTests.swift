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
}

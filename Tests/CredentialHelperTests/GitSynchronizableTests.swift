import Foundation
import SecStore
import Testing

/// git-credential-secstore and synchronizable credentials (docs/sync.md), under the real
/// `git`: `credential.helper "secstore --synchronizable"` stores synchronizable items, and
/// with or without the option `fill` and `reject` see both kinds.
@Suite struct GitSynchronizableTests {
    private static let group = "local.git-credential-secstore"
    private static let alice = "protocol=https\nhost=example.com\nusername=alice"

    @Test func theOptionStoresASynchronizableInternetPassword() throws {
        let home = try HelperHome()
        try home.approve(Self.alice + "\npassword=s3cr3t", helper: "secstore --synchronizable")

        let synced = try home.internetPasswords(synchronizable: .yes)
        try #require(synced.count == 1, "\(synced)")
        #expect(synced[0].attributes.isSynchronizable == true)
        #expect(synced[0].attributes.server == "example.com" && synced[0].attributes.account == "alice")
        #expect(synced[0].attributes.accessGroup == Self.group)
        #expect(synced[0].attributes.accessibility == .whenUnlocked, "not a …ThisDeviceOnly class: it may leave the device")
        #expect(synced[0].data == Data("s3cr3t".utf8))
        #expect(try home.internetPasswords(synchronizable: .no).isEmpty)

        // Found with the option, and without it.
        #expect(try home.fill("protocol=https\nhost=example.com", helper: "secstore --synchronizable").fields["password"] == "s3cr3t")
        #expect(try home.fill("protocol=https\nhost=example.com", helper: "secstore").fields["password"] == "s3cr3t")
    }

    @Test func withoutTheOptionTheCredentialStaysOnThisDevice() throws {
        let home = try HelperHome()
        try home.approve(Self.alice + "\npassword=s3cr3t", helper: "secstore")
        #expect(try home.internetPasswords(synchronizable: .no).map(\.data) == [Data("s3cr3t".utf8)])
        #expect(try home.internetPasswords(synchronizable: .yes).isEmpty)
    }

    @Test func theEnvironmentVariableDoesWhatTheOptionDoes() throws {
        let home = try HelperHome()
        home.extraEnvironment["SECSTORE_SYNCHRONIZABLE"] = "1"
        try home.approve(Self.alice + "\npassword=synced")
        home.extraEnvironment["SECSTORE_SYNCHRONIZABLE"] = "0"
        try home.approve("protocol=https\nhost=example.org\nusername=alice\npassword=local")
        #expect(try home.internetPasswords(synchronizable: .yes).map(\.attributes.server) == ["example.com"])
        #expect(try home.internetPasswords(synchronizable: .no).map(\.attributes.server) == ["example.org"])

        // A value that is neither on nor off is refused, never guessed, and names no secret.
        home.extraEnvironment["SECSTORE_SYNCHRONIZABLE"] = "maybe"
        let refused = try home.gitHelper("store", input: "protocol=https\nhost=example.net\nusername=alice\npassword=s3cr3t\n")
        #expect(refused.status == 1 && refused.stderr == "git-credential-secstore: SECSTORE_SYNCHRONIZABLE must be 1 or 0\n", "\(refused)")
        #expect(try home.internetPasswords(synchronizable: .any).count == 2)
    }

    @Test func aSynchronizableCredentialFromElsewhereIsFoundAndErased() throws {
        let home = try HelperHome()
        // As `secstore add --class inet --synchronizable` or another device would add it.
        try home.addInternetPassword(server: "example.com", account: "alice", password: "from-another-device",
                                     group: Self.group, synchronizable: true)
        let (result, fields) = try home.fill("protocol=https\nhost=example.com")
        #expect(result.status == 0, "\(result)")
        #expect(fields["username"] == "alice" && fields["password"] == "from-another-device")

        try home.reject("protocol=https\nhost=example.com\nusername=alice")
        #expect(try home.internetPasswords(synchronizable: .any).isEmpty)
        #expect(try home.fill("protocol=https\nhost=example.com").result.status != 0, "git had to prompt")
    }

    @Test func storeUpdatesAnExistingCredentialAndKeepsItsKind() throws {
        let home = try HelperHome()
        try home.addInternetPassword(server: "example.com", account: "alice", password: "old", group: Self.group, synchronizable: true)
        try home.approve(Self.alice + "\npassword=new", helper: "secstore")
        #expect(try home.internetPasswords(synchronizable: .yes).map(\.data) == [Data("new".utf8)])
        #expect(try home.internetPasswords(synchronizable: .no).isEmpty, "no second credential kept on this device")

        try home.approve("protocol=https\nhost=example.org\nusername=alice\npassword=old", helper: "secstore")
        try home.approve("protocol=https\nhost=example.org\nusername=alice\npassword=new", helper: "secstore --synchronizable")
        #expect(try home.internetPasswords(synchronizable: .no).map(\.data) == [Data("new".utf8)])
        #expect(try home.internetPasswords(synchronizable: .yes).map(\.attributes.server) == ["example.com"],
                "the option does not move an existing credential into sync")
    }

    @Test func whenBothKindsExistTheNewestAnswersStoreUpdatesBothAndRejectErasesBoth() throws {
        let home = try HelperHome()
        try home.addInternetPassword(server: "example.com", account: "alice", password: "local", group: Self.group, synchronizable: false)
        try home.addInternetPassword(server: "example.com", account: "alice", password: "synced", group: Self.group, synchronizable: true)
        #expect(try home.fill("protocol=https\nhost=example.com").fields["password"] == "synced")

        // The local one written last answers: the rule is the date, not the kind.
        let store = try home.open()
        var local = Attributes()
        local.server = "example.com"
        try store.update(matching: Query(itemClass: .internetPassword, attributes: local), with: ItemChanges(data: Data("local-newer".utf8)))
        #expect(try home.fill("protocol=https\nhost=example.com").fields["password"] == "local-newer")

        try home.approve(Self.alice + "\npassword=both")
        #expect(try home.internetPasswords(synchronizable: .any).map(\.data) == [Data("both".utf8), Data("both".utf8)])

        try home.reject("protocol=https\nhost=example.com")
        #expect(try home.internetPasswords(synchronizable: .any).isEmpty)
    }

    /// One device with git before 2.41 must not strip a synced credential's expiry and
    /// refresh token on every device: its bare approval of the same password keeps them.
    @Test func anOldGitApprovalKeepsASynchronizableCredentialsExpiryAndRefreshToken() throws {
        let home = try HelperHome()
        let sealed = "gho_synced\npassword_expiry_utc=2000000000\noauth_refresh_token=ghr_synced"
        // As sync brings it from a device with git 2.41 or later.
        try home.addInternetPassword(server: "example.com", account: "alice", password: sealed, group: Self.group, synchronizable: true)
        try home.approve(Self.alice + "\npassword=gho_synced")
        #expect(try home.internetPasswords(synchronizable: .any).map(\.data) == [Data(sealed.utf8)])
    }

    @Test func helpNamesTheOption() throws {
        let home = try HelperHome()
        let help = try home.gitHelper("--synchronizable", "--help", input: "")
        #expect(help.status == 0 && help.stdout.contains("--synchronizable") && help.stdout.contains("SECSTORE_SYNCHRONIZABLE"), "\(help)")
    }
}

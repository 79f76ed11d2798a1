import CredentialBridge
import Foundation
import SecStore
import Testing

/// git-credential-secstore fed what git's protocol allows at its edges: values of keys the
/// helper does not read holding any bytes, `url=` lines, an empty username, and stored secrets
/// whose bytes are not plain UTF-8 lines.
@Suite struct GitProtocolEdgeTests {
    private let alice = "protocol=https\nhost=example.com\nusername=alice\n"

    private func helper(_ home: HelperHome, _ operation: String, _ bytes: [UInt8]) throws -> Run.Result {
        try Run.run(Run.gitHelperURL, [operation], stdin: Data(bytes), environment: home.environment)
    }

    /// `wwwauth[]` carries the server's `WWW-Authenticate` header (git 2.41 and later send it
    /// with every operation), which a server may write in Latin-1. A value of a key the helper
    /// does not read is skipped unread: it used to refuse the whole request as "not UTF-8
    /// text", so such a server's credentials could be neither stored, found nor erased.
    @Test func keysTheHelperDoesNotReadMayHoldAnyBytes() throws {
        let home = try HelperHome()
        let noise: [UInt8] = Array("wwwauth[]=Basic realm=\"caf".utf8) + [0xE9, 0x22, 0x0A]
            + Array("state[]=x:".utf8) + [0xFF, 0xFE, 0x0A] + [0xC3, 0x28] + Array("=y\n".utf8)
        let stored = try helper(home, "store", Array(alice.utf8) + noise + Array("password=s3cr3t\n".utf8))
        #expect(stored.status == 0 && stored.stderr.isEmpty, "\(stored)")
        let answer = try helper(home, "get", Array("protocol=https\n".utf8) + noise + Array("host=example.com\n".utf8))
        #expect(answer.status == 0 && answer.stdout == "username=alice\npassword=s3cr3t\n", "\(answer)")
        let erased = try helper(home, "erase", Array(alice.utf8) + noise)
        #expect(erased.status == 0 && erased.stderr.isEmpty, "\(erased)")
        #expect(try home.internetPasswords().isEmpty)

        // A value the helper reads must still be UTF-8, and a NUL byte is refused anywhere.
        let latin1Password = try helper(home, "store", Array(alice.utf8) + Array("password=caf".utf8) + [0xE9, 0x0A])
        #expect(latin1Password.status == 1 && latin1Password.stderr.contains("line 4 is not UTF-8 text"), "\(latin1Password)")
        let nul = try helper(home, "store", Array(alice.utf8) + Array("password=s3cr3t\nwwwauth[]=a".utf8) + [0, 0x0A])
        #expect(nul.status == 1 && nul.stderr.contains("NUL"), "\(nul)")
        #expect(try home.internetPasswords().isEmpty)
    }

    /// `url=` is read as git's own reader (credential.c, behind git-credential-store and
    /// git-credential-cache) reads it: it replaces everything before it with the URL's parts.
    /// The helper used to ignore the line, which widened a request: an `erase` of
    /// `url=https://example.com` for alice erased alice's credentials for every host.
    @Test func aURLLineIsReadAsGitReadsIt() throws {
        let home = try HelperHome()
        try #require(try home.gitHelper("store", input: alice + "password=example-pw\n").status == 0)
        try #require(try home.gitHelper("store", input: "protocol=https\nhost=other.example\nusername=alice\npassword=other-pw\n").status == 0)

        let erased = try home.gitHelper("erase", input: "url=https://example.com/\nusername=alice\n")
        #expect(erased.status == 0, "\(erased)")
        #expect(try home.internetPasswords().map(\.attributes.server) == ["other.example"], "only example.com's credential is erased")
        #expect(try home.gitHelper("get", input: "url=https://other.example\n").stdout == "username=alice\npassword=other-pw\n")

        // Its parts are percent-decoded (the protocol is not), the path loses its leading and
        // trailing slashes, and what came before the line is dropped.
        let stored = try home.gitHelper("store", input: "username=mallory\npassword=ignored\nurl=https://b%6Fb:p%40ss@Example.com:8443//team/app.git//\n")
        #expect(stored.status == 0, "\(stored)")
        let bob = try #require(try home.internetPasswords().first { $0.attributes.account == "bob" })
        #expect(bob.attributes.server == "example.com" && bob.attributes.port == 8443 && bob.attributes.path == "team/app.git",
                "\(bob.attributes)")
        #expect(bob.data == Data("p@ss".utf8))
        #expect(!(try home.internetPasswords().contains { $0.attributes.account == "mallory" }))
        // Lines after it apply on top of it.
        #expect(try home.gitHelper("get", input: "url=https://example.com:8443\nusername=bob\n").stdout == "username=bob\npassword=p@ss\n")

        // What git refuses is refused, naming the line and never quoting it.
        for bad in ["url=example.com/s3cr3t\n", "url=://example.com/s3cr3t\n", "url=https://alice:s3cr3t%0A@example.com\n",
                    "url=https://alice:s3cr3t%00@example.com\n", "url=https://alice:s3cr3t%FF@example.com\n"] {
            let result = try home.gitHelper("erase", input: "protocol=https\nhost=other.example\n" + bad)
            #expect(result.status == 1 && result.stderr.contains("line 3: url "), "\(bad.debugDescription): \(result)")
            #expect(!result.stderr.contains("s3cr3t"))
        }
        #expect(try home.internetPasswords().count == 2)
    }

    /// A `url=` line is split at its bytes, and its path loses its trailing slashes once
    /// decoded, as git's credential.c does it (each expectation is what git 2.39's
    /// `git credential fill` hands a helper for that URL). Split as `Character`s, a delimiter
    /// followed by a combining mark was no delimiter: `https://alice@\u{301}example.com/x` lost
    /// its username and kept `alice@` in the host, and `https://example.com/\u{301}x` took its
    /// path into the host (refused: "invalid character in host name"); a path ending in `%2F`
    /// kept the slash.
    @Test func aURLLineIsSplitAtBytesAndItsPathTrimmedOnceDecoded() throws {
        func parts(_ url: String) throws -> [[UInt8]?] {
            let credential = try GitCredential(parsing: Array("url=\(url)\n".utf8))
            return [credential.protocol, credential.host, credential.path, credential.username, credential.password].map { $0.map { Array($0.utf8) } }
        }
        func expected(_ host: String, path: String?, username: String? = nil) -> [[UInt8]?] {
            ["https", host, path, username, nil].map { $0.map { Array($0.utf8) } }
        }
        #expect(try parts("https://example.com/repo%2F") == expected("example.com", path: "repo"))
        #expect(try parts("https://example.com/a%2F%2F") == expected("example.com", path: "a"))
        #expect(try parts("https://example.com//%2F/") == expected("example.com", path: "/"))
        #expect(try parts("https://alice@example.com/\u{301}x") == expected("example.com", path: "\u{301}x", username: "alice"))
        #expect(try parts("https://alice@\u{301}example.com/x") == expected("\u{301}example.com", path: "x", username: "alice"))
        #expect(try parts("https://example.com?\u{301}x") == expected("example.com", path: "?\u{301}x"))
    }

    /// An empty username is a username, as git and its own helpers take it: a token used
    /// with no username (`https://:TOKEN@dev.example.com`) is stored, answered, and erased
    /// alone. It used to count as absent: `store` refused the credential ("not stored") and
    /// `get` and `erase` of the empty username matched every user of the host.
    @Test func anEmptyUsernameIsTheEmptyUsername() throws {
        let home = try HelperHome()
        try home.approve("protocol=https\nhost=example.com\nusername=alice\npassword=alice-pw")
        try home.approve("url=https://:token@example.com/")
        let items = try home.internetPasswords()
        #expect(Set(items.map(\.attributes.account)) == ["alice", ""], "\(items.map(\.attributes))")
        #expect(items.first { $0.attributes.account == "" }?.data == Data("token".utf8))

        // git asks for the empty username only with a URL that names it (`https://@host`).
        let empty = try home.gitHelper("get", input: "protocol=https\nhost=example.com\nusername=\n")
        #expect(empty.stdout == "username=\npassword=token\n", "\(empty)")
        let filled = try home.fill("url=https://@example.com/")
        #expect(filled.result.status == 0 && filled.fields["username"] == "" && filled.fields["password"] == "token", "\(filled)")
        #expect(try home.fill("url=https://alice@example.com/").fields["password"] == "alice-pw")

        try home.reject("url=https://@example.com/")
        #expect(try home.internetPasswords().map(\.attributes.account) == ["alice"], "only the empty username's credential is erased")
        // An erase naming nothing but the empty username still names nothing.
        let refused = try home.gitHelper("erase", input: "username=\n")
        #expect(refused.status == 1 && refused.stderr.contains("erase refused"), "\(refused)")
    }

    /// The sealed secret's lines are split at its newline bytes. They were split at Swift's
    /// `Character` "\n", and CR LF is one `Character`: a password ending in CR (the helper
    /// keeps one of two, as git's reader would) swallowed the expiry and refresh token lines
    /// after it, and `get` then answered nothing at all for that credential.
    @Test func aPasswordEndingInACarriageReturnKeepsItsExpiryAndRefreshToken() throws {
        let secret = GitSecret(decoding: Data("pw\r\npassword_expiry_utc=4102444800\noauth_refresh_token=rt\r".utf8))
        #expect(secret == GitSecret(password: "pw\r", expiry: 4_102_444_800, refreshToken: "rt\r"))

        let home = try HelperHome()
        let stored = try home.gitHelper("store", input: alice + "password=pw\r\r\npassword_expiry_utc=4102444800\noauth_refresh_token=rt\n")
        #expect(stored.status == 0, "\(stored)")
        let answer = try home.gitHelper("get", input: "protocol=https\nhost=example.com\n")
        #expect(answer.stdout == "username=alice\npassword=pw\r\npassword_expiry_utc=4102444800\noauth_refresh_token=rt\n", "\(answer)")
    }

    /// A credential whose secret is not UTF-8 (added with `secstore add --value-file`) is not
    /// answered: its password used to go out with U+FFFD in place of the bytes that are not
    /// UTF-8, a password the server never issued — and git's `erase` of that wrong password
    /// then deleted the stored one, whose replaced text it matched. An erase with a password
    /// compares the stored password's own bytes.
    @Test func aSecretThatIsNotUTF8IsNeitherAnsweredNorErasedByAnotherPassword() throws {
        let home = try HelperHome()
        try Self.storeAlicesCredential(Data([0x70, 0xFF, 0x77]), in: home)

        let answer = try home.gitHelper("get", input: alice)
        #expect(answer.status == 0 && answer.stdout.isEmpty, "\(answer)")
        let replaced = try home.gitHelper("erase", input: alice + "password=p\u{FFFD}w\n")
        #expect(replaced.status == 0, "\(replaced)")
        #expect(try home.internetPasswords().count == 1, "another password: the stored one stays")
        #expect(try home.gitHelper("erase", input: alice).status == 0)
        #expect(try home.internetPasswords().isEmpty)
    }

    /// A `store` replacing a secret that is not UTF-8 compares the stored password's own bytes
    /// too, as `erase` does: a password whose text only equals the U+FFFD-replaced decoding
    /// of the stored one is another password, and keeps neither its expiry nor its refresh
    /// token. It kept both (an expiry in 1970 here), so `get` then answered the new password
    /// as expired: the refresh token alone.
    @Test func aPasswordReplacingOneThatIsNotUTF8KeepsNothingOfIt() throws {
        let home = try HelperHome()
        try Self.storeAlicesCredential(Data([0x70, 0xFF, 0x77]) + Data("\npassword_expiry_utc=1000\noauth_refresh_token=old-rt".utf8), in: home)

        let stored = try home.gitHelper("store", input: alice + "password=p\u{FFFD}w\n")
        #expect(stored.status == 0, "\(stored)")
        #expect(try home.internetPasswords().first?.data == Data("p\u{FFFD}w".utf8))
        #expect(try home.gitHelper("get", input: alice).stdout == "username=alice\npassword=p\u{FFFD}w\n")
    }

    /// `password_expiry_utc=0` means no expiry to git, whose reader turns 0 into "never"
    /// (credential.c). The helper stored it as an expiry in 1970: the credential was never
    /// answered again, and a later `store` of the same bare password kept that expiry.
    @Test func anExpiryOfZeroIsNoExpiry() throws {
        let home = try HelperHome()
        let stored = try home.gitHelper("store", input: alice + "password=s3cr3t\npassword_expiry_utc=0\n")
        #expect(stored.status == 0, "\(stored)")
        #expect(try home.gitHelper("get", input: alice).stdout == "username=alice\npassword=s3cr3t\n")
        #expect(try home.internetPasswords().first?.data == Data("s3cr3t".utf8))
    }

    /// Stores `secret` for alice at https://example.com in the git helper's group, written
    /// straight to the store as another tool (`secstore add --value-file`) would.
    private static func storeAlicesCredential(_ secret: Data, in home: HelperHome) throws {
        let store = try SecretStore(at: home.storeURL, options: .init(access: .owner, deviceKeyURL: home.deviceKeyURL, createIfMissing: true))
        var attributes = Attributes()
        attributes.protocol = .https
        attributes.server = "example.com"
        attributes.account = "alice"
        attributes.accessGroup = "local.git-credential-secstore"
        _ = try store.add(Item(itemClass: .internetPassword, attributes: attributes, data: secret))
    }
}

import Foundation
import SecStore
import Testing

/// git-credential-secstore spoken to directly, as git ≥ 2.41 speaks to it (expiry, refresh
/// tokens), and fed the input git never sends (malformed lines, huge input, empty erases).
@Suite struct GitHelperProtocolTests {
    private let alice = "protocol=https\nhost=example.com\nusername=alice\n"

    @Test func expiryAndRefreshTokenRoundTrip() throws {
        let home = try HelperHome()
        let future = Int(Date().timeIntervalSince1970) + 3600
        try #require(try home.gitHelper("store", input: alice + "password=access\npassword_expiry_utc=\(future)\noauth_refresh_token=refresh\n").status == 0)
        let answer = try home.gitHelper("get", input: "protocol=https\nhost=example.com\n\n")
        #expect(answer.status == 0)
        #expect(answer.stdout == "username=alice\npassword=access\npassword_expiry_utc=\(future)\noauth_refresh_token=refresh\n")

        // The expiry and the refresh token are sealed in the secret, never in an attribute.
        let item = try #require(try home.internetPasswords().first)
        #expect(item.data == Data("access\npassword_expiry_utc=\(future)\noauth_refresh_token=refresh".utf8))
        for (_, value) in item.attributes {
            #expect(!"\(value)".contains("refresh") && !"\(value)".contains(String(future)))
        }
    }

    @Test func anExpiredPasswordIsNotReturnedButItsRefreshTokenIs() throws {
        let home = try HelperHome()
        try #require(try home.gitHelper("store", input: alice + "password=stale\npassword_expiry_utc=1000000000\noauth_refresh_token=refresh\n").status == 0)
        let answer = try home.gitHelper("get", input: "protocol=https\nhost=example.com\n")
        #expect(answer.status == 0)
        #expect(answer.stdout == "username=alice\noauth_refresh_token=refresh\n", "no password, no stale expiry")

        // Without a refresh token an expired credential answers nothing at all. (Erased first:
        // re-storing the same password would keep its refresh token, as the next test shows.)
        try #require(try home.gitHelper("erase", input: alice).status == 0)
        try #require(try home.gitHelper("store", input: alice + "password=stale\npassword_expiry_utc=1000000000\n").status == 0)
        #expect(try home.gitHelper("get", input: "protocol=https\nhost=example.com\n").stdout == "")
    }

    /// `store` over a stored credential, as git 2.41 or later sends it: what the request
    /// leaves out of the same password is kept (GitSecret.replacing).
    @Test func storeKeepsWhatTheRequestLeavesOutOfTheSamePassword() throws {
        let home = try HelperHome()
        func stored() throws -> String { String(decoding: try #require(try home.internetPasswords().first?.data), as: UTF8.self) }
        try #require(try home.gitHelper("store", input: alice + "password=access\npassword_expiry_utc=2000000000\noauth_refresh_token=r1\n").status == 0)

        // Bare, same password (git before 2.41): both kept.
        try #require(try home.gitHelper("store", input: alice + "password=access\n").status == 0)
        #expect(try stored() == "access\npassword_expiry_utc=2000000000\noauth_refresh_token=r1")
        // A new expiry for the same password: the refresh token is kept.
        try #require(try home.gitHelper("store", input: alice + "password=access\npassword_expiry_utc=2000000100\n").status == 0)
        #expect(try stored() == "access\npassword_expiry_utc=2000000100\noauth_refresh_token=r1")
        // A new refresh token and no expiry, from a git that knows both fields: the request's.
        try #require(try home.gitHelper("store", input: alice + "password=access\noauth_refresh_token=r2\n").status == 0)
        #expect(try stored() == "access\noauth_refresh_token=r2")
        // A new password without a refresh token: the old grant's token is not kept.
        try #require(try home.gitHelper("store", input: alice + "password=access2\npassword_expiry_utc=2000000200\n").status == 0)
        #expect(try stored() == "access2\npassword_expiry_utc=2000000200")
        // A new password with a new refresh token (a refreshing helper's answer): the request's.
        try #require(try home.gitHelper("store", input: alice + "password=access3\npassword_expiry_utc=2000000300\noauth_refresh_token=r3\n").status == 0)
        #expect(try stored() == "access3\npassword_expiry_utc=2000000300\noauth_refresh_token=r3")
        // Bare, new password (typed by the user into git before 2.41): neither is kept.
        try #require(try home.gitHelper("store", input: alice + "password=typed\n").status == 0)
        #expect(try stored() == "typed")
        #expect(try home.internetPasswords().count == 1)
    }

    @Test func aValidPasswordWinsOverANewerExpiredOne() throws {
        let home = try HelperHome()
        try #require(try home.gitHelper("store", input: "protocol=https\nhost=example.com\nusername=bob\npassword=valid\n").status == 0)
        try #require(try home.gitHelper("store", input: alice + "password=stale\npassword_expiry_utc=1000000000\n").status == 0)
        #expect(try home.gitHelper("get", input: "protocol=https\nhost=example.com\n").stdout == "username=bob\npassword=valid\n")
    }

    @Test func unknownKeysAreIgnored() throws {
        let home = try HelperHome()
        let noise = "capability[]=authtype\ncapability[]=state\nstate[]=other:seen=1\nwwwauth[]=Basic realm=\"x\"\nephemeral=0\nfuture_key=value\n"
        try #require(try home.gitHelper("store", input: noise + alice + "password=s3cr3t\n").status == 0)
        let answer = try home.gitHelper("get", input: "protocol=https\n" + noise + "host=example.com\n")
        #expect(answer.status == 0 && answer.stdout == "username=alice\npassword=s3cr3t\n", "\(answer)")
    }

    @Test func unknownOperationsAreIgnored() throws {
        let home = try HelperHome()
        let result = try home.gitHelper("frobnicate", input: alice + "password=s3cr3t\n")
        #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: home.storeURL.path))
    }

    @Test func anEraseThatNamesNothingIsRefused() throws {
        let home = try HelperHome()
        try #require(try home.gitHelper("store", input: alice + "password=s3cr3t\n").status == 0)
        for input in ["", "\n", "password=s3cr3t\n", "capability[]=authtype\nwwwauth[]=x\n"] {
            let result = try home.gitHelper("erase", input: input)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("erase refused"))
            #expect(!result.stderr.contains("s3cr3t"))
        }
        #expect(try home.internetPasswords().count == 1)
    }

    @Test func anEraseWithAPasswordErasesOnlyThatPassword() throws {
        let home = try HelperHome()
        try #require(try home.gitHelper("store", input: alice + "password=current\n").status == 0)
        #expect(try home.gitHelper("erase", input: alice + "password=outdated\n").status == 0)
        #expect(try home.internetPasswords().count == 1, "another process stored a newer password: it stays")
        #expect(try home.gitHelper("erase", input: alice + "password=current\n").status == 0)
        #expect(try home.internetPasswords().isEmpty)
    }

    /// Passwords compare as bytes, in constant time (`ConstantTime`), never with Swift's
    /// `String ==`, which stops at the first difference and calls canonically equivalent
    /// spellings equal: an erase with "cafe" + U+0301 deleted the credential stored as "café".
    @Test func anEraseComparesPasswordsByTheirBytes() throws {
        let home = try HelperHome()
        try #require(try home.gitHelper("store", input: alice + "password=caf\u{E9}\n").status == 0)
        #expect(try home.gitHelper("erase", input: alice + "password=cafe\u{301}\n").status == 0)
        #expect(try home.internetPasswords().count == 1, "another password, spelt with other bytes: it stays")
        #expect(try home.gitHelper("erase", input: alice + "password=caf\u{E9}\n").status == 0)
        #expect(try home.internetPasswords().isEmpty)
    }

    @Test func malformedInputStoresNothingAndNeverEchoesASecret() throws {
        let home = try HelperHome()
        let inputs = [
            alice + "password=s3cr3t\nthis line has no equals sign s3cr3t\n",
            alice + "password=s3cr3t\n=s3cr3t\n",
            alice + "password=s3\u{0}cr3t\n",
            alice + "password=s3cr3t\npassword_expiry_utc=tomorrow\n",
            "protocol=https\nhost=example.com:notaport\nusername=alice\npassword=s3cr3t\n",
            "protocol=https\nhost=[::1\nusername=alice\npassword=s3cr3t\n",
            "protocol=ht tps\nhost=example.com\nusername=alice\npassword=s3cr3t\n",
            "protocol=htps\nhost=example.com\nusername=alice\npassword=s3cr3t\n",
        ]
        for input in inputs {
            let result = try home.gitHelper("store", input: input)
            #expect(result.status == 1, "\(input.debugDescription): \(result)")
            #expect(result.stderr.hasPrefix("git-credential-secstore: "))
            #expect(!result.stderr.contains("s3cr3t") && !result.stdout.contains("s3cr3t"))
        }
        var bytes = Array((alice + "password=s3cr3t\n").utf8)
        bytes.append(contentsOf: Array("oauth_refresh_token=".utf8) + [0xC3, 0x28, 0x0A])   // not UTF-8
        let notUTF8 = try Run.run(Run.gitHelperURL, ["store"], stdin: Data(bytes), environment: home.environment)
        #expect(notUTF8.status == 1 && notUTF8.stderr.contains("not UTF-8"))
        #expect(!FileManager.default.fileExists(atPath: home.storeURL.path), "bad input creates no store")
    }

    @Test func incompleteCredentialsAreNotStored() throws {
        let home = try HelperHome()
        for input in [alice, "protocol=https\nhost=example.com\npassword=s3cr3t\n", "host=example.com\nusername=alice\npassword=s3cr3t\n",
                      "protocol=cert\npath=/home/alice/cert.p12\npassword=s3cr3t\n", alice + "password=\n"] {
            let result = try home.gitHelper("store", input: input)
            #expect(result.status == 1 && result.stderr.contains("not stored"), "\(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: home.storeURL.path))
    }

    @Test func hugeInputIsRefusedWhole() throws {
        let home = try HelperHome()
        let huge = alice + "password=" + String(repeating: "x", count: 2 << 20) + "\n"
        let result = try home.gitHelper("store", input: huge)
        #expect(result.status == 1)
        #expect(result.stderr == "git-credential-secstore: input larger than 1024 KiB\n")
        #expect(!FileManager.default.fileExists(atPath: home.storeURL.path))
        // Just under the cap is fine (a long token).
        let long = alice + "password=" + String(repeating: "y", count: 900_000) + "\n"
        #expect(try home.gitHelper("store", input: long).status == 0)
        #expect(try home.gitHelper("get", input: alice).stdout.count > 900_000)
    }

    @Test func getWithoutAStoreAnswersNothingAndCreatesNothing() throws {
        let home = try HelperHome()
        let result = try home.gitHelper("get", input: alice)
        #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty)
        #expect(try home.gitHelper("erase", input: alice).status == 0)
        #expect(!FileManager.default.fileExists(atPath: home.storeURL.path))
        #expect(!FileManager.default.fileExists(atPath: home.deviceKeyURL.path))
    }

    @Test func inputEndsAtTheFirstBlankLine() throws {
        let home = try HelperHome()
        try #require(try home.gitHelper("store", input: alice + "password=s3cr3t\n\nusername=mallory\n").status == 0)
        #expect(try home.internetPasswords().map(\.attributes.account) == ["alice"])
    }

    @Test func usageVersionAndHelp() throws {
        let home = try HelperHome()
        let none = try Run.run(Run.gitHelperURL, [], environment: home.environment)
        #expect(none.status == 1 && none.stderr == "usage: git credential-secstore [--synchronizable] <get|store|erase>\n")
        let two = try Run.run(Run.gitHelperURL, ["--bogus", "get"], environment: home.environment)
        #expect(two.status == 1 && two.stderr.hasPrefix("usage:"))
        #expect(try Run.run(Run.gitHelperURL, ["--version"], environment: home.environment).stdout == "git-credential-secstore 1.0.0\n")
        #expect(try Run.run(Run.gitHelperURL, ["--help"], environment: home.environment).stdout.contains("credential.helper secstore"))
    }
}

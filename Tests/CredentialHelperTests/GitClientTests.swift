import Foundation
import SecStore
import Testing

/// git-credential-secstore under the real `git` binary: `git credential fill/approve/reject`
/// with our helper as the only `credential.helper`, on a real store file.
@Suite struct GitClientTests {
    @Test func approveThenFillRoundTrips() throws {
        let home = try HelperHome()
        try home.approve("protocol=https\nhost=example.com\nusername=alice\npassword=s3cr3t")
        let (result, fields) = try home.fill("protocol=https\nhost=example.com")
        #expect(result.status == 0, "\(result)")
        #expect(fields["username"] == "alice")
        #expect(fields["password"] == "s3cr3t")

        // Stored as an internet password, laid out as git-credential-osxkeychain lays it out.
        let items = try home.internetPasswords()
        try #require(items.count == 1)
        let attributes = items[0].attributes
        #expect(attributes.protocol == .https)
        #expect(attributes.server == "example.com")
        #expect(attributes.account == "alice")
        #expect(attributes.authenticationType == .default)
        #expect(attributes.path == "" && attributes.port == 0, "absent path and port: Apple's defaults")
        #expect(attributes.accessGroup == "local.git-credential-secstore")
        #expect(attributes.accessibility == .whenUnlocked)
        #expect(items[0].data == Data("s3cr3t".utf8))
    }

    @Test func approvingAgainReplacesThePassword() throws {
        let home = try HelperHome()
        try home.approve("protocol=https\nhost=example.com\nusername=alice\npassword=old")
        try home.approve("protocol=https\nhost=example.com\nusername=alice\npassword=new")
        #expect(try home.fill("protocol=https\nhost=example.com").fields["password"] == "new")
        #expect(try home.internetPasswords().count == 1)
    }

    @Test func severalUsersOfOneHost() throws {
        let home = try HelperHome()
        try home.approve("protocol=https\nhost=example.com\nusername=alice\npassword=alice-pw")
        try home.approve("protocol=https\nhost=example.com\nusername=bob\npassword=bob-pw")
        #expect(try home.fill("protocol=https\nhost=example.com\nusername=alice").fields["password"] == "alice-pw")
        #expect(try home.fill("protocol=https\nhost=example.com\nusername=bob").fields["password"] == "bob-pw")
        // Without a username, the most recently stored answers.
        let newest = try home.fill("protocol=https\nhost=example.com").fields
        #expect(newest["username"] == "bob" && newest["password"] == "bob-pw")
        // A user the store does not know: git has to prompt, and may not.
        #expect(try home.fill("protocol=https\nhost=example.com\nusername=carol").result.status != 0)

        try home.reject("protocol=https\nhost=example.com\nusername=alice")
        #expect(try home.fill("protocol=https\nhost=example.com\nusername=alice").result.status != 0)
        #expect(try home.fill("protocol=https\nhost=example.com\nusername=bob").fields["password"] == "bob-pw")
        #expect(try home.internetPasswords().map(\.attributes.account) == ["bob"])
    }

    @Test func pathScopedCredentialsWithUseHttpPath() throws {
        let home = try HelperHome()
        let scoped = ["credential.useHttpPath=true"]
        try home.approve("url=https://example.com/team/one.git\nusername=alice\npassword=one-pw", config: scoped)
        try home.approve("url=https://example.com/team/two.git\nusername=alice\npassword=two-pw", config: scoped)
        #expect(try home.fill("url=https://example.com/team/one.git", config: scoped).fields["password"] == "one-pw")
        #expect(try home.fill("url=https://example.com/team/two.git", config: scoped).fields["password"] == "two-pw")
        #expect(try home.fill("url=https://example.com/team/three.git", config: scoped).result.status != 0)
        #expect(Set(try home.internetPasswords().compactMap(\.attributes.path)) == ["team/one.git", "team/two.git"])

        // Without useHttpPath git sends no path, and a request without a path matches any
        // (git's own rule): the most recent answers.
        #expect(try home.fill("url=https://example.com/team/three.git").fields["password"] == "two-pw")
    }

    @Test func thePortIsPartOfTheHost() throws {
        let home = try HelperHome()
        try home.approve("url=https://example.com:8443\nusername=alice\npassword=port-pw")
        #expect(try home.fill("url=https://example.com").result.status != 0)
        #expect(try home.fill("url=https://example.com:8443").fields["password"] == "port-pw")
        #expect(try home.fill("url=http://example.com:8443").result.status != 0, "another protocol")
        #expect(try home.internetPasswords().first?.attributes.port == 8443)
    }

    /// Hosts fold ASCII case only (git's own helpers compare them byte for byte): U+212A
    /// KELVIN SIGN lowercases to "k" in Unicode, yet "\u{212A}ey.com" is another host than key.com.
    @Test func hostsFoldOnlyASCIICase() throws {
        let home = try HelperHome()
        try home.approve("protocol=https\nhost=key.com\nusername=alice\npassword=key-pw")
        #expect(try home.fill("protocol=https\nhost=\u{212A}ey.com").result.status != 0, "git had to prompt")
        #expect(try home.gitHelper("get", input: "protocol=https\nhost=\u{212A}ey.com\n").stdout == "")
        #expect(try home.fill("protocol=https\nhost=KEY.com").fields["password"] == "key-pw")

        try home.approve("protocol=https\nhost=\u{212A}ey.com\nusername=bob\npassword=kelvin-pw")
        #expect(try home.fill("protocol=https\nhost=\u{212A}ey.com").fields["password"] == "kelvin-pw")
        #expect(try home.fill("protocol=https\nhost=key.com").fields["password"] == "key-pw")
        #expect(Set(try home.internetPasswords().compactMap(\.attributes.server)) == ["key.com", "\u{212A}ey.com"])
    }

    @Test func otherProtocolsMapToApplesCodes() throws {
        let home = try HelperHome()
        try home.approve("url=imaps://mail.example.com\nusername=alice\npassword=mail-pw")
        try home.approve("url=smtp://mail.example.com:587\nusername=alice\npassword=smtp-pw")
        #expect(try home.fill("url=imaps://mail.example.com").fields["password"] == "mail-pw")
        #expect(try home.fill("url=smtp://mail.example.com:587").fields["password"] == "smtp-pw")
        #expect(Set(try home.internetPasswords().compactMap(\.attributes.protocol)) == [.imaps, .smtp])
    }

    @Test func rejectErasesAndAnEmptyRejectErasesNothing() throws {
        let home = try HelperHome()
        try home.approve("protocol=https\nhost=example.com\nusername=alice\npassword=s3cr3t")
        try home.approve("protocol=https\nhost=example.org\nusername=alice\npassword=other")
        // git itself refuses a request without a host (the helper would refuse it too:
        // GitHelperProtocolTests.anEraseThatNamesNothingIsRefused).
        for input in ["\n", "protocol=https\n\n", "username=alice\n\n"] {
            let refused = try home.git(["credential", "reject"], input: input)
            #expect(refused.status != 0 && refused.stderr.contains("missing host"), "\(refused)")
        }
        #expect(try home.internetPasswords().count == 2)

        try home.reject("protocol=https\nhost=example.com")
        #expect(try home.fill("protocol=https\nhost=example.com").result.status != 0)
        #expect(try home.fill("protocol=https\nhost=example.org").fields["password"] == "other")
    }

    @Test func anExpiredPasswordIsNeverReturnedToGit() throws {
        let home = try HelperHome()
        // git never approves an expired password, so it is stored as git ≥ 2.41 would hand
        // it to the helper, then asked for through git itself.
        let stored = try home.gitHelper("store", input: "protocol=https\nhost=example.com\nusername=alice\npassword=stale\npassword_expiry_utc=1000000000\n")
        #expect(stored.status == 0, "\(stored)")
        let (result, fields) = try home.fill("protocol=https\nhost=example.com")
        #expect(result.status != 0, "git had to prompt: \(result)")
        #expect(fields["password"] == nil)
    }

    @Test("password_expiry_utc and oauth_refresh_token through git itself (git 2.41 or later)",
          .enabled(if: GitVersion.hasExpiryAndRefreshToken, "the installed git predates password_expiry_utc and oauth_refresh_token (2.41); GitHelperProtocolTests speak them to the helper directly"))
    func expiryAndRefreshTokenThroughGit() throws {
        let home = try HelperHome()
        let future = Int(Date().timeIntervalSince1970) + 3600
        try home.approve("protocol=https\nhost=example.com\nusername=alice\npassword=token\npassword_expiry_utc=\(future)\noauth_refresh_token=refresh")
        let fields = try home.fill("protocol=https\nhost=example.com").fields
        #expect(fields["password"] == "token")
        #expect(fields["password_expiry_utc"] == String(future))
        #expect(fields["oauth_refresh_token"] == "refresh")
    }

    /// git before 2.41 (Debian 12's 2.39) reads neither `password_expiry_utc` nor
    /// `oauth_refresh_token` from the helper's answer, so after a successful login it
    /// approves the password it was given without them. With git 2.41 or later the flow
    /// carries both back, and the same checks hold.
    @Test func approvingAFilledPasswordKeepsItsExpiryAndRefreshToken() throws {
        let home = try HelperHome()
        let future = Int(Date().timeIntervalSince1970) + 3600
        let sealed = "gho_short\npassword_expiry_utc=\(future)\noauth_refresh_token=ghr_refresh"
        // Stored as git 2.41 or later, or another device through sync, would have stored it.
        try #require(try home.gitHelper("store", input: "protocol=https\nhost=example.com\nusername=alice\npassword=gho_short\npassword_expiry_utc=\(future)\noauth_refresh_token=ghr_refresh\n").status == 0)

        // fill, the login succeeds, approve what fill answered: git's own flow.
        let (filled, fields) = try home.fill("protocol=https\nhost=example.com")
        try #require(filled.status == 0 && fields["password"] == "gho_short", "\(filled)")
        try home.approve(filled.stdout)
        #expect(try home.internetPasswords().map(\.data) == [Data(sealed.utf8)], "expiry and refresh token kept")
        #expect(try home.gitHelper("get", input: "protocol=https\nhost=example.com\n").stdout
                == "username=alice\npassword=gho_short\npassword_expiry_utc=\(future)\noauth_refresh_token=ghr_refresh\n")

        // The token expired between fill and approve (the helper never hands out an expired
        // one, so only this race brings it back): it stays expired, never printed as valid.
        try #require(try home.gitHelper("store", input: "protocol=https\nhost=example.com\nusername=alice\npassword=gho_stale\npassword_expiry_utc=1000000000\noauth_refresh_token=ghr_refresh\n").status == 0)
        try home.approve("protocol=https\nhost=example.com\nusername=alice\npassword=gho_stale")
        #expect(try home.internetPasswords().map(\.data) == [Data("gho_stale\npassword_expiry_utc=1000000000\noauth_refresh_token=ghr_refresh".utf8)])
        let (refill, refilled) = try home.fill("protocol=https\nhost=example.com")
        #expect(refill.status != 0 && refilled["password"] == nil, "git had to prompt: \(refill)")
        #expect(try home.gitHelper("get", input: "protocol=https\nhost=example.com\n").stdout
                == "username=alice\noauth_refresh_token=ghr_refresh\n")

        // A password the user typed is a new credential: neither the old expiry nor the old
        // refresh token goes with it.
        try home.approve("protocol=https\nhost=example.com\nusername=alice\npassword=typed")
        #expect(try home.internetPasswords().map(\.data) == [Data("typed".utf8)])
        #expect(try home.fill("protocol=https\nhost=example.com").fields["password"] == "typed")
    }

    @Test func gitFindsTheHelperOnPathByItsShortName() throws {
        let home = try HelperHome()
        let git = try #require(Run.which("git"))
        var environment = home.environment
        environment["PATH"] = Run.productsDirectory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let settings = ["-c", "credential.helper=", "-c", "credential.helper=secstore"]
        let approve = try Run.run(git, settings + ["credential", "approve"], stdin: Data("url=https://example.com\nusername=alice\npassword=pw\n\n".utf8), environment: environment)
        #expect(approve.status == 0, "\(approve)")
        let fill = try Run.run(git, settings + ["credential", "fill"], stdin: Data("url=https://example.com\n\n".utf8), environment: environment)
        #expect(HelperHome.fields(fill.stdout)["password"] == "pw", "\(fill)")
    }
}

import CredentialBridge
import Foundation
import SecStore
import Testing

/// The one URL → internet-password mapping, and the protocol readers, without a store.
@Suite struct MappingTests {
    @Test func hostsAndPorts() throws {
        #expect(try HostAndPort(parsing: "Git.Example.COM") == HostAndPort(host: "git.example.com", port: nil))
        #expect(try HostAndPort(parsing: "example.com:8443") == HostAndPort(host: "example.com", port: 8443))
        #expect(try HostAndPort(parsing: "[::1]:8080") == HostAndPort(host: "::1", port: 8080))
        #expect(try HostAndPort(parsing: "[::1]").authority == "[::1]")
        // Only ASCII letters fold: U+212A KELVIN SIGN is not "k", so "\u{212A}ey.com" is not key.com.
        #expect(try HostAndPort(parsing: "\u{212A}ey.com").host == "\u{212A}ey.com")
        #expect(try HostAndPort(parsing: "BÜCHER.de:443") == HostAndPort(host: "bÜcher.de", port: 443))
        #expect(try HostAndPort(parsing: "[::1]:8080").authority == "[::1]:8080")
        // Read by Unicode scalar: a combining mark after the "[" of an authority does not hide it.
        let marked = try HostAndPort(host: "\u{323}:", port: 2)
        #expect(marked.authority == "[\u{323}:]:2")
        #expect(try HostAndPort(parsing: marked.authority) == marked)
        for bad in ["", ":443", "example.com:", "example.com:0", "example.com:65536", "example.com:12a", "exa mple.com", "[::1", "[::1]x", "a/b"] {
            #expect(throws: BridgeError.self, "\(bad)") { try HostAndPort(parsing: bad) }
        }
    }

    @Test func schemesAndAppleCodes() {
        #expect(SchemeCodes.code(forScheme: "https") == .https)
        #expect(SchemeCodes.code(forScheme: "HTTP") == .http)
        #expect(SchemeCodes.code(forScheme: "imaps") == .imaps)
        #expect(SchemeCodes.code(forScheme: "ssh") == .ssh)
        #expect(SchemeCodes.code(forScheme: "cert")?.rawValue == "cert")
        #expect(SchemeCodes.code(forScheme: "htps") == nil, "spelled like https's code")
        #expect(SchemeCodes.code(forScheme: "htpx") == nil)
        #expect(SchemeCodes.code(forScheme: "1abc") == nil)
        #expect(SchemeCodes.code(forScheme: "a b") == nil)
        #expect(SchemeCodes.code(forScheme: "\u{212A}erberos") == nil, "KELVIN SIGN is not an ASCII k: not a URL scheme")
        #expect(SchemeCodes.scheme(forCode: .https) == "https")
        #expect(SchemeCodes.scheme(forCode: InternetProtocol(rawValue: "cert")) == "cert")
    }

    @Test func gitLocationAttributes() throws {
        let location = try InternetLocation(scheme: "https", hostAndPort: "Example.com:8443", path: "team/app.git")
        let attributes = location.attributes(account: "alice")
        #expect(attributes.protocol == .https)
        #expect(attributes.server == "example.com")
        #expect(attributes.port == 8443)
        #expect(attributes.path == "team/app.git")
        #expect(attributes.account == "alice")
        #expect(attributes.authenticationType == .default)
        #expect(location.url == "https://example.com:8443/team/app.git")
        #expect(InternetLocation(item: attributes) == location)
    }

    @Test func matchingExactlyAndAsGitDoes() throws {
        var stored = try InternetLocation(scheme: "https", hostAndPort: "example.com", path: "team/app.git").attributes(account: "alice")
        let bare = try InternetLocation(scheme: "https", hostAndPort: "example.com", path: nil)
        #expect(bare.matches(stored, exactly: false), "no path in the request matches any path")
        #expect(!bare.matches(stored, exactly: true))
        let withPort = try InternetLocation(scheme: "https", hostAndPort: "example.com:8443", path: nil)
        #expect(!withPort.matches(stored, exactly: false), "the port is part of the host")
        // The store fills in Apple's defaults for an absent port and path.
        stored.path = ""
        stored.port = 0
        #expect(bare.matches(stored, exactly: true))
        #expect(InternetLocation(item: stored)?.url == "https://example.com")
    }

    @Test func registryURLs() throws {
        #expect(try RegistryURL.location(of: "https://index.docker.io/v1/").url == "https://index.docker.io/v1/")
        #expect(try RegistryURL.location(of: "registry.example.com:5000").url == "https://registry.example.com:5000")
        #expect(try RegistryURL.location(of: "http://localhost:5000/").url == "http://localhost:5000")
        #expect(try RegistryURL.location(of: "//example.com/x?q=1#f").url == "https://example.com/x")
        #expect(try RegistryURL.location(of: "https://user@example.com").url == "https://example.com")
        #expect(try RegistryURL.location(of: "https://[::1]:5000/v2/").url == "https://[::1]:5000/v2/")
        #expect(throws: BridgeError(.malformedInput, "unsupported scheme: ftp")) { try RegistryURL.location(of: "ftp://example.com") }
        // The scheme as Go reads it, up to the first colon: never the user information after it.
        #expect(throws: BridgeError(.malformedInput, "unsupported scheme: alice")) {
            try RegistryURL.location(of: "alice:s3cr3t@https://registry.example.com")
        }
        #expect(throws: BridgeError(.malformedInput, "invalid server URL: missing protocol scheme")) {
            try RegistryURL.location(of: "\u{FFFD}s3cr3t://registry.example.com")
        }
        // Read by Unicode scalar: a combining mark after a "/" does not hide it.
        let marked = try RegistryURL.location(of: "https://\u{301}registry.example.com")
        #expect(marked.hostAndPort?.host == "\u{301}registry.example.com")
        #expect(try RegistryURL.location(of: marked.url) == marked)
        #expect(try RegistryURL.location(of: "registry.example.com/\u{301}v2").path == "\u{301}v2")
        #expect(throws: BridgeError(.malformedInput, "no hostname in URL")) { try RegistryURL.location(of: "https://") }
        #expect(throws: BridgeError(.malformedInput, "no hostname in URL")) { try RegistryURL.location(of: "https:///v2/") }
    }

    @Test func gitCredentialLines() throws {
        // A url= line replaces what came before it (git's own reader): here, nothing yet.
        let input = "url=http://mallory@replaced.example/x\nprotocol=https\r\nhost=example.com\nusername=alice\npassword=a=b\npassword_expiry_utc=1700000000\noauth_refresh_token=rt\ncapability[]=authtype\nwwwauth[]=Basic realm=\"x\"\npath=\nhost=example.org\n\nusername=after-the-end\n"
        let credential = try GitCredential(parsing: Array(input.utf8))
        #expect(credential == GitCredential(protocol: "https", host: "example.org", username: "alice", password: "a=b",
                                            passwordExpiryUTC: 1_700_000_000, oauthRefreshToken: "rt"))
        #expect(credential.answer == "username=alice\npassword=a=b\npassword_expiry_utc=1700000000\noauth_refresh_token=rt\n")
        #expect(!credential.description.contains("a=b") && !credential.description.contains("rt)"))
    }

    @Test func malformedGitLinesNameTheLineNeverItsText() {
        let cases: [([UInt8], String)] = [
            (Array("protocol=https\npassword-s3cr3t\n".utf8), "line 2 is not key=value"),
            (Array("=s3cr3t\n".utf8), "line 1 is not key=value"),
            (Array("password=s3\u{0}cr3t\n".utf8), "line 1 contains a NUL byte"),
            (Array("password=".utf8) + [0xFF, 0x0A], "line 1 is not UTF-8 text"),
            (Array("password_expiry_utc=soon\n".utf8), "line 1: password_expiry_utc is not a number of seconds"),
        ]
        for (input, message) in cases {
            #expect(throws: BridgeError(.malformedInput, message)) { try GitCredential(parsing: input) }
        }
    }

    @Test func sealedGitSecret() {
        let secret = GitSecret(password: "pw", expiry: 42, refreshToken: "rt")
        #expect(String(decoding: secret.encoded, as: UTF8.self) == "pw\npassword_expiry_utc=42\noauth_refresh_token=rt")
        #expect(GitSecret(decoding: secret.encoded) == secret)
        #expect(GitSecret(decoding: Data("plain".utf8)) == GitSecret(password: "plain", expiry: nil, refreshToken: nil))
        #expect(secret.isExpired(at: Date(timeIntervalSince1970: 43)))
        #expect(!secret.isExpired(at: Date(timeIntervalSince1970: 42)))
        #expect(!secret.description.contains("pw") && !secret.description.contains("rt)"))
        // A password spelt with other bytes is another password, whatever Unicode's equivalence.
        let stored = GitSecret(password: "caf\u{E9}", expiry: 42, refreshToken: "rt")
        #expect(GitSecret(password: "cafe\u{301}", expiry: nil, refreshToken: nil).replacing(stored)
                == GitSecret(password: "cafe\u{301}", expiry: nil, refreshToken: nil))
        #expect(GitSecret(password: "caf\u{E9}", expiry: nil, refreshToken: nil).replacing(stored) == stored)
    }

    /// `dump`, `Mirror` and debuggers use the stored properties, not `description`: without a
    /// custom mirror, `dump(credential)` printed the password, the refresh token and docker's secret.
    @Test func mirrorAndDumpNeverShowTheSecrets() {
        let values: [Any] = [
            GitSecret(password: "pw-s3cr3t", expiry: 42, refreshToken: "rt-s3cr3t"),
            GitCredential(protocol: "https", host: "example.com", username: "alice", password: "pw-s3cr3t",
                          passwordExpiryUTC: 42, oauthRefreshToken: "rt-s3cr3t"),
            DockerCredentials(serverURL: "https://registry.example.com", username: "alice", secret: "pw-s3cr3t"),
        ]
        for value in values {
            var dumped = ""
            dump(value, to: &dumped)
            #expect(!dumped.contains("pw-s3cr3t") && !dumped.contains("rt-s3cr3t"), "\(dumped)")
            #expect(dumped.contains("alice") || dumped.contains("42"), "\(dumped)")
            for text in [String(describing: value), String(reflecting: value)] {
                #expect(!text.contains("pw-s3cr3t") && !text.contains("rt-s3cr3t"), "\(text)")
            }
            let children = Mirror(reflecting: value).children.compactMap { $0.value as? String }
            #expect(!children.contains { $0.contains("s3cr3t") }, "\(children)")
        }
    }

    @Test func goStyleJSON() {
        #expect(GoJSON.object([("ServerURL", "https://x"), ("Username", "<token>"), ("Secret", "a&b\"\\\n\u{1}\u{2028}é")])
                == #"{"ServerURL":"https://x","Username":"\u003ctoken\u003e","Secret":"a\u0026b\"\\\n\u0001\u2028é"}"#)
        #expect(GoJSON.object([]) == "{}")
    }

    @Test func dockerJSONInput() throws {
        let lowercase = try DockerCredentials(json: Array(#"{"serverurl":"https://x","USERNAME":"u","Secret":"s","Extra":1}"#.utf8))
        #expect(lowercase == DockerCredentials(serverURL: "https://x", username: "u", secret: "s"))
        #expect(throws: DockerCredentialHelper.missingServerURL) { try DockerCredentials(json: Array(#"{"Username":"u","Secret":"s"}"#.utf8)) }
        #expect(throws: DockerCredentialHelper.missingUsername) { try DockerCredentials(json: Array(#"{"ServerURL":"https://x","Username":null}"#.utf8)) }
        #expect(throws: BridgeError.self) { try DockerCredentials(json: Array(#"{"ServerURL":"https://x","Username":"u","Secret":5}"#.utf8)) }
        #expect(throws: BridgeError.self) { try DockerCredentials(json: Array("not json s3cr3t".utf8)) }
        #expect(throws: BridgeError.self) { try DockerCredentials(json: Array("[1]".utf8)) }
    }
}

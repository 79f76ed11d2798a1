import Foundation
import SecStore
import Testing

/// docker-credential-secstore driven as docker and podman drive it: one action argument,
/// the request on standard input, the answer — or the error text — on standard output,
/// exit status 0 or 1.
@Suite struct DockerHelperTests {
    private func credentials(_ url: String, _ username: String, _ secret: String) -> String {
        #"{"ServerURL":"\#(url)","Username":"\#(username)","Secret":"\#(secret)"}"#
    }

    @Test func storeGetListErase() throws {
        let home = try HelperHome()
        let stored = try home.docker("store", input: credentials("https://index.docker.io/v1/", "alice", "s3cr3t") + "\n")
        #expect(stored.status == 0 && stored.stdout.isEmpty, "\(stored)")

        let got = try home.docker("get", input: "https://index.docker.io/v1/\n")
        #expect(got.status == 0)
        #expect(got.stdout == credentials("https://index.docker.io/v1/", "alice", "s3cr3t") + "\n")

        let listed = try home.docker("list", input: "unused")
        #expect(listed.status == 0 && listed.stdout == #"{"https://index.docker.io/v1/":"alice"}"# + "\n")

        // Stored as the macOS keychain helper stores it.
        let item = try #require(try home.internetPasswords().first)
        #expect(item.attributes.label == "Docker Credentials")
        #expect(item.attributes.authenticationType == .default)
        #expect(item.attributes.protocol == .https)
        #expect(item.attributes.server == "index.docker.io")
        #expect(item.attributes.path == "v1/")
        #expect(item.attributes.account == "alice")
        #expect(item.attributes.accessGroup == "local.docker-credential-secstore")
        #expect(item.data == Data("s3cr3t".utf8))

        let erased = try home.docker("erase", input: "https://index.docker.io/v1/")
        #expect(erased.status == 0 && erased.stdout.isEmpty)
        #expect(try home.docker("list").stdout == "{}\n")
    }

    @Test func storingAgainReplacesTheCredentialOfThatURL() throws {
        let home = try HelperHome()
        try #require(try home.docker("store", input: credentials("registry.example.com", "alice", "one")).status == 0)
        try #require(try home.docker("store", input: credentials("registry.example.com", "bob", "two")).status == 0)
        #expect(try home.docker("get", input: "registry.example.com").stdout == credentials("registry.example.com", "bob", "two") + "\n")
        #expect(try home.internetPasswords().count == 1)
    }

    @Test func eachURLIsItsOwnCredential() throws {
        let home = try HelperHome()
        let urls = ["registry.example.com", "registry.example.com:5000", "http://registry.example.com", "registry.example.com/v2/"]
        for (index, url) in urls.enumerated() {
            try #require(try home.docker("store", input: credentials(url, "user\(index)", "secret\(index)")).status == 0)
        }
        for (index, url) in urls.enumerated() {
            #expect(try home.docker("get", input: url).stdout == credentials(url, "user\(index)", "secret\(index)") + "\n")
        }
        // The same URL written another way is the same credential.
        #expect(try home.docker("get", input: "https://registry.example.com").stdout.contains("user0"))
        #expect(try home.docker("list").stdout == #"{"http://registry.example.com":"user2","https://registry.example.com":"user0","https://registry.example.com/v2/":"user3","https://registry.example.com:5000":"user1"}"# + "\n")
        #expect(try home.docker("get", input: "registry.example.com:5001").stdout == "credentials not found in native keychain\n")
    }

    /// Hosts fold ASCII case only: "\u{212A}ey.com" (KELVIN SIGN) is not key.com.
    @Test func hostsFoldOnlyASCIICase() throws {
        let home = try HelperHome()
        try #require(try home.docker("store", input: credentials("https://key.com", "alice", "key-pw")).status == 0)
        let other = try home.docker("get", input: "https://\u{212A}ey.com")
        #expect(other.status == 1 && other.stdout == "credentials not found in native keychain\n", "\(other)")
        #expect(try home.docker("get", input: "https://KEY.com").stdout.contains("key-pw"))

        try #require(try home.docker("store", input: credentials("https://\u{212A}ey.com", "bob", "kelvin-pw")).status == 0)
        #expect(try home.docker("get", input: "https://\u{212A}ey.com").stdout.contains("kelvin-pw"))
        #expect(try home.docker("get", input: "https://key.com").stdout.contains("key-pw"))
        #expect(try home.internetPasswords().count == 2)
    }

    @Test func identityTokensAndJSONEscapes() throws {
        let home = try HelperHome()
        let input = #"{"ServerURL":"https://registry.example.com","Username":"<token>","Secret":"a&b<c>\"d\\e\n"}"#
        try #require(try home.docker("store", input: input).status == 0)
        let got = try home.docker("get", input: "https://registry.example.com")
        #expect(got.stdout == #"{"ServerURL":"https://registry.example.com","Username":"\u003ctoken\u003e","Secret":"a\u0026b\u003cc\u003e\"d\\e\n"}"# + "\n")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(got.stdout.utf8)) as? [String: String])
        #expect(parsed["Username"] == "<token>" && parsed["Secret"] == "a&b<c>\"d\\e\n")
    }

    @Test func everyErrorStringOnStandardOutputWithStatus1() throws {
        let home = try HelperHome()
        let cases: [(action: String, input: String, output: String)] = [
            ("get", "https://nowhere.example.com\n", "credentials not found in native keychain"),
            ("erase", "https://nowhere.example.com\n", "credentials not found in native keychain"),
            ("get", "\n", "no credentials server URL"),
            ("get", "", "no credentials server URL"),
            ("erase", "  \n", "no credentials server URL"),
            ("store", #"{"Username":"alice","Secret":"s3cr3t"}"#, "no credentials server URL"),
            ("store", #"{"ServerURL":"","Username":"alice","Secret":"s3cr3t"}"#, "no credentials server URL"),
            ("store", #"{"ServerURL":"https://registry.example.com","Secret":"s3cr3t"}"#, "no credentials username"),
            ("store", credentials("ftp://registry.example.com", "alice", "s3cr3t"), "unsupported scheme: ftp"),
            ("get", "ssh://registry.example.com", "unsupported scheme: ssh"),
            ("store", credentials("https://", "alice", "s3cr3t"), "no hostname in URL"),
            ("get", "https:///v2/", "no hostname in URL"),
            ("store", "not json s3cr3t", "invalid credentials: the input is not JSON"),
            ("store", "", "invalid credentials: the input is not JSON"),
            ("store", "[\"s3cr3t\"]", "invalid credentials: the input is not a JSON object"),
            ("store", #"{"ServerURL":"https://registry.example.com","Username":"alice","Secret":7}"#, "invalid credentials: Secret is not a string"),
            ("store", credentials("https://registry.example.com:99999", "alice", "s3cr3t"), "invalid port: not a number from 1 to 65535"),
            ("frobnicate", "", "docker-credential-secstore: unknown action: frobnicate"),
        ]
        for (action, input, output) in cases {
            let result = try home.docker(action, input: input)
            #expect(result.status == 1, "\(action) \(input.debugDescription): \(result)")
            #expect(result.stdout == output + "\n", "\(action) \(input.debugDescription)")
            #expect(result.stderr.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: home.storeURL.path), "no failed request created a store")
    }

    @Test func hugeInputIsRefusedWhole() throws {
        let home = try HelperHome()
        let huge = credentials("https://registry.example.com", "alice", String(repeating: "x", count: 2 << 20))
        let result = try home.docker("store", input: huge)
        #expect(result.status == 1 && result.stdout == "input larger than 1024 KiB\n")
        #expect(!FileManager.default.fileExists(atPath: home.storeURL.path))
    }

    @Test func argumentsVersionAndHelp() throws {
        let home = try HelperHome()
        let none = try Run.run(Run.dockerHelperURL, [], environment: home.environment)
        #expect(none.status == 1 && none.stdout == "Usage: docker-credential-secstore <store|get|erase|list|version>\n")
        #expect(try Run.run(Run.dockerHelperURL, ["get", "extra"], environment: home.environment).status == 1)
        for argument in ["version", "--version", "-v"] {
            let result = try home.docker(argument)
            #expect(result.status == 0 && result.stdout == "docker-credential-secstore (SecStore) 1.0.0\n")
        }
        let help = try home.docker("--help")
        #expect(help.status == 0 && help.stdout.hasPrefix("Usage:"))
    }

    @Test func listAndGetWithoutAStoreCreateNothing() throws {
        let home = try HelperHome()
        #expect(try home.docker("list").stdout == "{}\n")
        #expect(try home.docker("get", input: "registry.example.com").stdout == "credentials not found in native keychain\n")
        #expect(!FileManager.default.fileExists(atPath: home.storeURL.path))
    }

    @Test func dockerAndGitKeepToTheirOwnItems() throws {
        let home = try HelperHome()
        try #require(try home.docker("store", input: credentials("https://ghcr.io", "docker-user", "docker-secret")).status == 0)
        try #require(try home.gitHelper("store", input: "protocol=https\nhost=ghcr.io\nusername=git-user\npassword=git-secret\n").status == 0)
        #expect(try home.gitHelper("get", input: "protocol=https\nhost=ghcr.io\n").stdout == "username=git-user\npassword=git-secret\n")
        #expect(try home.docker("get", input: "https://ghcr.io").stdout.contains("docker-user"))
        #expect(try home.docker("list").stdout == #"{"https://ghcr.io":"docker-user"}"# + "\n")
        try #require(try home.docker("erase", input: "https://ghcr.io").status == 0)
        #expect(try home.gitHelper("get", input: "protocol=https\nhost=ghcr.io\n").stdout.contains("git-secret"))
    }
}

import Foundation
import SecStore
import Testing

@Suite("secstore add and get")
struct AddGetTests {
    @Test("get prints exactly the bytes added from standard input")
    func rawRoundTrip() throws {
        let store = try CLIStore.created()
        let added = try store.run("add", "--service", "api", "--account", "alice", "--value-stdin", stdin: "s3cr3t\n")
        #expect(added.status == Exit.success, "\(added)")
        #expect(added.stdout == "Added genp item (service \"api\", account \"alice\") to group local.secstore.\n")
        #expect(!added.stdout.contains("s3cr3t") && !added.stderr.contains("s3cr3t"))

        let got = try store.run("get", "--service", "api", "--account", "alice")
        #expect(got.status == Exit.success, "\(got)")
        #expect(got.stdoutData == Data("s3cr3t\n".utf8), "stdin bytes are stored unchanged, newline included")
        #expect(got.stderr.isEmpty)
    }

    @Test("--trim-newline removes exactly one trailing newline")
    func trimNewline() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "one", secret: "token\n", "--trim-newline")
        try store.add(service: "api", account: "two", secret: "token\n\n", "--trim-newline")
        #expect(try store.run("get", "--service", "api", "--account", "one").stdoutData == Data("token".utf8))
        #expect(try store.run("get", "--service", "api", "--account", "two").stdoutData == Data("token\n".utf8))
    }

    @Test("Binary secrets from --value-file come back byte for byte, and as base64 in JSON")
    func binarySecret() throws {
        let store = try CLIStore.created()
        let bytes = Data([0x00, 0xFF, 0xFE, 0x0A, 0x80, 0x7F])
        let file = store.file("secret.bin")
        try bytes.write(to: file)
        let added = try store.run("add", "--service", "bin", "--account", "a", "--value-file", file.path)
        #expect(added.status == Exit.success, "\(added)")
        #expect(try store.run("get", "--service", "bin", "--account", "a").stdoutData == bytes)

        let json = try store.run("get", "--service", "bin", "--account", "a", "--json").jsonObject()
        #expect(json["secret"] is NSNull, "a secret that is not UTF-8 has no text form")
        #expect(json["secretBase64"] as? String == bytes.base64EncodedString())
    }

    @Test("get --json has the documented item shape")
    func getJSON() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "alice", secret: "pw", "--label", "Example API", "--comment", "rotated monthly",
                      "--description", "application password")
        let result = try store.run("get", "--service", "api", "--account", "alice", "--json")
        #expect(result.status == Exit.success, "\(result)")
        let object = try result.jsonObject()
        #expect(object["class"] as? String == "genp")
        let reference = try #require(object["ref"] as? String)
        #expect(reference.count == 40 && reference.hasPrefix("67656e70"), "ref is the 20-byte reference in hex, starting with \"genp\"")
        #expect(object["secret"] as? String == "pw")
        #expect(object["secretBase64"] as? String == Data("pw".utf8).base64EncodedString())
        let attributes = try #require(object["attributes"] as? [String: Any])
        #expect(attributes["service"] as? String == "api")
        #expect(attributes["account"] as? String == "alice")
        #expect(attributes["accessGroup"] as? String == "local.secstore")
        #expect(attributes["accessibility"] as? String == "whenUnlocked")
        #expect(attributes["label"] as? String == "Example API")
        #expect(attributes["comment"] as? String == "rotated monthly")
        #expect(attributes["description"] as? String == "application password")
        #expect(attributes["synchronizable"] as? Bool == false)
        let created = try #require(attributes["creationDate"] as? String)
        #expect(try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(created) <= Date())
    }

    @Test("An internet password is named by server, protocol, port and path")
    func internetPassword() throws {
        let store = try CLIStore.created()
        let added = try store.run("add", "--class", "inet", "--server", "example.com", "--protocol", "https", "--port", "443",
                                  "--path", "/login", "--account", "alice", "--value-stdin", stdin: "web-pw")
        #expect(added.status == Exit.success, "\(added)")
        // The class is inferred from --server.
        let got = try store.run("get", "--server", "example.com", "--account", "alice")
        #expect(got.stdout == "web-pw")
        let attributes = try #require(try store.run("get", "--server", "example.com", "--json").jsonObject()["attributes"] as? [String: Any])
        #expect(attributes["protocol"] as? String == "htps")
        #expect(attributes["port"] as? Int == 443)
        #expect(attributes["path"] as? String == "/login")
        #expect(try store.run("get", "--server", "example.com", "--port", "8443").status == Exit.notFound)

        let wrongClass = try store.run("get", "--class", "genp", "--server", "example.com")
        #expect(wrongClass.status == Exit.usage)
        #expect(wrongClass.stderr.contains("--server applies to internet passwords"))
    }

    @Test("A second add of the same item fails with status 4")
    func duplicate() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "alice", secret: "one")
        let again = try store.run("add", "--service", "api", "--account", "alice", "--value-stdin", stdin: "two")
        #expect(again.status == Exit.duplicate, "\(again)")
        #expect(again.stderr.hasPrefix("secstore: error: "))
        #expect(try store.run("get", "--service", "api", "--account", "alice").stdout == "one")
        // Another group is another item.
        try store.add(service: "api", account: "alice", secret: "three", "--group", "team.shared")
    }

    @Test("--value works but warns that the secret is visible in the process list")
    func valueArgumentWarns() throws {
        let store = try CLIStore.created()
        let result = try store.run("add", "--service", "api", "--account", "alice", "--value", "visible")
        #expect(result.status == Exit.success)
        #expect(result.stderr.contains("secstore: warning: --value puts the secret in the process list"))
        #expect(!result.stderr.contains("visible"))
    }

    @Test("add without a secret and without a terminal is a usage error")
    func noSecretSource() throws {
        let store = try CLIStore.created()
        let result = try store.run("add", "--service", "api", "--account", "alice")
        #expect(result.status == Exit.usage)
        #expect(result.stderr.contains("--value-stdin"))
        let both = try store.run("add", "--service", "api", "--account", "a", "--value-stdin", "--passphrase-stdin")
        #expect(both.status == Exit.usage)
    }

    @Test("The default group is the application identifier of SECSTORE_ENTITLEMENTS")
    func entitlementsGroup() throws {
        let store = try CLIStore.created()
        let plist = store.file("app.entitlements")
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
            <key>application-identifier</key><string>ABCDE12345.com.example.app</string>
            </dict></plist>
            """.utf8).write(to: plist)
        let added = try store.run("add", "--service", "api", "--account", "alice", "--value-stdin", "--json", stdin: "pw",
                                  environment: ["SECSTORE_ENTITLEMENTS": plist.path])
        #expect(added.status == Exit.success, "\(added)")
        let attributes = try #require(try added.jsonObject()["attributes"] as? [String: Any])
        #expect(attributes["accessGroup"] as? String == "ABCDE12345.com.example.app")

        let broken = try store.run("add", "--service", "api", "--account", "bob", "--value-stdin", stdin: "pw",
                                   environment: ["SECSTORE_ENTITLEMENTS": store.file("missing.plist").path])
        #expect(broken.status == Exit.missingEntitlement, "\(broken)")
        #expect(broken.stderr.contains("SECSTORE_ENTITLEMENTS"))
    }

    @Test("No command puts an item into the reserved group secstore.sync: add, generate, update --new-group, or an entitlements default")
    func reservedSyncGroupIsRefused() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "alice", secret: "pw")
        let plist = store.file("sync.entitlements")
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
            <key>keychain-access-groups</key><array><string>secstore.sync</string></array>
            </dict></plist>
            """.utf8).write(to: plist)
        let attempts: [(arguments: [String], environment: [String: String], origin: String)] = [
            (["add", "-s", "secstore.sync", "-a", "settings", "-g", "secstore.sync", "--value-stdin"], [:], "--group"),
            (["generate", "-s", "secstore.sync", "-a", "etcd-password", "--group", "secstore.sync"], [:], "--group"),
            (["add", "-s", "secstore.sync", "-a", "settings", "--value-stdin"], ["SECSTORE_ENTITLEMENTS": plist.path], "$SECSTORE_ENTITLEMENTS"),
            (["update", "-s", "api", "-a", "alice", "--new-group", "secstore.sync"], [:], "--new-group"),
        ]
        for attempt in attempts {
            let result = try store.run(attempt.arguments + ["--json"], stdin: Data("{}".utf8), environment: attempt.environment)
            #expect(result.status == Exit.usage, "\(attempt.arguments): \(result)")
            #expect(result.stderr.contains("\(attempt.origin) names the access group secstore.sync, which is reserved"), "\(result.stderr)")
        }
        let listed = try store.run("list", "--json").jsonArray()
        #expect(listed.count == 1 && (listed.first?["attributes"] as? [String: Any])?["accessGroup"] as? String == "local.secstore",
                "nothing written, nothing moved: \(listed)")
    }

    @Test("get fails with status 3 when nothing matches and 2 when several do")
    func notFoundAndAmbiguous() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "alice", secret: "a")
        try store.add(service: "api", account: "bob", secret: "b")

        let missing = try store.run("get", "--service", "api", "--account", "carol")
        #expect(missing.status == Exit.notFound)
        #expect(missing.stderr == "secstore: error: No item matches service \"api\", account \"carol\". Check the names with `secstore list`.\n")
        #expect(missing.stdout.isEmpty)

        let missingJSON = try store.run("get", "--service", "api", "--account", "carol", "--json")
        let error = try #require(try missingJSON.jsonObject()["error"] as? [String: Any])
        #expect(error["code"] as? String == "itemNotFound")
        #expect(error["exitCode"] as? Int == 3)

        let ambiguous = try store.run("get", "--service", "api")
        #expect(ambiguous.status == Exit.usage)
        #expect(ambiguous.stderr.contains("2 items match"))
        #expect(ambiguous.stdout.isEmpty, "no secret is printed when the match is ambiguous")
    }

    @Test("--ref names one item")
    func byReference() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "alice", secret: "a")
        try store.add(service: "api", account: "bob", secret: "b")
        let listed = try store.run("list", "--account", "bob", "--json").jsonArray()
        let reference = try #require(listed.first?["ref"] as? String)
        #expect(try store.run("get", "--ref", reference).stdout == "b")
        #expect(try store.run("get", "--ref", "zz").status == Exit.usage)
        #expect(try store.run("get", "--ref", reference, "--account", "bob").status == Exit.usage)
    }

    @Test("An unknown class is a usage error that lists the classes")
    func unknownClass() throws {
        let store = try CLIStore.created()
        for command in ["list", "get", "add", "delete"] {
            let result = try store.run(command, "--class", "keys")
            #expect(result.status == Exit.usage, "\(command): \(result)")
            #expect(result.stderr.hasPrefix("secstore: error: The value 'keys' is invalid for '--class <class>'"))
            #expect(result.stderr.contains("'genp' and 'inet'"))
        }
    }
}

import Foundation
import Testing

/// The real `secret-tool` (libsecret) against the built provider on a private bus: what every
/// libsecret application does when it stores, looks up, searches and clears a password.
@Suite("secret-tool against secstore-secret-service")
struct SecretToolTests {
    @Test("store then lookup returns the secret")
    func storeThenLookup() throws {
        let provider = try Provider(bus: try PrivateBus())
        let stored = try provider.secretTool(["store", "--label=Mail password", "service", "mail.example.com", "user", "alice"],
                                             stdin: "correct horse battery")
        #expect(stored.status == 0, "\(stored)")
        let found = try provider.secretTool(["lookup", "service", "mail.example.com", "user", "alice"])
        #expect(found.status == 0, "\(found)")
        #expect(found.stdout == "correct horse battery")
        // A subset of the attributes finds it too; a different value does not.
        #expect(try provider.secretTool(["lookup", "user", "alice"]).stdout == "correct horse battery")
        #expect(try provider.secretTool(["lookup", "user", "bob"]).stdout == "")
    }

    @Test("a lookup that matches nothing exits non-zero at once")
    func lookupMiss() throws {
        let provider = try Provider(bus: try PrivateBus())
        let missing = try provider.secretTool(["lookup", "service", "nowhere"])
        #expect(missing.status != 0, "\(missing)")
        #expect(missing.stdout.isEmpty)
        #expect(provider.isRunning)
    }

    @Test("search shows the label, the secret and every attribute")
    func search() throws {
        let provider = try Provider(bus: try PrivateBus())
        _ = try provider.secretTool(["store", "--label=Build token", "service", "ci", "user", "builder", "xdg:schema", "org.example.Token"],
                                    stdin: "tok-123")
        let result = try provider.secretTool(["search", "--all", "service", "ci"])
        #expect(result.status == 0, "\(result)")
        let text = result.stdout + result.stderr   // secret-tool prints attributes on standard error
        #expect(text.contains("label = Build token"))
        #expect(text.contains("secret = tok-123"))
        #expect(text.contains("attribute.user = builder"))
        #expect(text.contains("attribute.service = ci"))
        #expect(text.contains("schema = org.example.Token") || text.contains("attribute.xdg:schema = org.example.Token"))
    }

    @Test("clear removes the matching items and only them")
    func clear() throws {
        let provider = try Provider(bus: try PrivateBus())
        _ = try provider.secretTool(["store", "--label=a", "service", "s", "user", "a"], stdin: "one")
        _ = try provider.secretTool(["store", "--label=b", "service", "s", "user", "b"], stdin: "two")
        let cleared = try provider.secretTool(["clear", "user", "a"])
        #expect(cleared.status == 0, "\(cleared)")
        #expect(try provider.secretTool(["lookup", "user", "a"]).status != 0)
        #expect(try provider.secretTool(["lookup", "user", "b"]).stdout == "two")
    }

    @Test("storing the same attributes again replaces the item")
    func replace() throws {
        let provider = try Provider(bus: try PrivateBus())
        _ = try provider.secretTool(["store", "--label=first", "service", "s", "user", "a"], stdin: "old secret")
        _ = try provider.secretTool(["store", "--label=second", "service", "s", "user", "a"], stdin: "new secret")
        #expect(try provider.secretTool(["lookup", "service", "s", "user", "a"]).stdout == "new secret")
        let all = try provider.secretTool(["search", "--all", "service", "s"])
        #expect(all.stdout.components(separatedBy: "secret = ").count - 1 == 1, "\(all)")
        #expect(all.stdout.contains("label = second"))
        // Different attributes (a superset) make a second item rather than replacing.
        _ = try provider.secretTool(["store", "--label=third", "service", "s", "user", "a", "extra", "x"], stdin: "third secret")
        #expect(try provider.secretTool(["lookup", "extra", "x"]).stdout == "third secret")
        #expect(try provider.secretTool(["lookup", "service", "s", "user", "a"]).status == 0)
    }

    @Test("the secret never appears in the provider's output or logs")
    func noSecretInLogs() throws {
        let provider = try Provider(bus: try PrivateBus())
        let secret = "S3cret-\(UUID().uuidString)"
        _ = try provider.secretTool(["store", "--label=x", "service", "s"], stdin: secret)
        #expect(try provider.secretTool(["lookup", "service", "s"]).stdout == secret)
        _ = try provider.secretTool(["lookup", "service", "missing"])
        _ = try provider.secretTool(["clear", "service", "s"])
        #expect(!provider.log.isEmpty)   // it did log (the name it serves), just not the secret
        #expect(!provider.log.contains(secret))
        #expect(!provider.log.contains("S3cret"))
    }
}

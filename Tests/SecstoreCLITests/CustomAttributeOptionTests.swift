import Foundation
import Testing

/// `--attribute NAME=VALUE`: free-form attributes (format 3) from the command line — set on
/// `add`, matched exactly as filters, shown as `customAttributes` in JSON.
@Suite("secstore --attribute")
struct CustomAttributeOptionTests {
    @Test("add sets the pairs; list, get and delete filter on them; JSON shows them")
    func addFilterShow() throws {
        let store = try CLIStore.created()
        try store.add(service: "mail", account: "alice", secret: "pw-alice", "--attribute", "user=alice",
                      "--attribute", "xdg:schema=org.example.Mail")
        try store.add(service: "mail", account: "bob", secret: "pw-bob", "--attribute", "user=bob",
                      "--attribute", "note=a=b")   // the first `=` splits: the value holds the rest
        try store.add(service: "mail", account: "carol", secret: "pw-carol")

        let listed = try store.run("list", "--json", "--attribute", "xdg:schema=org.example.Mail").jsonArray()
        #expect(listed.count == 1)
        #expect((listed.first?["customAttributes"] as? [String: String]) == ["user": "alice", "xdg:schema": "org.example.Mail"])
        let bob = try store.run("list", "--json", "--attribute", "note=a=b").jsonArray()
        #expect((bob.first?["attributes"] as? [String: Any])?["account"] as? String == "bob")
        let carol = try store.run("list", "--json", "--account", "carol").jsonArray()
        #expect(carol.count == 1 && carol.first?["customAttributes"] == nil)

        let got = try store.run("get", "--service", "mail", "--attribute", "user=bob")
        #expect(got.status == Exit.success, "\(got)")
        #expect(got.stdout.hasPrefix("pw-bob"), "\(got)")
        #expect(try store.run("get", "--service", "mail", "--attribute", "user=BOB").status != Exit.success)

        let deleted = try store.run("delete", "--service", "mail", "--attribute", "user=alice")
        #expect(deleted.status == Exit.success, "\(deleted)")
        #expect(try store.run("list", "--json").jsonArray().count == 2)
    }

    @Test("a malformed --attribute is a usage error", arguments: [["novalue"], ["=value"], ["user=a", "user=b"]])
    func malformed(values: [String]) throws {
        let store = try CLIStore.created()
        let result = try store.run(["list"] + values.flatMap { ["--attribute", $0] }, stdin: Data())
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("--attribute takes NAME=VALUE"), "\(result)")
    }

    @Test("pairs beyond the store's limits are refused with the store's message")
    func beyondLimits() throws {
        let store = try CLIStore.created()
        let huge = "big=" + String(repeating: "v", count: 5000)
        let result = try store.run("add", "--service", "mail", "--account", "a", "--value-stdin", "--attribute", huge, stdin: "pw")
        #expect(result.status != Exit.success)
        #expect(result.stderr.contains("free-form attribute"), "\(result)")
        #expect(try store.run("list", "--json").jsonArray().isEmpty)
    }
}

import Foundation
import Testing

@Suite("secstore list, update and delete")
struct ListUpdateDeleteTests {
    /// A store with three generic passwords in two groups and one internet password.
    private func populated() throws -> CLIStore {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "alice", secret: "secret-alice", "--label", "Alice")
        try store.add(service: "api", account: "bob", secret: "secret-bob", "--group", "team.shared")
        try store.add(service: "db", account: "app", secret: "secret-db")
        let inet = try store.run("add", "--server", "example.com", "--account", "carol", "--value-stdin", stdin: "secret-web")
        try #require(inet.status == Exit.success)
        return store
    }

    @Test("list prints a table of attributes and never a secret")
    func listTable() throws {
        let store = try populated()
        let result = try store.run("list")
        #expect(result.status == Exit.success, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("CLASS  SERVICE/SERVER  ACCOUNT") == true, "\(result.stdout)")
        #expect(lines.count == 5)
        #expect(lines[1].hasPrefix("genp   api             alice    local.secstore  whenUnlocked   Alice"), "\(lines[1])")
        #expect(lines.last?.hasPrefix("inet   example.com     carol") == true)
        #expect(!result.stdout.contains("secret-"))
    }

    @Test("list --json is an array of items; filters narrow it")
    func listJSONAndFilters() throws {
        let store = try populated()
        let all = try store.run("list", "--json").jsonArray()
        #expect(all.count == 4)
        #expect(all.allSatisfy { $0["secret"] == nil && $0["secretBase64"] == nil })
        #expect(all.allSatisfy { ($0["ref"] as? String)?.count == 40 })

        func accounts(_ filters: String...) throws -> [String] {
            try store.run(["list", "--json"] + filters, stdin: Data()).jsonArray().compactMap {
                ($0["attributes"] as? [String: Any])?["account"] as? String
            }
        }
        #expect(try accounts("--service", "api") == ["alice", "bob"])
        #expect(try accounts("--account", "app") == ["app"])
        #expect(try accounts("--group", "team.shared") == ["bob"])
        #expect(try accounts("--label", "Alice") == ["alice"])
        #expect(try accounts("--class", "inet") == ["carol"])
        #expect(try accounts("--class", "genp").count == 3)

        let none = try store.run("list", "--service", "nothing", "--json")
        #expect(none.status == Exit.success)
        #expect(try none.jsonArray().isEmpty)
        let noneText = try store.run("list", "--service", "nothing")
        #expect(noneText.status == Exit.success && noneText.stdout.isEmpty && noneText.stderr == "No items match.\n")
    }

    @Test("list --show-secrets and --refs add columns when asked")
    func listWithSecrets() throws {
        let store = try populated()
        let table = try store.run("list", "--service", "db", "--show-secrets", "--refs")
        #expect(table.stdout.hasPrefix("REF "))
        #expect(table.stdout.contains("SECRET") && table.stdout.contains("secret-db"))
        let json = try store.run("list", "--service", "db", "--show-secrets", "--json").jsonArray()
        #expect(json.first?["secret"] as? String == "secret-db")
    }

    /// Before: a secret holding a newline (the one `echo` adds) showed as `<N bytes>` in table
    /// and tsv output, so a script reading tsv got a size for the secret, with status 0; the
    /// manual promises newlines escaped as `\u{a}`.
    @Test("list --show-secrets escapes a secret's newlines instead of hiding the secret")
    func listWithMultilineSecrets() throws {
        let store = try CLIStore.created()
        try store.add(service: "pem", account: "key", secret: "line one\nline two\n")
        for format in ["table", "tsv"] {
            let listed = try store.run("list", "--service", "pem", "--show-secrets", "--format", format, "--no-headers")
            #expect(listed.status == Exit.success, "\(listed)")
            #expect(listed.stdout.contains("line one\\u{a}line two\\u{a}") && !listed.stdout.contains("bytes>"), "\(format): \(listed.stdout)")
        }
    }

    @Test("update replaces the secret from standard input")
    func updateSecret() throws {
        let store = try populated()
        let result = try store.run("update", "--service", "api", "--account", "alice", "--value-stdin", stdin: "rotated")
        #expect(result.status == Exit.success, "\(result)")
        #expect(result.stdout == "Updated 1 item.\n")
        #expect(try store.run("get", "--service", "api", "--account", "alice").stdout == "rotated")
    }

    @Test("update --new-… changes attributes and keeps the secret")
    func updateAttributes() throws {
        let store = try populated()
        let result = try store.run("update", "--service", "db", "--account", "app", "--new-label", "Database",
                                   "--new-accessibility", "afterFirstUnlock", "--json")
        #expect(try result.jsonObject()["updated"] as? Int == 1)
        let item = try store.run("get", "--service", "db", "--account", "app", "--json").jsonObject()
        let attributes = try #require(item["attributes"] as? [String: Any])
        #expect(attributes["label"] as? String == "Database")
        #expect(attributes["accessibility"] as? String == "afterFirstUnlock")
        #expect(item["secret"] as? String == "secret-db")
    }

    @Test("update of several items needs --all; without it nothing changes")
    func updateSeveral() throws {
        let store = try populated()
        let refused = try store.run("update", "--service", "api", "--new-comment", "c")
        #expect(refused.status == Exit.usage)
        #expect(refused.stderr.contains("2 items match service \"api\""))
        #expect(refused.stderr.contains("--all"))
        let unchanged = try store.run("list", "--service", "api", "--json").jsonArray()
        #expect(unchanged.allSatisfy { ($0["attributes"] as? [String: Any])?["comment"] == nil })

        let all = try store.run("update", "--service", "api", "--new-comment", "c", "--all")
        #expect(all.stdout == "Updated 2 items.\n")
    }

    @Test("update without anything to change, and of a missing item, fail clearly")
    func updateErrors() throws {
        let store = try populated()
        let nothing = try store.run("update", "--service", "db", "--account", "app")
        #expect(nothing.status == Exit.usage)
        #expect(nothing.stderr.contains("Nothing to change"))
        let missing = try store.run("update", "--service", "nope", "--value-stdin", stdin: "x")
        #expect(missing.status == Exit.notFound)
    }

    @Test("delete removes one item; several need --all and the error names the count")
    func delete() throws {
        let store = try populated()
        let one = try store.run("delete", "--service", "db", "--account", "app")
        #expect(one.status == Exit.success, "\(one)")
        #expect(one.stdout == "Deleted 1 item.\n")
        #expect(try store.run("get", "--service", "db", "--account", "app").status == Exit.notFound)

        let refused = try store.run("delete", "--service", "api")
        #expect(refused.status == Exit.usage)
        #expect(refused.stderr.contains("2 items match service \"api\". Pass --all to delete every one"))
        #expect(try store.run("list", "--service", "api", "--json").jsonArray().count == 2, "a refused delete deletes nothing")

        let all = try store.run("delete", "--service", "api", "--all", "--json")
        #expect(try all.jsonObject()["deleted"] as? Int == 2)
        #expect(try store.run("delete", "--service", "api").status == Exit.notFound)
        #expect(try store.run("delete", "--ref", "00", "--damaged").status == Exit.usage)
        #expect(try store.run("delete", "--damaged").status == Exit.usage)
    }
}

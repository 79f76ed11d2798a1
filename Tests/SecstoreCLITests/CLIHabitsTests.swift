import Foundation
import Testing

/// The habits of peer tools (`pass`, `op`, `secret-tool`, `keepassxc-cli`, `security`):
/// short options, add-or-replace, globs, output formats, quiet runs, dry runs and `--yes`.
@Suite("secstore CLI habits")
struct CLIHabitsTests {
    @Test("-s, -a and -g are --service, --account and --group")
    func shortOptions() throws {
        let store = try CLIStore.created()
        let added = try store.run(["add", "-s", "api", "-a", "ci", "-g", "team.shared", "--value-stdin"], stdin: Data("x".utf8))
        #expect(added.status == Exit.success, "\(added)")
        let item = try store.run("get", "-s", "api", "-a", "ci", "-g", "team.shared", "--json").jsonObject()
        #expect((item["attributes"] as? [String: Any])?["accessGroup"] as? String == "team.shared")
        #expect(try store.run("identity", "show", "-g", "team.shared").status == Exit.success)
    }

    @Test("add --update adds, then replaces the secret and the attributes given, keeping the item")
    func addUpdate() throws {
        let store = try CLIStore.created()
        let first = try store.run(["add", "-s", "api", "-a", "ci", "--value-stdin", "--update", "--json", "--label", "one"], stdin: Data("v1".utf8))
        #expect(first.status == Exit.success, "\(first)")
        let added = try first.jsonObject()
        #expect(added["replaced"] as? Bool == false)
        let second = try store.run(["add", "-s", "api", "-a", "ci", "--value-stdin", "--update", "--comment", "rotated"], stdin: Data("v2".utf8))
        #expect(second.status == Exit.success, "\(second)")
        #expect(second.stdout == "Replaced genp item (service \"api\", account \"ci\") in group local.secstore.\n")
        #expect(try store.run("get", "-s", "api", "-a", "ci").stdout == "v2")
        let now = try store.run("get", "-s", "api", "-a", "ci", "--json").jsonObject()
        #expect(now["ref"] as? String == added["ref"] as? String, "the same item, updated in place")
        let attributes = try #require(now["attributes"] as? [String: Any])
        #expect(attributes["label"] as? String == "one" && attributes["comment"] as? String == "rotated")
        // Without --update a duplicate is still status 4; an item in another group is another item.
        #expect(try store.run(["add", "-s", "api", "-a", "ci", "--value-stdin"], stdin: Data("v3".utf8)).status == Exit.duplicate)
        let otherGroup = try store.run(["add", "-s", "api", "-a", "ci", "-g", "other", "--value-stdin", "--update", "--json"], stdin: Data("g".utf8))
        #expect(try otherGroup.jsonObject()["replaced"] as? Bool == false)
        #expect(try store.run("list", "-s", "api", "--json").jsonArray().count == 2)
    }

    @Test("add --update on internet passwords replaces the item with the same server, port and path only")
    func addUpdateInternet() throws {
        let store = try CLIStore.created()
        for (port, secret) in [("0", "default-port"), ("8443", "other-port")] {
            let result = try store.run(["add", "--server", "example.com", "--port", port, "-a", "bob", "--value-stdin"], stdin: Data(secret.utf8))
            try #require(result.status == Exit.success, "\(result)")
        }
        let replaced = try store.run(["add", "--server", "example.com", "-a", "bob", "--value-stdin", "--update"], stdin: Data("new".utf8))
        #expect(replaced.stdout.hasPrefix("Replaced inet item"), "\(replaced)")
        #expect(try store.run("get", "--server", "example.com", "--port", "0", "-a", "bob").stdout == "new")
        #expect(try store.run("get", "--server", "example.com", "--port", "8443", "-a", "bob").stdout == "other-port")
    }

    @Test("list and delete --glob: * ? [set] on the decrypted names; escapes; exact names stay exact without --glob")
    func globs() throws {
        let store = try CLIStore.created()
        for (service, account) in [("api.eu.example.com", "ci-1"), ("api.us.example.com", "ci-2"), ("api.us.example.com", "ci-10"),
                                   ("db.example.com", "app"), ("a*", "literal")] {
            try store.add(service: service, account: account, secret: "x")
        }
        func accounts(_ arguments: String...) throws -> [String] {
            let result = try store.run(["list", "--json"] + arguments, stdin: Data())
            try #require(result.status == Exit.success, "\(arguments): \(result)")
            return try result.jsonArray().compactMap { ($0["attributes"] as? [String: Any])?["account"] as? String }.sorted()
        }
        #expect(try accounts("--glob", "-s", "api.*.example.com") == ["ci-1", "ci-10", "ci-2"])
        #expect(try accounts("--glob", "-a", "ci-?") == ["ci-1", "ci-2"])
        #expect(try accounts("--glob", "-s", "api.[a-f]*") == ["ci-1"])
        #expect(try accounts("--glob", "-s", "api.[!e]*", "-a", "*0") == ["ci-10"])
        #expect(try accounts("--glob", "-s", "a\\*") == ["literal"], "an escaped * is a literal")
        #expect(try accounts("-s", "a*") == ["literal"], "without --glob, names are exact")
        #expect(try accounts("-s", "api.*.example.com").isEmpty)
        #expect(try accounts("--glob", "-s", "nothing*").isEmpty)

        let many = try store.run("delete", "--glob", "-a", "ci-*")
        #expect(many.status == Exit.usage && many.stderr.contains("3 items match"), "\(many)")
        let dryRun = try store.run("delete", "--glob", "-a", "ci-*", "--all", "--dry-run", "--json")
        #expect(dryRun.status == Exit.success, "\(dryRun)")
        let plan = try dryRun.jsonObject()
        #expect(plan["deleted"] as? Int == 0 && plan["dryRun"] as? Bool == true)
        #expect((plan["wouldDelete"] as? [Any])?.count == 3)
        #expect(try accounts().count == 5, "a dry run deletes nothing")

        let deleted = try store.run("delete", "--glob", "-s", "api.us.*", "--all", "--json")
        #expect(try deleted.jsonObject()["deleted"] as? Int == 2, "\(deleted)")
        #expect(try accounts() == ["app", "ci-1", "literal"])
        #expect(try store.run("delete", "--glob", "-s", "zzz*").status == Exit.notFound)
        #expect(try store.run("list", "--glob", "--ref", "67656e7000000000000000019afe06c2fe302355").status == Exit.usage)
    }

    @Test("--format table|tsv|json and --no-headers for list and keyring list")
    func formats() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "ci", secret: "x", "--label", "tab\there")
        let tsv = try store.run("list", "--format", "tsv")
        #expect(tsv.status == Exit.success, "\(tsv)")
        let lines = tsv.stdout.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        #expect(lines.count == 2)
        #expect(lines[0] == ["CLASS", "SERVICE/SERVER", "ACCOUNT", "GROUP", "ACCESSIBILITY", "LABEL", "MODIFIED"])
        #expect(lines[1].prefix(6) == ["genp", "api", "ci", "local.secstore", "whenUnlocked", "tab\\u{9}here"], "a tab in a value is escaped")
        let bare = try store.run("list", "--format", "tsv", "--no-headers")
        #expect(bare.stdout.split(separator: "\n").count == 1 && bare.stdout.hasPrefix("genp\tapi\tci\t"))
        let table = try store.run("list", "--no-headers")
        #expect(table.stdout.hasPrefix("genp  api"), "\(table.stdout)")
        #expect(try store.run("list", "--format", "json").jsonArray().count == 1)
        #expect(try store.run("list", "--format", "json", "--json").jsonArray().count == 1)
        #expect(try store.run("list", "--format", "tsv", "--json").status == Exit.usage)
        #expect(try store.run("list", "--format", "json", "--no-headers").status == Exit.usage)
        #expect(try store.run("list", "--format", "xml").status == Exit.usage)
        // --format json reports errors as JSON too.
        let missing = try CLI.run(["list", "--format", "json", "--store", store.file("none.secstore").path], home: store.directory)
        #expect(missing.status == Exit.unavailable)
        #expect((try missing.jsonObject()["error"] as? [String: Any])?["code"] != nil, "\(missing)")

        // `keyring` covers every store: it takes no --store, which store.run would add.
        let keyring = try CLI.run(["keyring", "list", "--format", "tsv", "--no-headers"], home: store.directory)
        #expect(keyring.status == Exit.success, "\(keyring)")
        #expect(!keyring.stdout.contains("STORE ID"))
    }

    @Test("--quiet leaves out confirmations and notes, keeps data and errors")
    func quiet() throws {
        let store = try CLIStore.created()
        let added = try store.run(["add", "-s", "api", "-a", "ci", "--value-stdin", "-q"], stdin: Data("x".utf8))
        #expect(added.status == Exit.success && added.stdout.isEmpty && added.stderr.isEmpty, "\(added)")
        #expect(try store.run("get", "-s", "api", "-a", "ci", "--quiet").stdout == "x")
        let list = try store.run("list", "-q")
        #expect(list.stdout.contains("api"), "a listing is what was asked for")
        let empty = try store.run("list", "-s", "none", "--quiet")
        #expect(empty.status == Exit.success && empty.stdout.isEmpty && empty.stderr.isEmpty, "\(empty)")
        let updated = try store.run(["update", "-s", "api", "-a", "ci", "--value-stdin", "--quiet"], stdin: Data("y".utf8))
        #expect(updated.stdout.isEmpty && updated.status == Exit.success)
        let deleted = try store.run("delete", "-s", "api", "-a", "ci", "-q")
        #expect(deleted.stdout.isEmpty && deleted.status == Exit.success)
        let failed = try store.run("delete", "-s", "api", "-a", "ci", "-q")
        #expect(failed.status == Exit.notFound && failed.stderr.hasPrefix("secstore: error: "), "errors are never quiet")
        let created = try CLI.run(["create", "-q", "--store", store.file("new.secstore").path, "--device-key", store.deviceKeyURL.path],
                                  home: store.directory)
        #expect(created.status == Exit.success && created.stdout.isEmpty, "\(created)")
    }

    @Test("delete --dry-run deletes nothing and needs --all for several items as the real run does")
    func deleteDryRun() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "ci", secret: "x")
        try store.add(service: "api", account: "cd", secret: "y")
        let one = try store.run("delete", "-s", "api", "-a", "ci", "--dry-run")
        #expect(one.status == Exit.success, "\(one)")
        #expect(one.stdout.contains("Would delete 1 item (dry run: nothing was deleted)."))
        #expect(try store.run("delete", "-s", "api", "--dry-run").status == Exit.usage)
        #expect(try store.run("delete", "-s", "gone", "--dry-run").status == Exit.notFound)
        #expect(try store.run("list", "--json").jsonArray().count == 2)
        let reference = try #require(try store.run("get", "-s", "api", "-a", "ci", "--json").jsonObject()["ref"] as? String)
        let damaged = try store.run("delete", "--ref", reference, "--damaged", "--dry-run", "--json")
        #expect((try damaged.jsonObject()["wouldDelete"] as? [[String: Any]])?.first?["ref"] as? String == reference)
        #expect(try store.run("list", "--json").jsonArray().count == 2)
    }

    @Test("delete --all and identity reset ask at a terminal; --yes does not; a refusal changes nothing")
    func confirmations() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "ci", secret: "x")
        try store.add(service: "api", account: "cd", secret: "y")
        let declined = try PseudoTerminalSession(arguments: ["delete", "-s", "api", "--all"] + store.storeArguments, home: store.directory)
        #expect(declined.waitFor("Delete 2 items? [y/N]"))
        declined.type("n\n")
        #expect(declined.finish() == Exit.failure)
        #expect(try store.run("list", "--json").jsonArray().count == 2)
        let yes = try PseudoTerminalSession(arguments: ["delete", "-s", "api", "--all", "-y"] + store.storeArguments, home: store.directory)
        #expect(yes.finish() == Exit.success)
        #expect(yes.contains("Deleted 2 items."), "\(yes.text)")

        let before = try store.run("identity", "show").stdout
        let reset = try PseudoTerminalSession(arguments: ["identity", "reset"] + store.storeArguments, home: store.directory)
        #expect(reset.waitFor("Replace the device identifier of group local.secstore"))
        reset.type("no\n")
        #expect(reset.finish() == Exit.failure)
        #expect(try store.run("identity", "show").stdout == before)
        let forced = try PseudoTerminalSession(arguments: ["identity", "reset", "--yes"] + store.storeArguments, home: store.directory)
        #expect(forced.finish() == Exit.success)
        #expect(try store.run("identity", "show").stdout != before)
    }

    @Test("identity reset --dry-run and passphrase remove --dry-run change nothing")
    func otherDryRuns() throws {
        let store = try CLIStore.created(passphrase: true)
        let passphraseFile = try store.passphraseFile()
        let fresh = try store.run("identity", "reset", "--dry-run", "--json")
        #expect(fresh.status == Exit.success, "\(fresh)")
        #expect(try fresh.jsonObject()["exists"] as? Bool == false)
        let shown = try store.run("identity", "show", "--passphrase-file", passphraseFile).stdout
        let planned = try store.run("identity", "reset", "--dry-run", "--passphrase-file", passphraseFile)
        #expect(planned.stdout.contains("Would replace the device identifier of group local.secstore"), "\(planned)")
        #expect(try store.run("identity", "show", "--passphrase-file", passphraseFile).stdout == shown)

        let added = try store.run(["add", "-s", "pin", "-a", "a", "--accessibility", "whenPasscodeSetThisDeviceOnly", "--value-stdin",
                                   "--passphrase-file", passphraseFile], stdin: Data("x".utf8))
        try #require(added.status == Exit.success, "\(added)")
        let removal = try store.run("passphrase", "remove", "--dry-run", "--json")
        #expect(removal.status == Exit.success, "\(removal)")
        #expect(try removal.jsonObject()["wouldDeleteItems"] as? Int == 1)
        #expect(try store.run("info", "--json").jsonObject()["lockState"] as? String == "locked", "the passphrase stays")
        let removed = try store.run("passphrase", "remove", "--passphrase-file", passphraseFile, "--yes", "--json")
        #expect(try removed.jsonObject()["deletedItems"] as? Int == 1, "\(removed)")
    }

    @Test("passphrase remove asks at a terminal before deleting whenPasscodeSetThisDeviceOnly items")
    func passphraseRemoveAsks() throws {
        let store = try CLIStore.created(passphrase: true)
        let passphraseFile = try store.passphraseFile()
        let added = try store.run(["add", "-s", "pin", "-a", "a", "--accessibility", "akpu", "--value-stdin",
                                   "--passphrase-file", passphraseFile], stdin: Data("x".utf8))
        try #require(added.status == Exit.success, "\(added)")
        let session = try PseudoTerminalSession(arguments: ["passphrase", "remove", "--passphrase-file", passphraseFile] + store.storeArguments,
                                                home: store.directory)
        #expect(session.waitFor("deletes 1 whenPasscodeSetThisDeviceOnly item. Go on? [y/N]"))
        session.type("\n")
        #expect(session.finish() == Exit.failure)
        #expect(try store.run("info", "--json").jsonObject()["lockState"] as? String == "locked")
    }
}

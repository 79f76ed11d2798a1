import Foundation
import SecStore
import Testing

/// `export --format env|json|csv --plaintext` and `import --format env|json|csv`, beside the
/// encrypted backup: refused without the flag, round trips, and files others cannot read.
@Suite("secstore plaintext export and import")
struct PlaintextInterchangeTests {
    static let tricky = "it's \"quoted\", $HOME, back\\slash,\nsecond line\ttab"

    static func populated() throws -> CLIStore {
        let store = try CLIStore.created()
        try store.add(service: "myapp", account: "API_TOKEN", secret: "plain-token")
        try store.add(service: "myapp", account: "DB_PASSWORD", secret: tricky, "--label", "Primary, DB", "--comment", "rotated")
        let inet = try store.run(["add", "--server", "example.com", "--protocol", "https", "--port", "8443", "--path", "/login",
                                  "-a", "bob", "--value-stdin"], stdin: Data("web-pw".utf8))
        try #require(inet.status == Exit.success, "\(inet)")
        let local = try store.run(["add", "-s", "device", "-a", "only", "--accessibility", "whenUnlockedThisDeviceOnly", "--value-stdin"],
                                  stdin: Data("stays".utf8))
        try #require(local.status == Exit.success, "\(local)")
        return store
    }

    @Test("Plaintext formats are refused without --plaintext, and --plaintext without one", arguments: ["env", "json", "csv"])
    func refusedWithoutFlag(_ format: String) throws {
        let store = try Self.populated()
        let refused = try store.run("export", "--format", format, "-s", "myapp", store.file("out").path)
        #expect(refused.status == Exit.usage, "\(refused)")
        #expect(refused.stderr.contains("--plaintext"))
        #expect(!FileManager.default.fileExists(atPath: store.file("out").path))
        #expect(try store.run("export", "--plaintext", store.file("out").path).status == Exit.usage)
        #expect(try store.run("export", "--format", format, "--plaintext", "--backup-passphrase-env", "X", "-").status == Exit.usage)
    }

    @Test("Every format round-trips the secrets, bytes unchanged, into another store", arguments: ["json", "csv"])
    func roundTrip(_ format: String) throws {
        let store = try Self.populated()
        let file = store.file("export.\(format)")
        let exported = try store.run("export", "--format", format, "--plaintext", file.path, "--json")
        #expect(exported.status == Exit.success, "\(exported)")
        let summary = try exported.jsonObject()
        #expect(summary["exported"] as? Int == 3 && summary["skippedThisDeviceOnly"] as? Int == 1, "\(summary)")
        var info = stat()
        #expect(stat(file.path, &info) == 0 && info.st_mode & 0o777 == 0o600, "the file is private")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(!text.contains("stays"), "…ThisDeviceOnly items never leave the machine")
        #expect(!exported.stdout.contains("plain-token") && !exported.stderr.contains("plain-token"))

        let target = try CLIStore.created()
        let imported = try target.run("import", "--format", format, file.path, "--json")
        #expect(imported.status == Exit.success, "\(imported)")
        #expect(try imported.jsonObject()["added"] as? Int == 3)
        #expect(try target.run("get", "-s", "myapp", "-a", "DB_PASSWORD").stdout == Self.tricky)
        #expect(try target.run("get", "--server", "example.com", "--port", "8443", "-a", "bob").stdout == "web-pw")
        let attributes = try #require(try target.run("get", "-s", "myapp", "-a", "DB_PASSWORD", "--json").jsonObject()["attributes"] as? [String: Any])
        #expect(attributes["label"] as? String == "Primary, DB" && attributes["comment"] as? String == "rotated")
        let web = try #require(try target.run("get", "--server", "example.com", "-a", "bob", "--json").jsonObject()["attributes"] as? [String: Any])
        #expect(web["protocol"] as? String == "htps" && web["path"] as? String == "/login" && web["port"] as? Int == 8443)

        // Again: every item is there, so all are skipped; replace counts them; fail imports nothing.
        #expect(try target.run("import", "--format", format, file.path, "--json").jsonObject()["skipped"] as? Int == 3)
        #expect(try target.run("import", "--format", format, file.path, "--on-conflict", "replace", "--json").jsonObject()["replaced"] as? Int == 3)
        #expect(try target.run("import", "--format", format, file.path, "--on-conflict", "fail").status == Exit.duplicate)
    }

    @Test("env: NAME=value lines of one service, shell-quoted; imported back as that service's accounts")
    func envRoundTrip() throws {
        let store = try Self.populated()
        let exported = try store.run("export", "--format", "env", "--plaintext", "-s", "myapp", "-")
        #expect(exported.status == Exit.success, "\(exported)")
        #expect(exported.stdout == "API_TOKEN=plain-token\nDB_PASSWORD=\"it's \\\"quoted\\\", \\$HOME, back\\\\slash,\\nsecond line\\ttab\"\n")
        #expect(exported.stderr.contains("Exported 2 items in plaintext (env) to standard output."))

        // A shell reads the simple values the same way.
        let file = store.file("app.env")
        try Data(exported.stdout.utf8).write(to: file)
        let shell = try CLI.run(["-c", ". '\(file.path)'; printf %s \"$API_TOKEN\""], home: store.directory, executable: URL(filePath: "/bin/sh"))
        #expect(shell.stdout == "plain-token")

        let target = try CLIStore.created()
        #expect(try target.run("import", "--format", "env", file.path).status == Exit.usage, "env needs --service")
        let imported = try target.run("import", "--format", "env", "-s", "myapp", file.path)
        #expect(imported.status == Exit.success, "\(imported)")
        #expect(try target.run("get", "-s", "myapp", "-a", "DB_PASSWORD").stdout == Self.tricky)

        // env refuses what it cannot write: internet passwords, accounts that are not names, clashes.
        #expect(try store.run("export", "--format", "env", "--plaintext", "--class", "inet", "-").status == Exit.usage)
        try store.add(service: "other", account: "API_TOKEN", secret: "clash")
        let clash = try store.run("export", "--format", "env", "--plaintext", "-")
        #expect(clash.status == Exit.usage && clash.stdout.isEmpty, "\(clash)")
        try store.add(service: "names", account: "not a name", secret: "x")
        #expect(try store.run("export", "--format", "env", "--plaintext", "-s", "names", "-").status == Exit.usage)
    }

    /// Secrets whose first character is a combining mark (or a variation selector, a zero-width
    /// joiner, …): Swift's `Character` glues it to the quote, comma or backslash written before
    /// it, so a reader that compares characters no longer sees that quote or comma.
    static let combining = ["\u{301}abc", "\u{301}\"x", "a,\u{301}b", "\u{200D}'\u{FE0F}", "\"\u{301}", "x\\\u{301}y", "'\"\u{301}"]

    @Test("Secrets that begin with a combining mark, or put one after a quote, comma or backslash, round-trip byte for byte",
          arguments: ["env", "json", "csv"])
    func combiningMarksRoundTrip(_ format: String) throws {
        let store = try CLIStore.created()
        for (index, secret) in Self.combining.enumerated() {
            try store.add(service: "marks", account: "S\(index)", secret: secret)
        }
        let file = store.file("marks.\(format)")
        let exported = try store.run("export", "--format", format, "--plaintext", "-s", "marks", file.path)
        #expect(exported.status == Exit.success, "\(exported)")
        let target = try CLIStore.created()
        let imported = try target.run(["import", "--format", format, file.path] + (format == "env" ? ["-s", "marks"] : []), stdin: Data())
        #expect(imported.status == Exit.success, "\(imported)")
        for (index, secret) in Self.combining.enumerated() {
            let read = try target.run("get", "-s", "marks", "-a", "S\(index)")
            #expect(Array(read.stdoutData) == Array(secret.utf8), "\(format) S\(index): \(read)")
        }
    }

    @Test("JSON keeps free-form attributes: an export imports with its customAttributes, and a wrong one is an error")
    func jsonKeepsCustomAttributes() throws {
        let store = try CLIStore.created()
        try store.add(service: "ss", account: "a", secret: "pw", "--attribute", "xdg:schema=org.example.Password", "--attribute", "user=ünï")
        let file = store.file("custom.json")
        #expect(try store.run("export", "--format", "json", "--plaintext", file.path).status == Exit.success)
        let target = try CLIStore.created()
        let imported = try target.run("import", "--format", "json", file.path)
        #expect(imported.status == Exit.success, "\(imported)")
        let item = try target.run("get", "-s", "ss", "-a", "a", "--json").jsonObject()
        #expect(item["customAttributes"] as? [String: String] == ["xdg:schema": "org.example.Password", "user": "ünï"], "\(item)")

        // Flat objects may carry them too; a value that is not text is refused, not dropped.
        let flat = store.file("flat.json")
        try Data(#"[{"service": "flat", "account": "b", "secret": "x", "customAttributes": {"k": "v"}}]"#.utf8).write(to: flat)
        #expect(try target.run("import", "--format", "json", flat.path).status == Exit.success)
        #expect(try target.run("get", "-s", "flat", "-a", "b", "--json").jsonObject()["customAttributes"] as? [String: String] == ["k": "v"])
        let bad = store.file("bad.json")
        try Data(#"[{"service": "bad", "account": "c", "secret": "x", "customAttributes": {"k": 1}}]"#.utf8).write(to: bad)
        let refused = try target.run("import", "--format", "json", bad.path)
        #expect(refused.status == Exit.usage && refused.stderr.contains("item 1: \"customAttributes\""), "\(refused)")
    }

    @Test("Hand-written .env, JSON and CSV files import; their errors name the line or item")
    func handWritten() throws {
        let store = try CLIStore.created()
        let env = store.file(".env")
        try Data("""
        # the app's settings
        export API_TOKEN=abc123   # a comment
        SINGLE='a b "c" $d'
        DOUBLE="line1\\nline2 \\"q\\""
        MULTI="first
        second"
        EMPTY=

        """.utf8).write(to: env)
        let imported = try store.run("import", "--format", "env", "-s", "app", env.path, "-g", "team")
        #expect(imported.status == Exit.success, "\(imported)")
        let expected = ["API_TOKEN": "abc123", "SINGLE": "a b \"c\" $d", "DOUBLE": "line1\nline2 \"q\"", "MULTI": "first\nsecond", "EMPTY": ""]
        for (name, value) in expected {
            #expect(try store.run("get", "-s", "app", "-a", name, "-g", "team").stdout == value, "\(name)")
        }

        let json = store.file("items.json")
        try Data(#"[{"service": "flat", "account": "a", "secret": "one"}, {"class": "genp", "attributes": {"service": "nested", "account": "b", "accessibility": "afterFirstUnlock"}, "secretBase64": "AP8="}]"#.utf8).write(to: json)
        let fromJSON = try store.run("import", "--format", "json", json.path)
        #expect(fromJSON.status == Exit.success, "\(fromJSON)")
        #expect(try store.run("get", "-s", "flat", "-a", "a").stdout == "one")
        #expect(try store.run("get", "-s", "nested", "-a", "b").stdoutData == Data([0x00, 0xFF]))

        let csv = store.file("items.csv")
        try Data("service,account,secret\r\nsheet,\"x, y\",\"multi\r\nline\"\r\n".utf8).write(to: csv)
        let fromCSV = try store.run("import", "--format", "csv", csv.path)
        #expect(fromCSV.status == Exit.success, "\(fromCSV)")
        #expect(try store.run("get", "-s", "sheet", "-a", "x, y").stdout == "multi\r\nline")

        let bad: [(String, String, String)] = [
            ("env", "GOOD=1\nnot an assignment\n", ":2: "),
            ("env", "GOOD=1\n\nBAD='unclosed\n", ":3: the single quote is not closed"),
            ("env", "A=1\nA=2\n", ":2: this name is already set at "),
            ("json", #"{"not": "an array"}"#, "expected a JSON array"),
            ("json", #"[{"service": "s", "account": "a"}]"#, "item 1 has no \"secret\""),
            ("json", #"[{"service": "s", "account": "a", "secret": "x", "colour": "red"}]"#, "item 1: unknown attribute \"colour\""),
            ("csv", "service,account,colour,secret\n", ":1: field 3 of the header is not a column name"),
            ("csv", "service,account,secret\ns,a\n", ":2: 2 fields where the header has 3"),
            ("csv", "service,account\ns,a\n", "no secret column"),
            ("csv", "service,account,secret\ns,a,\"open\n", ":2: a quoted field is not closed"),
            ("csv", "class,service,account,secret\nfoo,s,a,x\n", ":2: field 1 (class) is not a class"),
        ]
        for (format, text, expected) in bad {
            let file = store.file("bad-\(UUID().uuidString).\(format)")
            try Data(text.utf8).write(to: file)
            let result = try store.run(["import", "--format", format, file.path] + (format == "env" ? ["-s", "bad"] : []), stdin: Data())
            #expect(result.status == Exit.usage, "\(format) \(text): \(result)")
            #expect(result.stderr.contains(expected), "\(format) \(text): \(result.stderr)")
        }
        // Nothing of a failed import is stored: the valid first line of a bad file neither.
        #expect(try store.run("list", "-s", "bad", "--json").jsonArray().isEmpty)
        #expect(try store.run("get", "-s", "bad", "-a", "GOOD").status == Exit.notFound)
    }

    @Test("Import errors name the line and column or field, never the file's text: a malformed line may be a secret")
    func errorsQuoteNoSecret() throws {
        let store = try CLIStore.created()
        // Each case: a file that writes a secret where a name or an attribute was expected, and
        // where the message points instead.
        let cases: [(format: String, text: String, location: String)] = [
            // A `KEY: value` line (YAML, compose): the text before the `=` of the padding is no name.
            ("env", "DB_HOST=db\nAPI_KEY: sk_live_TOPSECRET42==\n", ":2:8: "),
            // An unquoted multi-line value: its continuation line (a PEM body) is no name.
            ("env", "KEY=-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqTOPSECRET43+x==\n-----END PRIVATE KEY-----\n", ":2:28: "),
            // The same after `export ` and indentation: the column counts them.
            ("env", "  export TOPSECRET44/x=1\n", ":1:21: "),
            // A CSV without its header row: the first cell is no column name.
            ("csv", "TOPSECRET45,svc,acct\n", ":1: field 1 of the header"),
            // An unquoted comma in a secret: the rest spills into the next fields.
            ("csv", "service,account,secret,accessibility\ns,a,pa,TOPSECRET46\n", ":2: field 4 (accessibility)"),
            ("csv", "server,account,secret,protocol\nh,a,pa,TOPSECRET47\n", ":2: field 4 (protocol)"),
            ("csv", "service,account,secret,class\ns,a,pa,TOPSECRET48\n", ":2: field 4 (class)"),
            ("json", #"[{"service": "s", "account": "a", "secret": "x", "accessibility": "TOPSECRET49"}]"#, " item 1: \"accessibility\" is not an accessibility"),
            ("json", #"[{"class": "TOPSECRET50", "service": "s", "account": "a", "secret": "x"}]"#, " item 1: \"class\" is not a class"),
        ]
        for (format, text, location) in cases {
            let file = store.file("leak-\(UUID().uuidString).\(format)")
            try Data(text.utf8).write(to: file)
            let result = try store.run(["import", "--format", format, file.path, "--json"] + (format == "env" ? ["-s", "app"] : []), stdin: Data())
            #expect(result.status == Exit.usage, "\(format) \(text): \(result)")
            #expect(result.stderr.contains(file.path + location), "\(format) \(text): \(result.stderr)")
            #expect(!result.stderr.contains("TOPSECRET") && !result.stdout.contains("TOPSECRET"), "\(format) \(text): \(result)")
            let message = try result.jsonObject()["error"] as? [String: Any]
            #expect(message?["code"] as? String == "usage", "the JSON error object: \(result.stdout)")
        }
    }

    @Test("import --dry-run reports the counts and changes nothing; - reads standard input")
    func dryRunAndStandardInput() throws {
        let store = try CLIStore.created()
        try store.add(service: "app", account: "A", secret: "old")
        let planned = try store.run("import", "--format", "env", "-s", "app", "-", "--dry-run", "--on-conflict", "replace", "--json",
                                    stdin: "A=new\nB=added\n")
        #expect(planned.status == Exit.success, "\(planned)")
        let summary = try planned.jsonObject()
        #expect(summary["added"] as? Int == 1 && summary["replaced"] as? Int == 1 && summary["dryRun"] as? Bool == true)
        #expect(try store.run("get", "-s", "app", "-a", "A").stdout == "old")
        #expect(try store.run("get", "-s", "app", "-a", "B").status == Exit.notFound)
        let real = try store.run("import", "--format", "env", "-s", "app", "-", "--on-conflict", "replace", stdin: "A=new\nB=added\n")
        #expect(real.stdout == "Imported standard input: 1 added, 0 skipped, 1 replaced.\n", "\(real)")
        #expect(try store.run("get", "-s", "app", "-a", "A").stdout == "new")
        #expect(try store.run("import", "backup.ssb", "--dry-run").status == Exit.usage, "a backup import has no dry run")
    }

    @Test("JSON keeps each attribute's type: bytes that are UTF-8 come back as bytes, text as text; CSV refuses bytes it cannot carry")
    func jsonKeepsAttributeTypes() throws {
        let store = try CLIStore.created()
        var item = Item.genericPassword(service: "api", account: "alice", data: Data("pw".utf8), accessGroup: "local.secstore")
        item.attributes.generic = Data(#"{"v":1}"#.utf8)       // kSecAttrGeneric is data, here UTF-8
        item.attributes[.label] = .data(Data("label-bytes".utf8))
        try store.open().add(item)
        let listed = try store.run("list", "--json")
        let attributes = try #require(try listed.jsonArray().first?["attributes"] as? [String: Any])
        #expect((attributes["generic"] as? [String: String])?["base64"] == Data(#"{"v":1}"#.utf8).base64EncodedString(), "\(attributes)")
        #expect(attributes["service"] as? String == "api")

        let file = store.file("typed.json")
        #expect(try store.run("export", "--format", "json", "--plaintext", file.path).status == Exit.success)
        let target = try CLIStore.created()
        #expect(try target.run("import", "--format", "json", file.path).status == Exit.success)
        let restored = try #require(try target.open().items(matching: Query(service: "api", account: "alice", returning: .attributes)).first)
        #expect(restored.attributes[.generic] == .data(Data(#"{"v":1}"#.utf8)), "\(restored.attributes)")
        #expect(restored.attributes[.label] == .data(Data("label-bytes".utf8)))
        #expect(restored.attributes[.service] == .string("api"))

        // CSV holds text: UTF-8 bytes are written as their text; other bytes are refused, not left empty.
        let csv = try store.run("export", "--format", "csv", "--plaintext", "-")
        #expect(csv.status == Exit.success && csv.stdout.contains("label-bytes"), "\(csv)")
        var binary = Item.genericPassword(service: "bin", account: "b", data: Data("x".utf8), accessGroup: "local.secstore")
        binary.attributes[.label] = .data(Data([0xFF, 0x00]))
        try store.open().add(binary)
        let refused = try store.run("export", "--format", "csv", "--plaintext", "-s", "bin", "-")
        #expect(refused.status == Exit.usage && refused.stderr.contains("--format json") && refused.stdout.isEmpty, "\(refused)")
    }

    @Test("A plaintext export to a file refuses to overwrite without --force, and a binary secret needs JSON")
    func overwriteAndBinary() throws {
        let store = try CLIStore.created()
        try store.add(service: "s", account: "a", secret: "x")
        let file = store.file("out.csv")
        try Data("keep".utf8).write(to: file)
        #expect(try store.run("export", "--format", "csv", "--plaintext", file.path).status == Exit.duplicate)
        #expect(try String(contentsOf: file, encoding: .utf8) == "keep")
        #expect(try store.run("export", "--format", "csv", "--plaintext", "--force", file.path).status == Exit.success)
        #expect(try String(contentsOf: file, encoding: .utf8).contains("s,a,local.secstore"))

        let binary = try store.run(["add", "-s", "bin", "-a", "b", "--value-stdin"], stdin: Data([0xFF, 0xFE]))
        try #require(binary.status == Exit.success)
        let refused = try store.run("export", "--format", "csv", "--plaintext", "-s", "bin", "-")
        #expect(refused.status == Exit.usage && refused.stderr.contains("--format json"), "\(refused)")
        let json = try store.run("export", "--format", "json", "--plaintext", "-s", "bin", "-")
        #expect(try json.jsonArray().first?["secretBase64"] as? String == Data([0xFF, 0xFE]).base64EncodedString())
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.directory.path).filter { $0.contains(".secstore-") }
        #expect(leftovers.isEmpty, "no temporary left behind: \(leftovers)")
    }

    @Test("A plaintext export larger than import reads is written, with a warning and exceedsImportLimit, never silently")
    func exportLargerThanImportReads() throws {
        let store = try CLIStore.created()
        // Three secrets of 64 MiB (the largest SecStore keeps) of random bytes: as base64 in
        // JSON, just over the 256 MiB import reads.
        let secret = store.file("secret.bin")
        let random = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
        try random.read(upToCount: 64 << 20)?.write(to: secret)
        for account in ["a", "b", "c"] {
            let added = try store.run("add", "-s", "big", "-a", account, "--value-file", secret.path)
            try #require(added.status == Exit.success, "\(added)")
        }
        try FileManager.default.removeItem(at: secret)
        let file = store.file("big.json")
        let exported = try store.run("export", "--format", "json", "--plaintext", "--json", file.path)
        #expect(exported.status == Exit.success, "\(exported.stderr)")
        #expect(try exported.jsonObject()["exceedsImportLimit"] as? Bool == true)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
        #expect(size > 256 << 20, "the whole export is written: \(size) bytes")
        #expect(exported.stderr.contains("secstore: warning: The export is \(size) bytes, more than the 256 MiB `secstore import` reads"), "\(exported.stderr)")
        let imported = try store.run("import", "--format", "json", file.path)
        #expect(imported.status != Exit.success && imported.stderr.contains("larger than 256 MiB"), "\(imported)")
        try FileManager.default.removeItem(at: file)

        let small = try store.run("export", "--format", "json", "--plaintext", "--json", "-s", "none", store.file("small.json").path)
        #expect(try small.jsonObject()["exceedsImportLimit"] as? Bool == false, "\(small)")
        #expect(!small.stderr.contains("warning"), "\(small.stderr)")
    }

    @Test("At a terminal, a plaintext export warns")
    func warnsAtTerminal() throws {
        let store = try CLIStore.created()
        try store.add(service: "s", account: "a", secret: "x")
        let session = try PseudoTerminalSession(arguments: ["export", "--format", "json", "--plaintext", store.file("p.json").path]
                                                + store.storeArguments, home: store.directory)
        #expect(session.finish() == Exit.success)
        #expect(session.contains("secstore: warning: 1 secret written in plaintext to"), "\(session.text)")
    }

    @Test("Plaintext import --on-conflict replace keeps a stored …ThisDeviceOnly item, and refuses the reserved group secstore.sync")
    func importRules() throws {
        let store = try CLIStore.created()
        try store.add(service: "myapp", account: "API_TOKEN", secret: "only-here", "--accessibility", "afterFirstUnlockThisDeviceOnly")
        let file = store.file("items.json")
        try Data(#"[{"service": "myapp", "account": "API_TOKEN", "secret": "from-file"}]"#.utf8).write(to: file)
        let replaced = try store.run("import", "--format", "json", file.path, "--on-conflict", "replace", "--json")
        #expect(replaced.status == Exit.success, "\(replaced)")
        let summary = try replaced.jsonObject()
        #expect(summary["replaced"] as? Int == 0 && summary["skipped"] as? Int == 1 && summary["keptThisDeviceOnly"] as? Int == 1, "\(summary)")
        #expect(try store.run("get", "-s", "myapp", "-a", "API_TOKEN").stdout == "only-here")

        // An item of sync's group, named by the file or by --group: nothing is imported, under any policy.
        let planted = store.file("planted.json")
        try Data(#"[{"service": "a", "account": "b", "secret": "c"}, {"service": "secstore.sync", "account": "settings", "accessGroup": "secstore.sync", "secret": "{}"}]"#.utf8)
            .write(to: planted)
        for policy in ["skip", "replace"] {
            let refused = try store.run("import", "--format", "json", planted.path, "--on-conflict", policy)
            #expect(refused.status == Exit.usage, "\(refused)")
            #expect(refused.stderr.contains("planted.json item 2") && refused.stderr.contains("secstore.sync"), "\(refused.stderr)")
        }
        let env = store.file("sync.env")
        try Data("settings={}\n".utf8).write(to: env)
        let viaGroup = try store.run("import", "--format", "env", "-s", "secstore.sync", "-g", "secstore.sync", env.path)
        #expect(viaGroup.status == Exit.usage, "\(viaGroup)")
        // Refused before the file is read: the group comes from the option (DefaultGroup).
        #expect(viaGroup.stderr.contains("--group names the access group secstore.sync"), "\(viaGroup.stderr)")
        #expect(try store.run("list", "--json").jsonArray().count == 1, "only the item that was there")
    }

    @Test("An item's access control (set through the API) round-trips through list --json and import --format json, checked by the store's rules")
    func accessControlRoundTrip() throws {
        let source = try CLIStore.created(passphrase: true)
        let owner = try source.open()
        try owner.unlock(passphrase: CLIStore.passphrase)
        var item = Item.genericPassword(service: "api", account: "alice", data: Data("guarded".utf8), accessGroup: "local.secstore")
        item.attributes.accessControlFlags = [.userPresence]
        try owner.add(item)
        let listed = try source.run("list", "--show-secrets", "--json", "--passphrase-file", try source.passphraseFile())
        #expect(listed.status == Exit.success, "\(listed)")
        let attributes = try #require(try listed.jsonArray().first?["attributes"] as? [String: Any])
        #expect(attributes["accessControl"] as? [String] == ["userPresence"] && attributes["accc"] == nil, "\(attributes)")
        let file = source.file("items.json")
        try listed.stdoutData.write(to: file)
        // CSV and env have no column for it: the export says so (it dropped it without a word).
        let csv = try source.run("export", "--format", "csv", "--plaintext", source.file("items.csv").path,
                                 "--passphrase-file", try source.passphraseFile())
        #expect(csv.status == Exit.success && csv.stderr.contains("1 item has access control, which the csv format cannot hold"), "\(csv)")

        let target = try CLIStore.created(passphrase: true)
        let imported = try target.run("import", "--format", "json", file.path, "--json", "--passphrase-file", try target.passphraseFile())
        #expect(imported.status == Exit.success, "\(imported)")
        #expect(try imported.jsonObject()["added"] as? Int == 1)
        let restored = try target.open()
        try restored.unlock(passphrase: CLIStore.passphrase)
        let found = try restored.items(matching: Query(service: "api", account: "alice", returning: [.attributes, .data]))
        #expect(found.first?.attributes.accessControlFlags == [.userPresence] && found.first?.data == Data("guarded".utf8))

        // The store's rules decide: constraints need a store passphrase; a key's flag is refused.
        let noPassphrase = try CLIStore.created()
        let refused = try noPassphrase.run("import", "--format", "json", file.path)
        #expect(refused.status == Exit.authenticationFailed && refused.stderr.contains("need a passphrase on the store"), "\(refused)")
        let keyFlag = target.file("key.json")
        try Data(#"[{"service": "k", "account": "k", "accessControl": ["privateKeyUsage"], "secret": "x"}]"#.utf8).write(to: keyFlag)
        let keyRefused = try target.run("import", "--format", "json", keyFlag.path, "--passphrase-file", try target.passphraseFile())
        #expect(keyRefused.status == Exit.usage && keyRefused.stderr.contains("Secure Enclave"), "\(keyRefused)")
        let unknown = target.file("unknown.json")
        try Data(#"[{"service": "k", "account": "k", "accessControl": ["faceOrFinger"], "secret": "x"}]"#.utf8).write(to: unknown)
        let unknownRefused = try target.run("import", "--format", "json", unknown.path)
        #expect(unknownRefused.status == Exit.usage && unknownRefused.stderr.contains("access-control flag"), "\(unknownRefused)")
        // A JSON boolean is an NSNumber to Foundation, but never flags (`true` read as userPresence).
        let boolean = target.file("boolean.json")
        try Data(#"[{"service": "k", "account": "k", "accessControl": true, "secret": "x"}]"#.utf8).write(to: boolean)
        let booleanRefused = try target.run("import", "--format", "json", boolean.path, "--passphrase-file", try target.passphraseFile())
        #expect(booleanRefused.status == Exit.usage && booleanRefused.stderr.contains("not an array of access-control flag names"), "\(booleanRefused)")
    }
}

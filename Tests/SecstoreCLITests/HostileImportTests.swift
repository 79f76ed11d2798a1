import Foundation
import Testing

/// `import --format json|csv` of files written by someone else: what a file names is shown
/// safely, what it holds is either imported as written or refused, never silently dropped.
@Suite("secstore import of hostile plaintext files")
struct HostileImportTests {
    /// Terminal controls a file can carry in a name: ESC (a CSI sequence), the C1 CSI
    /// (U+009B, which some terminals obey in UTF-8) and a right-to-left override (U+202E).
    static let controls = ["\u{1b}", "\u{9b}", "\u{202e}"]

    static func raw(_ text: String) -> [String] {
        controls.filter { text.contains($0) }.map { String($0.unicodeScalars.first!.value, radix: 16) }
    }

    @Test("Names from the file (an access group, an unknown key) reach the terminal with their controls escaped")
    func namesAreEscaped() throws {
        let store = try CLIStore.created()
        let group = "grp\u{1b}]0;owned\u{7}\u{9b}2J\u{202e}"
        let file = store.file("items.json")
        let item = ["service": "s", "account": "a", "accessGroup": group, "secret": "x"]
        try JSONSerialization.data(withJSONObject: [item]).write(to: file)
        let imported = try store.run("import", "--format", "json", file.path)
        #expect(imported.status == Exit.success, "\(imported)")
        let conflict = try store.run("import", "--format", "json", file.path, "--on-conflict", "fail")
        #expect(conflict.status == Exit.duplicate, "\(conflict)")
        #expect(conflict.stderr.contains("grp\\u{1b}]0;owned"), "\(conflict.stderr)")
        #expect(Self.raw(conflict.stderr).isEmpty, "raw controls \(Self.raw(conflict.stderr)) in \(conflict.stderr)")

        let added = try store.run(["add", "-s", "t", "-a", "b", "-g", group, "--value-stdin"], stdin: Data("x".utf8))
        #expect(added.status == Exit.success, "\(added)")
        #expect(Self.raw(added.stdout).isEmpty, "raw controls \(Self.raw(added.stdout)) in \(added.stdout)")

        let key = store.file("key.json")
        try JSONSerialization.data(withJSONObject: [["service": "s", "account": "a", "x\u{9b}2J\u{202e}": "v", "secret": "x"]]).write(to: key)
        let unknown = try store.run("import", "--format", "json", key.path)
        #expect(unknown.status == Exit.usage && unknown.stderr.contains("unknown attribute"), "\(unknown)")
        #expect(Self.raw(unknown.stderr).isEmpty, "raw controls \(Self.raw(unknown.stderr)) in \(unknown.stderr)")
    }

    @Test("A JSON item in the list --json shape with keys beside \"attributes\" is refused, not imported without them")
    func keysBesideAttributes() throws {
        let store = try CLIStore.created()
        let file = store.file("items.json")
        try Data(#"[{"class": "genp", "attributes": {"service": "s", "account": "a"}, "label": "Production", "secret": "x"}]"#.utf8)
            .write(to: file)
        let result = try store.run("import", "--format", "json", file.path)
        #expect(result.status == Exit.usage, "\(result)")
        #expect(result.stderr.contains("items.json item 1") && result.stderr.contains("\"label\""), "\(result.stderr)")
        #expect(try store.run("list", "--json").jsonArray().isEmpty, "nothing imported")
        // The shape list --show-secrets --json prints still imports.
        try Data(#"[{"class": "genp", "ref": "00", "attributes": {"service": "s", "account": "a", "label": "L"}, "customAttributes": {"k": "v"}, "secret": "x", "secretBase64": "eA=="}]"#.utf8)
            .write(to: file)
        let listed = try store.run("import", "--format", "json", file.path)
        #expect(listed.status == Exit.success, "\(listed)")
    }

    @Test("A port the tool cannot name (outside 0…65535) is refused in JSON and CSV, as --port refuses it",
          arguments: [("json", #"[{"server": "h", "account": "a", "port": -1, "secret": "x"}]"#, "item 1: \"port\""),
                      ("json", #"[{"server": "h", "account": "a", "port": 99999999, "secret": "x"}]"#, "item 1: \"port\""),
                      ("csv", "server,port,account,secret\nh,70000,a,x\n", ":2: field 2 (port)")])
    func portOutOfRange(_ format: String, _ text: String, _ place: String) throws {
        let store = try CLIStore.created()
        let file = store.file("items.\(format)")
        try Data(text.utf8).write(to: file)
        let result = try store.run("import", "--format", format, file.path)
        #expect(result.status == Exit.usage, "\(result)")
        #expect(result.stderr.contains(place) && result.stderr.contains("0 and 65535"), "\(result.stderr)")
        #expect(try store.run("list", "--json").jsonArray().isEmpty, "nothing imported")
    }

    @Test("A JSON item both synchronizable and …ThisDeviceOnly is refused, as add --synchronizable refuses it (csv has no such column)")
    func synchronizableThisDeviceOnly() throws {
        let store = try CLIStore.created()
        let added = try store.run(["add", "-s", "s", "-a", "b", "--synchronizable", "--accessibility", "whenUnlockedThisDeviceOnly",
                                   "--value-stdin"], stdin: Data("x".utf8))
        #expect(added.status == Exit.usage && added.stderr.contains("ThisDeviceOnly"), "the rule import follows: \(added)")
        let file = store.file("items.json")
        try Data(#"[{"service": "s", "account": "a", "synchronizable": true, "accessibility": "whenUnlockedThisDeviceOnly", "secret": "x"}]"#.utf8)
            .write(to: file)
        let result = try store.run("import", "--format", "json", file.path)
        #expect(result.status == Exit.usage, "\(result)")
        #expect(result.stderr.contains("items.json item 1") && result.stderr.contains("ThisDeviceOnly"), "\(result.stderr)")
        #expect(try store.run("list", "--json").jsonArray().isEmpty, "nothing imported")
    }

    @Test("A JSON value of a type its member cannot have is refused, not read as another value or passed over",
          arguments: [(#""server": "h", "account": "a", "port": true, "secret": "x""#, "\"port\" has a value of the wrong type"),
                      (#""service": "s", "account": "a", "label": false, "secret": "x""#, "\"label\" has a value of the wrong type"),
                      (#""service": "s", "account": "a", "secretBase64": 5, "secret": "x""#, "\"secretBase64\" is not text"),
                      (#""service": "s", "account": "a", "secret": 5, "secretBase64": "eA==""#, "\"secret\" is not text")])
    func wrongTypes(_ members: String, _ message: String) throws {
        let store = try CLIStore.created()
        let file = store.file("items.json")
        try Data("[{\(members)}]".utf8).write(to: file)
        let result = try store.run("import", "--format", "json", file.path)
        #expect(result.status == Exit.usage && result.stderr.contains("item 1: \(message)"), "\(result)")
        #expect(try store.run("list", "--json").jsonArray().isEmpty, "nothing imported")
        // Booleans where list --json writes them still import.
        try Data(#"[{"service": "s", "account": "a", "isInvisible": true, "synchronizable": false, "secret": "x", "secretBase64": null}]"#.utf8)
            .write(to: file)
        let booleans = try store.run("import", "--format", "json", file.path)
        #expect(booleans.status == Exit.success, "\(booleans)")
    }

    @Test("A JSON object that names a key twice, or in two spellings of the same text, is refused: readers keep different ones",
          arguments: [(#"{"service": "a", "account": "x", "secret": "s", "service": "b"}"#, "service"),
                      (#"{"service": "a", "account": "x", "secret": "s", "serv\u0069ce": "b"}"#, "service"),
                      (#"{"attributes": {"service": "a", "account": "x", "accessGroup": "g1", "accessGroup": "g2"}, "secret": "s"}"#,
                       "accessGroup"),
                      // Different bytes, the same text to Swift: bridged to one key, one value lost.
                      (#"{"service": "a", "account": "x", "secret": "s", "customAttributes": {"caf\u00e9": "1", "cafe\u0301": "2"}}"#,
                       "café")])
    func duplicateKeys(_ object: String, _ key: String) throws {
        let store = try CLIStore.created()
        let file = store.file("items.json")
        // The duplicate is in the second item; the first holds look-alikes inside a string.
        try Data(#"[{"service": "ok", "account": "y", "secret": "a\"b, {\"service\": 1, \"service\": 2}"}, \#(object)]"#.utf8).write(to: file)
        let result = try store.run("import", "--format", "json", file.path)
        #expect(result.status == Exit.usage && result.stderr.contains("item 2: the key \"\(key)\" is given twice"), "\(result)")
        #expect(try store.run("list", "--json").jsonArray().isEmpty, "nothing imported")

        // The same keys in different objects, and key-like text in secrets, import.
        try Data(#"[{"service": "ok", "account": "y", "secret": "a\"b, {\"service\": 1, \"service\": 2}"}, {"service": "ok", "account": "z", "secret": "s", "customAttributes": {"service": "1"}}]"#.utf8).write(to: file)
        let imported = try store.run("import", "--format", "json", file.path)
        #expect(imported.status == Exit.success, "\(imported)")
        #expect(try store.run("get", "-s", "ok", "-a", "y").stdout == #"a"b, {"service": 1, "service": 2}"#)
    }

    @Test("A directory given as the file to import is a usage error in every format, as for the encrypted backup",
          arguments: ["json", "csv", "env", "backup"])
    func directoryAsImportFile(_ format: String) throws {
        let store = try CLIStore.created()
        let directory = store.file("a-directory")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        let extra = format == "env" ? ["-s", "svc"] : format == "backup" ? ["--backup-passphrase-env", "NONE"] : []
        let result = try store.run(["import", "--format", format, directory.path] + extra, stdin: Data(), environment: ["NONE": "x"])
        #expect(result.status == Exit.usage && result.stderr.contains("is a directory"), "\(result)")
    }
}

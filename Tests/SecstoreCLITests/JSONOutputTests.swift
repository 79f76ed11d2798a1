import Foundation
import Testing

/// The tool writes its JSON itself (`JSONText`), where it once used `JSONEncoder` with
/// `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`: scripts may compare the bytes,
/// so every document must be exactly what that encoder writes for the same values. Each
/// test parses the tool's output, encodes the parsed values again with that encoder and
/// compares the bytes.
@Suite("secstore JSON output")
struct JSONOutputTests {
    /// Every character class an escape rule treats differently: the quote, the backslash,
    /// the slash (not escaped), the named control characters, other control characters (as
    /// `\u00xx`), DEL, U+2028, non-ASCII letters and an emoji (all written as they are).
    static let awkward = "q\"b\\s/n\nt\tr\rb\u{8}f\u{c} \u{1}\u{1f}\u{7f}\u{2028}é😀"

    private func populated() throws -> CLIStore {
        let store = try CLIStore.created()
        try store.add(service: "api" + Self.awkward, account: "alice", secret: "text secret\n",
                      "--label", Self.awkward, "--comment", "a/b")
        try store.add(service: "api", account: Self.awkward, secret: Self.awkward, "--group", "team.shared")
        // A secret that is not UTF-8: "secret" is null, "secretBase64" carries it.
        let binary = try store.run(["add", "--service", "bin", "--account", "x", "--value-stdin"],
                                   stdin: Data([0xFF, 0x00, 0xC3]))
        try #require(binary.status == Exit.success, "\(binary)")
        let inet = try store.run("add", "--server", "example.com", "--account", "carol", "--port", "8443",
                                 "--protocol", "https", "--path", "/login", "--value-stdin", stdin: "secret-web")
        try #require(inet.status == Exit.success, "\(inet)")
        return store
    }

    @Test("list --json, with and without secrets, is byte for byte JSONEncoder's output")
    func list() throws {
        let store = try populated()
        for arguments in [["list", "--json"], ["list", "--json", "--show-secrets"], ["list", "--format", "json"]] {
            let result = try store.run(arguments, stdin: Data())
            #expect(result.status == Exit.success, "\(result)")
            try expectEncoderBytes(result.stdoutData)
            #expect(try result.jsonArray().count == 4)
        }
    }

    @Test("an empty listing, get --json, info --json and an error as JSON match the encoder too")
    func otherDocuments() throws {
        let store = try populated()
        let empty = try store.run("list", "--service", "nothing", "--json")
        #expect(empty.stdout == "[\n\n]\n")
        try expectEncoderBytes(empty.stdoutData)
        let get = try store.run("get", "--service", "api", "--account", Self.awkward, "--json")
        #expect(get.status == Exit.success, "\(get)")
        try expectEncoderBytes(get.stdoutData)
        #expect(try get.jsonObject()["secret"] as? String == Self.awkward)
        let info = try store.run("info", "--json")
        #expect(info.status == Exit.success, "\(info)")
        try expectEncoderBytes(info.stdoutData)
        let missing = try store.run("get", "--service", "none", "--account", "none", "--json")
        #expect(missing.status == Exit.notFound, "\(missing)")
        try expectEncoderBytes(missing.stdoutData)
    }

    /// `list --json` writes its array in 64 KiB pieces (each wiped once written): a listing
    /// several times that size must still be one document holding every item once.
    @Test("a listing past the 64 KiB flush is one document with every item, byte for byte the encoder's")
    func listingPastTheFlushSize() throws {
        let store = try CLIStore.created()
        let count = 700
        var csv = "service,account,secret\n"
        for index in 0..<count {
            csv += "flush-\(index % 7),account-\(index)-\(String(repeating: "x", count: 40)),secret-\(index)\n"
        }
        let file = store.file("many.csv")
        try csv.write(to: file, atomically: true, encoding: .utf8)
        let imported = try store.run("import", "--format", "csv", file.path)
        try #require(imported.status == Exit.success, "\(imported)")
        let listed = try store.run(["list", "--json", "--show-secrets"], stdin: Data())
        #expect(listed.status == Exit.success, "\(listed.stderr)")
        #expect(listed.stdoutData.count > 2 * 65_536, "the listing crosses the flush size at least twice")
        try expectEncoderBytes(listed.stdoutData)
        let items = try listed.jsonArray()
        #expect(items.count == count)
        #expect(Set(items.compactMap { $0["secret"] as? String }) == Set((0..<count).map { "secret-\($0)" }))
    }

    /// `output` is one JSON document and a newline, exactly as the encoder writes the
    /// document's values.
    private func expectEncoderBytes(_ output: Data, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let document = try JSONDecoder().decode(JSONTree.self, from: output)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let expected = try encoder.encode(document) + Data("\n".utf8)
        #expect(output == expected, "\n\(String(decoding: output, as: UTF8.self))\nis not\n\(String(decoding: expected, as: UTF8.self))",
                sourceLocation: sourceLocation)
    }
}

/// Any JSON document, decoded and encoded again as the values it holds.
private enum JSONTree: Codable {
    case null, bool(Bool), number(Int64), string(String), array([JSONTree]), object([String: JSONTree])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let bool = try? container.decode(Bool.self) { self = .bool(bool) }
        else if let number = try? container.decode(Int64.self) { self = .number(number) }
        else if let string = try? container.decode(String.self) { self = .string(string) }
        else if let array = try? container.decode([JSONTree].self) { self = .array(array) }
        else { self = .object(try container.decode([String: JSONTree].self)) }
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .number(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        }
    }
}

import Foundation
@testable import SecStore
import SecStoreFuzzing
@testable import secstore

/// The target `plaintext-import`: the files `secstore import --format env|json|csv` reads
/// (`PlaintextImport.decode`). Like `cli-arguments`, it lives here rather than in
/// `SecStoreFuzzing` because it needs the executable's module, which only a test target may
/// import; `scripts/fuzz.sh` compiles this same file into the libFuzzer binary.
///
/// The first byte chooses the format (its value modulo 3: env, json, csv); the rest is the
/// file. An env file is read for the service `fuzz`, as `--service fuzz` would.
///
/// Checked: a refusal is a `CLIError` of status `usage` whose message never holds
/// ``FuzzMarker/secret`` (the seeds write it into secrets, and into the places a secret ends
/// up when a file is malformed: the continuation of an unquoted value, a cell after an
/// unquoted comma), except where json's message names an object key the file spells with it.
/// What is read, kept as the store keeps items (`AttributeRules.normalize`; items the store
/// refuses are left out), exports (`PlaintextExport`, as `secstore export --plaintext` writes
/// the stored items) to a file of the same format that reads back as the same items: same
/// class, secret and attributes, as the store compares them (a blob by its bytes: json
/// writes data that is UTF-8 as text). An export may refuse only a secret that is not UTF-8,
/// which env and csv cannot carry.
public enum PlaintextImportFuzz {
    public static let name = "plaintext-import"

    static let formats: [InterchangeFormat] = [.env, .json, .csv]

    static func violation(_ message: String) -> FuzzViolation { FuzzViolation(target: name, message) }

    public static func run(_ bytes: [UInt8]) throws(FuzzViolation) -> FuzzOutcome {
        var input = FuzzInput(bytes)
        let format = formats[Int(input.byte()) % formats.count]
        let file = Data(input.rest())
        let entries: [PlaintextImport.Entry]
        do {
            entries = try read(file, as: format)
        } catch let error as CLIError {
            guard error.status == .usage else { throw violation("\(format) refused with status \(error.status): \(error.message)") }
            if FuzzMarker.isQuoted(in: error.message) && !(format == .json && keyHoldsMarker(file)) {
                throw violation("\(format)'s refusal quotes a secret: \(error.message)")
            }
            return .refused("\(format.rawValue): usage")
        } catch {
            throw violation("\(format) refused with an error that is not a CLIError: \(type(of: error)): \(error)")
        }
        let stored = entries.compactMap { entry -> Item? in
            guard let attributes = try? AttributeRules.normalize(entry.item.attributes, for: entry.item.itemClass) else { return nil }
            return Item(itemClass: entry.item.itemClass, attributes: attributes, data: entry.item.data)
        }
        var exported: WipingBuffer
        do {
            exported = try PlaintextExport.encode(stored, as: format)
        } catch {
            guard format != .json, stored.contains(where: { !ItemRendering.isUTF8($0.data ?? Data()) }) else {
                throw violation("\(format) export of what was read refused: \(error)")
            }
            return .accepted("\(format.rawValue): \(entries.count) items, a secret that is not UTF-8")
        }
        defer { exported.wipe() }
        let again: [PlaintextImport.Entry]
        do {
            again = try read(Data(exported.bytes), as: format)
        } catch {
            throw violation("\(format) export of \(stored.count) items does not read back: \(error)")
        }
        guard again.count == stored.count else {
            throw violation("\(format) export of \(stored.count) items reads back as \(again.count)")
        }
        for (item, entry) in zip(stored, again) {
            let attributes = (try? AttributeRules.normalize(entry.item.attributes, for: entry.item.itemClass)) ?? entry.item.attributes
            // JSON keeps every attribute's type (bytes are `{"base64": …}`); CSV holds text.
            let same = format == .json ? attributes == item.attributes : sameAsStored(attributes, item.attributes)
            guard entry.item.itemClass == item.itemClass, same, entry.item.data == item.data else {
                throw violation("\(format) export of \(item.itemClass) \(item.attributes) (\(item.data?.count ?? 0)-byte secret) reads back as "
                                + "\(entry.item.itemClass) \(attributes) (\(entry.item.data?.count ?? 0)-byte secret\(entry.item.data == item.data ? "" : ", not the same"))")
            }
        }
        return .accepted("\(format.rawValue): \(entries.count) items")
    }

    /// Whether two attribute sets are one to the store: the same keys, each value with the
    /// same canonical bytes (a blob compares by content: `"a"` and `Data("a".utf8)` are one
    /// value, and csv writes bytes that are UTF-8 as text), the same free-form attributes.
    static func sameAsStored(_ first: Attributes, _ second: Attributes) -> Bool {
        guard first.custom == second.custom, Set(first.map(\.key)) == Set(second.map(\.key)) else { return false }
        return first.allSatisfy { key, value in
            second[key].map { AttributeRules.canonicalBytes($0, kind: key.kind) == AttributeRules.canonicalBytes(value, kind: key.kind) } ?? false
        }
    }

    static func read(_ file: Data, as format: InterchangeFormat) throws -> [PlaintextImport.Entry] {
        try PlaintextImport.decode(file, as: format, source: "fuzz.\(format.rawValue)", service: "fuzz")
    }

    /// Whether an object key of the JSON document `file` holds the marker: json's messages
    /// name keys (`unknown attribute "colour"`), which are names, not secrets.
    static func keyHoldsMarker(_ file: Data) -> Bool {
        func holds(_ value: Any) -> Bool {
            if let object = value as? [String: Any] {
                return object.contains { FuzzMarker.isQuoted(in: $0.key) || holds($0.value) }
            }
            if let array = value as? [Any] { return array.contains(where: holds) }
            return false
        }
        return (try? JSONSerialization.jsonObject(with: file)).map(holds) ?? false
    }
}

extension PlaintextImportFuzz {
    /// The seed corpus: files `secstore export --plaintext` writes, the shapes docs/cli.md
    /// shows, and the malformed files of the suite's leak tests (PlaintextInterchangeTests),
    /// with ``FuzzMarker/secret`` in every secret.
    public static var seeds: [(name: String, bytes: [UInt8])] {
        let secret = FuzzMarker.secret
        var generic = Attributes()
        generic.service = "api.example.com"
        generic.account = "API_TOKEN"
        generic.accessGroup = "local.secstore"
        generic.accessibility = .afterFirstUnlock
        generic.label = "API token"
        generic.comment = "rotated monthly"
        var internet = Attributes()
        internet.server = "example.com"
        internet.account = "DB_PASSWORD"
        internet.protocol = .https
        internet.port = 8443
        internet.path = "/login"
        internet.authenticationType = .htmlForm
        internet.securityDomain = "realm"
        var guarded = Attributes()
        guarded.service = "guarded"
        guarded.account = "PIN"
        guarded.accessControlFlags = [.userPresence, .or, .devicePasscode]
        guarded.generic = Data([0, 1, 0xFF])
        guarded.isSynchronizable = true
        guarded.custom = ["xdg:schema": "org.example.Mail", "user": "alice"]
        let items = [
            Item(itemClass: .genericPassword, attributes: generic, data: Data("sk_live_\(secret)".utf8)),
            Item(itemClass: .internetPassword, attributes: internet, data: Data("it's \"quoted\", $HOME, \\,\n\(secret)\tline".utf8)),
            Item(itemClass: .genericPassword, attributes: guarded, data: Data("\u{301}\(secret)".utf8)),
        ]
        var seeds: [(String, [UInt8])] = []
        for (index, format) in formats.enumerated() {
            guard var exported = try? PlaintextExport.encode(items, as: format) else { continue }
            seeds.append(("\(format.rawValue)-export", [UInt8(index)] + exported.bytes))
            exported.wipe()
        }
        let files: [(String, InterchangeFormat, String)] = [
            ("env-dotenv", .env, "# comment\nexport A=1\nB='single \(secret)' # c\nC=\"multi\nline \\\"\(secret)\\\" \\$x\"\nD=bare \(secret) # c\r\nE=\n"),
            ("env-yaml-line", .env, "DB_HOST=db\nAPI_KEY: sk_live_\(secret)==\n"),
            ("env-pem", .env, "KEY=-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkq\(secret)+x==\n-----END PRIVATE KEY-----\n"),
            ("env-export-name", .env, "  export \(secret)/x=1\n"),
            ("env-twice", .env, "A=\(secret)\nA=2\n"),
            ("env-unclosed", .env, "GOOD=1\n\nBAD='unclosed \(secret)\n"),
            ("json-flat", .json, #"[{"service": "flat", "account": "a", "secret": "\#(secret)"}, {"class": "genp", "attributes": {"service": "nested", "account": "b", "accessibility": "afterFirstUnlock", "port": 5, "accc": 1}, "secretBase64": "AP8="}]"#),
            ("json-binary", .json, #"[{"class": "inet", "attributes": {"server": "h", "protocol": "htps", "generic": {"base64": "AAE="}, "isInvisible": true}, "customAttributes": {"k": "v"}, "secret": "\#(secret)"}]"#),
            ("json-utf8-bytes-as-base64", .json, #"[{"class": "inet", "attributes": {"server": {"base64": "AAA="}}, "secret": "\#(secret)"}, {"service": "s", "generic": {"base64": "YQ=="}, "secret": "x"}]"#),
            ("json-wrong-accessibility", .json, #"[{"service": "s", "account": "a", "secret": "x", "accessibility": "\#(secret)"}]"#),
            ("json-wrong-class", .json, #"[{"class": "\#(secret)", "service": "s", "account": "a", "secret": "x"}]"#),
            ("json-not-array", .json, #"{"secret": "\#(secret)"}"#),
            ("csv-sheet", .csv, "\u{FEFF}service,account,secret\r\nsheet,\"x, y\",\"multi\r\n\(secret)\"\r\n"),
            ("csv-no-header", .csv, "\(secret),svc,acct\n"),
            ("csv-comma-in-secret", .csv, "service,account,secret,accessibility\ns,a,pa,\(secret)\n"),
            ("csv-protocol", .csv, "server,account,secret,protocol,port\nh,a,pa,\(secret),443\n"),
            ("csv-class", .csv, "service,account,secret,class\ns,a,pa,\(secret)\n"),
            ("csv-base64", .csv, "accessGroup,service,account,secretBase64\ng,s,a,AP8=\n"),
            ("csv-after-quote", .csv, "service,account,secret\ns,a,\"\(secret)\"x\n"),
        ]
        for (name, format, text) in files {
            seeds.append((name, [UInt8(formats.firstIndex(of: format)!)] + Array(text.utf8)))
        }
        return seeds
    }
}

@_cdecl("secstore_fuzz_seeds_plaintext_import")
public func secstoreFuzzSeedsPlaintextImport(_ directory: UnsafePointer<CChar>) -> Int32 {
    do {
        try FuzzSeeds.write(PlaintextImportFuzz.seeds, to: URL(filePath: String(cString: directory)))
        return 0
    } catch {
        print("cannot write the seeds of plaintext-import: \(error)")
        return 1
    }
}

@_cdecl("secstore_fuzz_plaintext_import")
public func secstoreFuzzPlaintextImport(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    runForLibFuzzer(data, size) { bytes throws(FuzzViolation) in try PlaintextImportFuzz.run(bytes) }
}

import CredentialBridge
import Foundation
import KeychainServices
import SecStore

/// The seed corpora of `Fixtures/fuzz/<target>/`, made by code so they can be remade when an
/// input layout changes (`scripts/fuzz.sh seeds`): real dictionaries, real property lists,
/// real backups written by `exportBackup`, real metadata written by the codec.
public enum FuzzSeeds {
    public static func seeds(for target: FuzzTarget) throws -> [(name: String, bytes: [UInt8])] {
        switch target {
        case .secItem: secItem()
        case .entitlements: try entitlements()
        case .backup: try backupFiles()
        case .backupSealed: backupSealed()
        case .metadata: metadata().map { ($0.name, MetadataCodec.encode($0.attributes)) }
        case .gitCredential: gitCredential()
        case .dockerCredentials: dockerCredentials()
        }
    }

    /// Writes `seeds` as `seed-<name>` files in `directory`, replacing older seeds of the same name.
    public static func write(_ seeds: [(name: String, bytes: [UInt8])], to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for seed in seeds {
            try Data(seed.bytes).write(to: directory.appending(path: "seed-\(seed.name)"))
        }
    }

    // MARK: SecItem

    static func secItem() -> [(name: String, bytes: [UInt8])] {
        typealias C = SecItemFuzz.SeedCall
        let genp = SecItemFuzz.SeedValue.known(kSecClassGenericPassword as String)
        let inet = SecItemFuzz.SeedValue.known(kSecClassInternetPassword as String)
        func key(_ name: CFString) -> SecItemFuzz.SeedKey { .known(name as String) }
        let yes = SecItemFuzz.SeedValue.boolean(true)
        return [
            ("add-generic-password", SecItemFuzz.seed([C(operation: 0, query: [
                (key(kSecClass), genp), (key(kSecAttrService), .string("api.example.com")), (key(kSecAttrAccount), .string("alice")),
                (key(kSecValueData), .data(Data("s3cr3t".utf8))), (key(kSecReturnAttributes), yes)])])),
            ("add-then-read", SecItemFuzz.seed([
                C(operation: 0, query: [(key(kSecClass), genp), (key(kSecAttrService), .string("db")),
                                         (key(kSecAttrAccount), .known("acct")), (key(kSecValueData), .data(Data("pw".utf8))),
                                         (key(kSecAttrAccessible), .known(kSecAttrAccessibleAfterFirstUnlock as String)),
                                         (key(kSecAttrLabel), .string("Database")), (key(kSecAttrGeneric), .data(Data([1, 2, 3])))]),
                C(operation: 1, query: [(key(kSecClass), genp), (key(kSecAttrService), .string("db")),
                                         (key(kSecReturnData), yes), (key(kSecMatchLimit), .known(kSecMatchLimitOne as String))])])),
            ("copy-all-with-references", SecItemFuzz.seed([
                C(operation: 1, query: [(key(kSecClass), genp), (key(kSecMatchLimit), .known(kSecMatchLimitAll as String)),
                                         (key(kSecReturnAttributes), yes), (key(kSecReturnPersistentRef), yes),
                                         (key(kSecAttrSynchronizable), .known(kSecAttrSynchronizableAny as String))]),
                C(operation: 1, query: [(key(kSecValuePersistentRef), .reference(0)), (key(kSecReturnData), yes)])])),
            ("update-secret-and-label", SecItemFuzz.seed([C(
                operation: 2, query: [(key(kSecClass), genp), (key(kSecAttrService), .known("svc")), (key(kSecAttrAccount), .known("acct"))],
                changes: [(key(kSecValueData), .data(Data("rotated".utf8))), (key(kSecAttrLabel), .string("rotated"))])])),
            ("delete-internet-password", SecItemFuzz.seed([C(operation: 3, query: [
                (key(kSecClass), inet), (key(kSecAttrServer), .known("www.example.com"))])])),
            ("add-internet-password", SecItemFuzz.seed([C(operation: 0, query: [
                (key(kSecClass), inet), (key(kSecAttrServer), .known("example.com")), (key(kSecAttrAccount), .string("bob")),
                (key(kSecAttrProtocol), .known(kSecAttrProtocolHTTPS as String)), (key(kSecAttrPort), .integer(8443)),
                (key(kSecAttrPath), .known("/path")), (key(kSecAttrAuthenticationType), .known(kSecAttrAuthenticationTypeHTMLForm as String)),
                (key(kSecAttrSecurityDomain), .string("realm")), (key(kSecValueData), .data(Data("pw".utf8))),
                (key(kSecAttrAccessGroup), .known(FuzzStores.g2))])])),
            ("access-control", SecItemFuzz.seed([
                C(operation: 0, query: [(key(kSecClass), genp), (key(kSecAttrService), .string("guarded")),
                                         (key(kSecAttrAccessControl), .accessControl(protection: kSecAttrAccessibleWhenUnlocked as String, flags: 1)),
                                         (key(kSecValueData), .data(Data("pw".utf8)))]),
                C(operation: 1, query: [(key(kSecClass), genp), (key(kSecAttrService), .string("guarded")), (key(kSecReturnData), yes),
                                         (key(kSecUseOperationPrompt), .string("Unlock")),
                                         (key(kSecUseAuthenticationUI), .known(kSecUseAuthenticationUISkip as String))])])),
            ("host-or-subdomain", SecItemFuzz.seed([C(operation: 1, query: [
                (key(kSecClass), inet), (key(kSecMatchHostOrSubdomainOfHost), .known("example.com")),
                (key(kSecMatchCaseInsensitive), yes), (key(kSecMatchLimit), .integer(5)), (key(kSecReturnAttributes), yes)])])),
            ("foreign-group", SecItemFuzz.seed([C(operation: 0, query: [
                (key(kSecClass), genp), (key(kSecAttrAccount), .string("x")), (key(kSecAttrAccessGroup), .known(FuzzStores.foreignGroup))])])),
            ("wrong-types", SecItemFuzz.seed([
                C(operation: 0, query: [(key(kSecClass), .integer(1)), (key(kSecValueData), .string("not data"))]),
                C(operation: 1, query: [(key(kSecClass), genp), (key(kSecReturnData), .integer(1)), (.junk("zzzz"), .null),
                                         (.number(7), .array([.known("svc"), .date(0)])),
                                         (key(kSecAttrService), .dictionary([(key(kSecAttrAccount), .string("nested"))]))])])),
        ]
    }

    // MARK: Entitlements

    static let fixtures = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../Fixtures").standardizedFileURL

    static func entitlements() throws -> [(name: String, bytes: [UInt8])] {
        var seeds: [(name: String, bytes: [UInt8])] = []
        // The real files of Fixtures/entitlements: Apple's Mail and Maps (binary), and the ways they go wrong.
        let directory = fixtures.appending(path: "entitlements")
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() where name.hasSuffix(".entitlements") {
            let stem = String(name.dropLast(".entitlements".count))
            seeds.append(("fixture-\(stem)", try [UInt8](Data(contentsOf: directory.appending(path: name)))))
        }
        let full: [String: Any] = ["application-identifier": "ABCDE12345.com.example.app",
                                   "keychain-access-groups": ["ABCDE12345.com.example.shared", "ABCDE12345.com.example.app"],
                                   "com.apple.security.application-groups": ["group.com.example"]]
        seeds.append(("xml", try [UInt8](PropertyListSerialization.data(fromPropertyList: full, format: .xml, options: 0))))
        seeds.append(("binary", try [UInt8](PropertyListSerialization.data(fromPropertyList: full, format: .binary, options: 0))))
        seeds.append(("openstep", Array("""
            { "application-identifier" = "ABCDE12345.com.example.app"; "keychain-access-groups" = ( "ABCDE12345.com.example.shared" ); }
            """.utf8)))
        return seeds
    }

    // MARK: Backups

    /// Backups written by `exportBackup` with the target's passphrase, at the smallest limits.
    static func backupFiles() throws -> [(name: String, bytes: [UInt8])] {
        let store = try FuzzStores.openStore("seeds-\(UUID().uuidString)", access: .owner)
        func export(_ name: String) throws -> (name: String, bytes: [UInt8]) {
            let url = FuzzStores.scratchFile("\(name).backup")
            _ = try store.exportBackup(to: url, passphrase: BackupFuzz.passphrase, limits: .minimumForTesting)
            return (name, try [UInt8](Data(contentsOf: url)))
        }
        var seeds = [try export("empty")]
        try store.add(.genericPassword(service: "api.example.com", account: "alice", data: Data("s3cr3t".utf8),
                                       accessGroup: FuzzStores.g1, label: "API"))
        seeds.append(try export("one-item"))
        try store.add(.internetPassword(server: "example.com", account: "bob", data: Data("pw".utf8), protocol: .https,
                                        port: 443, path: "/login", authenticationType: .htmlForm, accessGroup: FuzzStores.g2,
                                        accessibility: .afterFirstUnlock))
        // Access-controlled items need a passphrase on the store, as Apple's need a passcode.
        try store.setPassphrase("seed store passphrase", limits: .minimumForTesting)
        try store.unlock(passphrase: "seed store passphrase")   // a presence proof, for the export
        var guarded = Attributes()
        guarded.service = "guarded"
        guarded.accessGroup = FuzzStores.g1
        guarded.accessControlFlags = .userPresence
        try store.add(Item(itemClass: .genericPassword, attributes: guarded, data: Data("presence".utf8)))
        seeds.append(try export("three-items"))
        return seeds
    }

    /// Sealed-mode inputs: real item records (the codec's metadata of real items), under each
    /// conflict policy, and the ways a sealed file can still be wrong.
    static func backupSealed() -> [(name: String, bytes: [UInt8])] {
        func record(_ itemClass: UInt8, _ accessibility: UInt8, _ attributes: Attributes, _ secret: String) -> [UInt8] {
            let metadata = MetadataCodec.encode(attributes)
            return [1, itemClass, accessibility] + FuzzBytes.le(UInt16(metadata.count)) + metadata
                + [UInt8(secret.utf8.count)] + Array(secret.utf8)
        }
        /// flags, an empty manifest (made by the target unless flag bit 0), then the records.
        func input(_ flags: UInt8, finalCount: UInt64? = nil, cut: UInt16? = nil, _ records: [[UInt8]]) -> [UInt8] {
            [flags, 0] + (finalCount.map(FuzzBytes.le) ?? []) + (cut.map(FuzzBytes.le) ?? []) + records.flatMap { $0 }
        }
        let items = metadata()
        let generic = record(1, 6, items[0].attributes, "s3cr3t")
        let internet = record(2, 7, items[1].attributes, "pw")
        var duplicate = Attributes()
        duplicate.service = "svc"
        duplicate.account = "acct"
        duplicate.accessGroup = FuzzStores.g1
        duplicate[.creationDate] = .date(Date(timeIntervalSinceReferenceDate: 700_000_000))
        let collision = record(1, 6, duplicate, "from the backup")
        return [
            ("one-item", input(0x00, [generic])),
            ("two-items", input(0x00, [generic, internet])),
            ("collision-skip", input(0x00, [collision])),
            ("collision-replace", input(0x10, [collision, generic])),
            ("collision-fail", input(0x20, [collision])),
            ("empty", input(0x00, [])),
            ("wrong-final-count", input(0x04, finalCount: 5, [generic])),
            ("bytes-after-final", input(0x08, [generic])),
            ("cut-short", input(0x40, cut: 100, [generic, internet])),
        ]
    }

    // MARK: Metadata

    /// Real attribute sets, as the engine seals them.
    static func metadata() -> [(name: String, attributes: Attributes)] {
        let created = Date(timeIntervalSinceReferenceDate: 785_000_000.25)
        var generic = Attributes()
        generic.service = "api.example.com"
        generic.account = "alice"
        generic.accessGroup = FuzzStores.g1
        generic.accessibility = .whenUnlocked
        generic.isSynchronizable = false
        generic.label = "API token"
        generic.generic = Data([0, 1, 2, 0xFF])
        generic[.creationDate] = .date(created)
        generic[.modificationDate] = .date(created.addingTimeInterval(60))
        var internet = Attributes()
        internet.server = "example.com"
        internet.account = "bob"
        internet.protocol = .https
        internet.port = 443
        internet.path = "/login"
        internet.authenticationType = .htmlForm
        internet.securityDomain = "realm"
        internet.accessGroup = FuzzStores.g2
        internet.accessibility = .afterFirstUnlock
        internet[.creationDate] = .date(created)
        var guarded = generic
        guarded.accessControlFlags = [.userPresence, .or, .devicePasscode]
        guarded.comment = "needs presence"
        var unicode = Attributes()
        unicode.account = "Zoë 🔑\u{0}"
        unicode.service = String(repeating: "long service name ", count: 12)
        return [("generic-password", generic), ("internet-password", internet), ("access-control", guarded),
                ("unicode-and-long", unicode), ("empty", Attributes())]
    }
}

extension FuzzSeeds {
    // MARK: git credentials

    /// Requests as git writes them (gitcredentials(7), and the suite's protocol tests), with
    /// ``FuzzMarker/secret`` in the secrets; and stored secrets as the helper seals them.
    static func gitCredential() -> [(name: String, bytes: [UInt8])] {
        let secret = FuzzMarker.secret
        let requests: [(String, String)] = [
            ("get", "protocol=https\nhost=example.com\n\n"),
            ("get-with-path", "protocol=https\nhost=git.example.com:8443\npath=team/app.git\nusername=alice\n\n"),
            ("store", "protocol=https\nhost=example.com\nusername=alice\npassword=pw-\(secret)-1\n\n"),
            ("store-expiry-refresh", "protocol=https\nhost=example.com\nusername=alice\npassword=gho_\(secret)\n"
                + "password_expiry_utc=4102444800\noauth_refresh_token=ghr_\(secret)\n\n"),
            ("store-expiry-zero", "protocol=https\nhost=example.com\nusername=alice\npassword=\(secret)\npassword_expiry_utc=0\n"),
            ("erase", "protocol=https\nhost=example.com\nusername=alice\npassword=\(secret)\n\n"),
            ("erase-nothing", "username=\n\n"),
            ("url", "url=https://b%6Fb:p%40ss-\(secret)@Example.com:8443//team/app.git//\nusername=bob\n"),
            ("url-empty-username", "url=https://:\(secret)@example.com/\n"),
            ("url-no-scheme", "protocol=https\nhost=example.com\nurl=example.com/\(secret)\n"),
            ("url-newline", "url=https://alice:\(secret)%0A@example.com\n"),
            ("capabilities", "capability[]=authtype\ncapability[]=state\nprotocol=https\nhost=example.com\n"
                + "wwwauth[]=Basic realm=\"example\"\nstate[]=helper:x\n\n"),
            ("crlf", "protocol=https\r\nhost=example.com\r\nusername=alice\r\npassword=pw\(secret)\r\r\n\r\n"),
            ("ipv6", "protocol=http\nhost=[::1]:8080\nusername=root\npassword=\(secret)\n"),
            ("cert", "protocol=cert\npath=/home/alice/cert.p12\nusername=\npassword=\(secret)\n"),
            ("not-key-value", "protocol=https\n\(secret)\n"),
            ("apple-code-scheme", "protocol=htps\nhost=example.com\nusername=a\npassword=\(secret)\n"),
        ]
        var seeds = requests.map { ("request-\($0.0)", [0] + Array($0.1.utf8)) }
        seeds.append(("request-latin1-wwwauth", [0] + Array("protocol=https\nhost=example.com\nwwwauth[]=Basic realm=\"caf".utf8)
                      + [0xE9, 0x22, 0x0A] + Array("password=\(secret)\n".utf8)))
        seeds.append(("request-nul", [0] + Array("protocol=https\npassword=\(secret)".utf8) + [0, 0x0A]))
        let stored: [(String, GitSecret)] = [
            ("password", GitSecret(password: "s3cr3t", expiry: nil, refreshToken: nil)),
            ("expiry-refresh", GitSecret(password: "gho_\(secret)", expiry: 4_102_444_800, refreshToken: "ghr_\(secret)")),
            ("expired", GitSecret(password: "old", expiry: 1_000_000_000, refreshToken: "ghr_\(secret)")),
            ("carriage-return", GitSecret(password: "pw\r", expiry: 4_102_444_800, refreshToken: "rt\r")),
        ]
        seeds += stored.map { ("stored-\($0.0)", [1] + Array($0.1.encoded)) }
        seeds.append(("stored-not-utf8", [1, 0x70, 0xFF, 0x77]))
        seeds.append(("stored-other-lines", [1] + Array("pw\nnote=x\npassword_expiry_utc=00042\noauth_refresh_token=\n".utf8)))
        return seeds
    }

    // MARK: docker credentials

    /// What docker sends to `store` (docker-credential-helpers' `Credentials`, the suite's
    /// cases), and server URLs as `get` and `erase` read them.
    static func dockerCredentials() -> [(name: String, bytes: [UInt8])] {
        let secret = FuzzMarker.secret
        let json: [(String, String)] = [
            ("hub", #"{"ServerURL":"https://index.docker.io/v1/","Username":"alice","Secret":"\#(secret)"}"#),
            ("token", #"{"ServerURL":"registry.example.com:5000","Username":"<token>","Secret":"eyJ\#(secret)"}"#),
            ("case-insensitive", #"{"serverurl":"http://localhost:5000/","USERNAME":"u","Secret":"\#(secret)","Extra":1}"#),
            ("escapes", #"{"ServerURL":"https://[::1]:5000/v2/","Username":"a\u003cb","Secret":"\#(secret)\n\u2028\"\\"}"#),
            ("twice", #"{"ServerURL":"https://a.example","serverURL":"https://b.example","Username":"u","Secret":"\#(secret)"}"#),
            ("null-username", #"{"ServerURL":"https://x","Username":null,"Secret":"\#(secret)"}"#),
            ("secret-not-string", #"{"ServerURL":"https://x","Username":"u","Secret":5}"#),
            ("userinfo", #"{"ServerURL":"https://alice:\#(secret)@registry.example.com/v2/","Username":"alice","Secret":"\#(secret)"}"#),
            ("control-character", #"{"ServerURL":"https://registry.example.com\n/v2/","Username":"u","Secret":"\#(secret)"}"#),
            ("not-json", "not json \(secret)"),
        ]
        let urls: [(String, String)] = [
            ("hub", "https://index.docker.io/v1/"),
            ("host-port", "registry.example.com:5000"),
            ("http", "http://localhost:5000/"),
            ("query-fragment", "//example.com/x?q=1#f"),
            ("userinfo", "https://alice:\(secret)@example.com"),
            ("ipv6", "https://[::1]:5000/v2/"),
            ("ftp", "ftp://example.com"),
            ("no-host", "https:///v2/"),
            ("port-empty", "Registry.Example.COM:/v2//x"),
        ]
        return json.map { ("json-\($0.0)", [0] + Array($0.1.utf8)) } + urls.map { ("url-\($0.0)", [1] + Array($0.1.utf8)) }
    }
}

// MARK: - C entry points: `SECSTORE_FUZZ_WRITE_SEEDS=DIR fuzz-<target>` (scripts/fuzz.sh seeds)

private func writeSeeds(_ target: FuzzTarget, _ directory: UnsafePointer<CChar>) -> Int32 {
    do {
        try FuzzSeeds.write(try FuzzSeeds.seeds(for: target), to: URL(filePath: String(cString: directory)))
        return 0
    } catch {
        print("cannot write the seeds of \(target.rawValue): \(error)")
        return 1
    }
}

@_cdecl("secstore_fuzz_seeds_secitem")
public func secstoreFuzzSeedsSecItem(_ directory: UnsafePointer<CChar>) -> Int32 { writeSeeds(.secItem, directory) }

@_cdecl("secstore_fuzz_seeds_entitlements")
public func secstoreFuzzSeedsEntitlements(_ directory: UnsafePointer<CChar>) -> Int32 { writeSeeds(.entitlements, directory) }

@_cdecl("secstore_fuzz_seeds_backup")
public func secstoreFuzzSeedsBackup(_ directory: UnsafePointer<CChar>) -> Int32 { writeSeeds(.backup, directory) }

@_cdecl("secstore_fuzz_seeds_backup_sealed")
public func secstoreFuzzSeedsBackupSealed(_ directory: UnsafePointer<CChar>) -> Int32 { writeSeeds(.backupSealed, directory) }

@_cdecl("secstore_fuzz_seeds_metadata")
public func secstoreFuzzSeedsMetadata(_ directory: UnsafePointer<CChar>) -> Int32 { writeSeeds(.metadata, directory) }

@_cdecl("secstore_fuzz_seeds_git_credential")
public func secstoreFuzzSeedsGitCredential(_ directory: UnsafePointer<CChar>) -> Int32 { writeSeeds(.gitCredential, directory) }

@_cdecl("secstore_fuzz_seeds_docker_credentials")
public func secstoreFuzzSeedsDockerCredentials(_ directory: UnsafePointer<CChar>) -> Int32 { writeSeeds(.dockerCredentials, directory) }

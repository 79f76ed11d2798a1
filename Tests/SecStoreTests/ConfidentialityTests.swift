import Foundation
import Testing
import SecStore

/// No attribute value and no secret reaches any file in plaintext (DESIGN.md "Storage").
@Suite struct ConfidentialityTests {
    /// A random 24-character string that cannot occur in a file by chance.
    static func marker(_ role: String) -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789")
        return String(role.prefix(3)) + String((0..<21).map { _ in alphabet.randomElement()! })
    }

    /// Every distinctive value written by ``writeItems(_:markers:)``, by role.
    struct Markers {
        let values: [String: String]

        init() {
            let roles = ["service", "account", "label", "comment", "generic", "description", "group", "secret",
                         "server", "path", "domain", "inetAccount", "inetSecret", "newSecret", "newLabel",
                         "deletedSecret", "deletedAccount", "txSecret", "txAccount"]
            values = Dictionary(uniqueKeysWithValues: roles.map { ($0, ConfidentialityTests.marker($0)) })
        }

        subscript(role: String) -> String { values[role]! }
    }

    /// Adds, updates and deletes items carrying the markers, through every write path.
    static func writeItems(_ store: SecretStore, markers m: Markers) throws {
        var generic = Item.genericPassword(service: m["service"], account: m["account"], data: m["secret"].utf8Data,
                                           accessGroup: m["group"], label: m["label"])
        generic.attributes.comment = m["comment"]
        generic.attributes.itemDescription = m["description"]
        generic.attributes[.generic] = .data(m["generic"].utf8Data)
        try store.add(generic)
        try store.add(.internetPassword(server: m["server"], account: m["inetAccount"], data: m["inetSecret"].utf8Data,
                                        protocol: .https, port: 8443, path: m["path"], securityDomain: m["domain"]))
        try store.add(.genericPassword(service: m["service"], account: m["deletedAccount"], data: m["deletedSecret"].utf8Data))
        try store.update(matching: Query(service: m["service"], account: m["account"]),
                         with: ItemChanges(attributes: [.label: .string(m["newLabel"])], data: m["newSecret"].utf8Data))
        try store.delete(matching: Query(service: m["service"], account: m["deletedAccount"]))
        _ = try store.write { transaction in
            try transaction.add(.genericPassword(service: m["service"], account: m["txAccount"], data: m["txSecret"].utf8Data))
        }
        try store.set(m["secret"] + "-oneliner", forAccount: m["account"] + "-oneliner", service: m["service"])
    }

    /// Reads every regular file under `directory` and returns the markers found, by file name.
    static func leaks(in directory: TemporaryDirectory, markers: Markers) throws -> [String] {
        var found: [String] = []
        for file in directory.allFiles() {
            let bytes = try Data(contentsOf: file)
            for (role, value) in markers.values where bytes.containsBytes(value.utf8Data) {
                found.append("\(role) in \(file.lastPathComponent)")
            }
        }
        return found.sorted()
    }

    @Test func noAttributeOrSecretInAnyFileBeforeAndAfterCheckpoint() throws {
        let markers = Markers()
        let entitlements = Entitlements(applicationIdentifier: "T.app", keychainAccessGroups: [markers["group"]])
        let harness = try StoreHarness(access: .entitled(entitlements))
        try Self.writeItems(harness.store, markers: markers)
        let raw = RawStoreFile(url: harness.directory.storeURL)
        let sealed = try raw.items().map(\.secret)
        #expect(sealed.count == 4)

        // While the handle is open the writes sit in the WAL: scan it, and make sure the
        // scan really covers the stored rows (their sealed blobs are in the files).
        let wal = URL(filePath: harness.directory.storeURL.path + "-wal")
        #expect(try Data(contentsOf: wal).count > 0)
        #expect(try Self.leaks(in: harness.directory, markers: markers) == [])
        #expect(Self.filesContain(harness.directory, sealed))

        // The values are really there: the store reads them back.
        let found = try harness.store.items(matching: Query(service: markers["service"], account: markers["account"],
                                                            returning: [.attributes, .data]))
        #expect(found.first?.data == markers["newSecret"].utf8Data)
        #expect(found.first?.attributes.label == markers["newLabel"])

        try raw.checkpoint()
        #expect(try Self.leaks(in: harness.directory, markers: markers) == [])
        try harness.settle(.reopened)
        _ = try harness.store.items(matching: Query(service: markers["service"], account: markers["account"]))
        try raw.checkpoint()
        #expect(try Self.leaks(in: harness.directory, markers: markers) == [])
        #expect(Self.filesContain(harness.directory, sealed))
        let database = try Data(contentsOf: harness.directory.storeURL)
        #expect(database.prefix(16) == Data("SQLite format 3\0".utf8))
        #expect(sealed.allSatisfy { database.containsBytes($0) })
    }

    /// Descriptions of items and changes, and error messages, never show a secret.
    @Test func descriptionsAndErrorsDoNotShowSecrets() throws {
        let secret = Self.marker("secret")
        let harness = try StoreHarness()
        let item = Item.genericPassword(service: "s", account: "a", data: secret.utf8Data)
        try harness.store.add(item)
        #expect(!item.description.contains(secret))
        #expect(!ItemChanges(data: secret.utf8Data).description.contains(secret))
        let found = try harness.store.items(matching: Sample.q(returning: [.attributes, .data]))
        #expect(!found.description.contains(secret))
        let duplicate = expectError(.duplicateItem) { try harness.store.add(item) }
        #expect(!(duplicate?.description.contains(secret) ?? true))
    }

    static func filesContain(_ directory: TemporaryDirectory, _ blobs: [Data]) -> Bool {
        let contents = directory.allFiles().compactMap { try? Data(contentsOf: $0) }
        return blobs.allSatisfy { blob in contents.contains { $0.containsBytes(blob) } }
    }

    /// Foundation's `Data` reflects its bytes one by one; without a custom mirror `dump(item)`
    /// printed the secret.
    @Test func mirrorAndDumpNeverShowTheSecret() {
        let secret = Data([0xDE, 0xAD, 0xBE, 0xEF, 0x42, 0x13, 0x37])
        let item = Item.genericPassword(service: "svc", account: "acct", data: secret)
        let changes = ItemChanges(data: secret)
        for value in [item as Any, changes as Any] {
            var dumped = ""
            dump(value, to: &dumped)
            // `dump` names private types by their context's address ("unknown context at
            // $5607222ae548"), which can hold any digits: addresses are left out of the check.
            let withoutAddresses = dumped.replacingOccurrences(of: #"\$[0-9a-f]+"#, with: "$", options: .regularExpression)
            #expect(!withoutAddresses.contains("222") && !withoutAddresses.contains("173") && !withoutAddresses.contains("190"),
                    "\(dumped)")
            #expect(dumped.contains("7 bytes, redacted"), "\(dumped)")
            let children = Mirror(reflecting: value).children.map { $0.value }
            #expect(!children.contains { $0 is Data })
        }
    }
}

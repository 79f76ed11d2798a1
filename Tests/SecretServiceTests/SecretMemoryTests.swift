import Foundation
import SecStore
import SecStoreTestSupport
@testable import SecretService
import Testing

/// What a secret leaves behind in the provider's memory once a call that carried it is over
/// (docs/secret-service.md, "Secrets in the provider's memory"): no copy, in the heap or
/// anywhere else writable, of a secret it served (`GetSecret`, `GetSecrets`) or
/// received (`CreateItem`, `SetSecret`). Each test reads the running provider's memory
/// (``ProcessMemory``), which takes `CAP_SYS_PTRACE` since the provider is non-dumpable: without
/// it the tests are skipped, not passed.
@Suite("Secrets in the provider's memory", .enabled(if: ProcessMemory.canReadNonDumpableProcesses,
                                                  "reading the non-dumpable provider's memory takes CAP_SYS_PTRACE"),
       .enabled(if: BusConnection.marksMessagesSensitive, "libsystemd before 247 cannot zero its messages"))
struct SecretMemoryTests {
    static let destination = "org.freedesktop.secrets"
    static let root = "/org/freedesktop/secrets"

    /// Random bytes, found only where a copy of this secret is.
    static func randomSecret(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// A client with an open `plain` session.
    struct Client {
        let connection: BusConnection
        let session: BusValue

        init(_ provider: Provider) throws {
            connection = try BusConnection(address: provider.bus.address)
            session = try connection.call(destination: SecretMemoryTests.destination, path: SecretMemoryTests.root,
                                          interface: "org.freedesktop.Secret.Service", member: "OpenSession",
                                          [.string("plain"), .variant(.string(""))])[1]
        }

        func call(_ path: String, _ interface: String, _ member: String, _ values: [BusValue]) throws -> [BusValue] {
            try connection.call(destination: SecretMemoryTests.destination, path: path, interface: interface, member: member, values)
        }

        func secret(_ bytes: [UInt8]) -> BusValue {
            .structure([session, .bytes([]), .bytes(bytes), .string("application/octet-stream")])
        }

        /// A `Ping` after a call: the provider serves calls in order, so when it answers, it has
        /// finished the call before (sent its reply and freed both messages).
        func ping() throws {
            _ = try call(SecretMemoryTests.root, "org.freedesktop.DBus.Peer", "Ping", [])
        }
    }

    /// Before: the secret was found in the provider's memory after each call (the reply's
    /// sd-bus buffer, freed unwiped, and the `Data` and `[UInt8]` copies made on the way).
    ///
    /// 12 bytes (kept inline in a `Data`: before, SecStore's read path also left it in the
    /// array of its matches, which it freed unzeroed, until a search made each match's item at
    /// once) and 1 KiB (kept in a heap block), in one item. Short secrets and many items, which
    /// libsystemd's growing reply body used to leave behind, are the two tests after this one.
    @Test("A secret served by GetSecret or GetSecrets leaves no copy in the provider's memory", arguments: [12, 1024])
    func servedSecret(size: Int) throws {
        let provider = try Provider(bus: try PrivateBus(), environment: ProcessMemory.scannedProcessEnvironment)
        let secret = Self.randomSecret(size)
        // Stored beside the provider, so that only serving it brings it into the provider's memory.
        let id = ItemMapping.newID()
        var item = Item.genericPassword(service: ItemMapping.service, account: id, data: Data(secret), accessGroup: "default", label: "m")
        item.attributes.custom = ["memory": "served"]
        try provider.openStore().add(item)
        let path = ObjectPaths.item(group: "default", id: id)
        let client = try Client(provider)

        let one = try client.call(path, "org.freedesktop.Secret.Item", "GetSecret", [client.session])
        #expect(one.first?.fields?[2].byteArray == secret)
        try client.ping()
        let afterGetSecret = try ProcessMemory.copies(of: secret, in: provider.processIdentifier)
        #expect(afterGetSecret.isEmpty, "after GetSecret: \(afterGetSecret)")

        let many = try client.call(Self.root, "org.freedesktop.Secret.Service", "GetSecrets", [.objectPaths([path]), client.session])
        guard case .dictEntry(_, let value)? = many.first?.elements?.first else {
            Issue.record("GetSecrets answered \(many)")
            return
        }
        #expect(value.fields?[2].byteArray == secret)
        try client.ping()
        let afterGetSecrets = try ProcessMemory.copies(of: secret, in: provider.processIdentifier)
        #expect(afterGetSecrets.isEmpty, "after GetSecrets: \(afterGetSecrets)")
    }

    /// A short secret (a password: 20 and 30 bytes) with the content type `text/plain`, served
    /// by `GetSecret`. Before, a copy was found after the call: its reply's body, whose first
    /// block held the secret, was moved (`realloc`) when the content type after it was
    /// appended, and libsystemd zeroes only the final block. Now its bytes travel in a memfd
    /// part and never enter the body.
    @Test("A short secret served by GetSecret leaves no copy in the provider's memory", arguments: [20, 30])
    func servedShortSecret(size: Int) throws {
        let provider = try Provider(bus: try PrivateBus(), environment: ProcessMemory.scannedProcessEnvironment)
        let secret = Self.randomSecret(size)
        let path = try Self.store(secret, in: provider, memory: "short")
        let client = try Client(provider)

        let one = try client.call(path, "org.freedesktop.Secret.Item", "GetSecret", [client.session])
        #expect(one.first?.fields?[2].byteArray == secret)
        #expect(one.first?.fields?[3].text == "text/plain")
        try client.ping()
        let found = try ProcessMemory.copies(of: secret, in: provider.processIdentifier)
        #expect(found.isEmpty, "after GetSecret of \(size) bytes: \(found)")
    }

    /// Sixteen items (eight of 1 KiB, eight of 20 bytes) served by one `GetSecrets`, in twelve
    /// rounds of new items. Before, copies of earlier items' secrets were found, in the blocks
    /// the reply's body left behind as it grew; not after every call (a body that grows in
    /// place, into free memory after it, leaves no block, and a freed block may be reused
    /// before the scan): about one round in three, so the rounds. Now every secret travels in
    /// a memfd part of its own.
    @Test("The secrets of many items served by one GetSecrets leave no copy in the provider's memory")
    func servedManySecrets() throws {
        let provider = try Provider(bus: try PrivateBus(), environment: ProcessMemory.scannedProcessEnvironment)
        let client = try Client(provider)
        for round in 1...12 {
            let secrets = (0..<8).map { _ in Self.randomSecret(1024) } + (0..<8).map { _ in Self.randomSecret(20) }
            var paths: [String] = []
            for secret in secrets { paths.append(try Self.store(secret, in: provider, memory: "many")) }
            let many = try client.call(Self.root, "org.freedesktop.Secret.Service", "GetSecrets", [.objectPaths(paths), client.session])
            var answered: [String: [UInt8]] = [:]
            for entry in many.first?.elements ?? [] {
                if case .dictEntry(let path, let value) = entry, let path = path.text { answered[path] = value.fields?[2].byteArray }
            }
            #expect(answered == Dictionary(uniqueKeysWithValues: zip(paths, secrets)))
            try client.ping()
            for (index, secret) in secrets.enumerated() {
                let found = try ProcessMemory.copies(of: secret, in: provider.processIdentifier)
                #expect(found.isEmpty, "after GetSecrets \(round), secret \(index) (\(secret.count) bytes): \(found)")
            }
        }
    }

    /// Stores `secret` as a new item beside the provider (so that only serving it brings it into
    /// the provider's memory), with the default content type, `text/plain`; its object path.
    static func store(_ secret: [UInt8], in provider: Provider, memory: String) throws -> String {
        let id = ItemMapping.newID()
        var item = Item.genericPassword(service: ItemMapping.service, account: id, data: Data(secret), accessGroup: "default", label: "m")
        item.attributes.custom = ["memory": memory]
        try provider.openStore().add(item)
        return ObjectPaths.item(group: "default", id: id)
    }

    /// Before: the secret was found in the provider's memory after each call (the call's
    /// sd-bus buffer, freed unwiped, and the `[UInt8]` and `Data` copies made on the way).
    /// 12 bytes (a password, kept inline in a `Data`) and 1 KiB (kept in a heap block).
    @Test("A secret received by CreateItem or SetSecret leaves no copy in the provider's memory", arguments: [12, 1024])
    func receivedSecret(size: Int) throws {
        let provider = try Provider(bus: try PrivateBus(), environment: ProcessMemory.scannedProcessEnvironment)
        let client = try Client(provider)
        let created = Self.randomSecret(size)
        let reply = try client.call(Self.root + "/collection/default", "org.freedesktop.Secret.Collection", "CreateItem",
                                    [.properties(["org.freedesktop.Secret.Item.Attributes": .stringDictionary(["memory": "received"])]),
                                     client.secret(created), .boolean(false)])
        let path = try #require(reply.first?.text)
        try client.ping()
        let afterCreateItem = try ProcessMemory.copies(of: created, in: provider.processIdentifier)
        #expect(afterCreateItem.isEmpty, "after CreateItem: \(afterCreateItem)")

        let changed = Self.randomSecret(size)
        _ = try client.call(path, "org.freedesktop.Secret.Item", "SetSecret", [client.secret(changed)])
        try client.ping()
        let afterSetSecret = try ProcessMemory.copies(of: changed, in: provider.processIdentifier)
        #expect(afterSetSecret.isEmpty, "after SetSecret: \(afterSetSecret)")

        // What the store holds is unchanged by the wiping: the secret given last.
        let id = String(path.split(separator: "/").last ?? "")
        let stored = try provider.openStore().items(matching: ItemMapping.query(group: "default", id: id, returning: [.attributes, .data]))
        #expect(stored.count == 1)
        #expect(stored.first?.data == Data(changed))
    }
}

/// Outside `SecretMemoryTests`, which is skipped where libsystemd cannot mark messages.
struct SensitiveMessageTests {
    /// The run-time look-up of `sd_bus_message_sensitive` finds it wherever libsystemd has it
    /// (247 and later, by the version pkg-config gives for the libsystemd built against):
    /// otherwise `SecretMemoryTests` would be skipped, not failed, by a look-up that went wrong.
    @Test func messagesAreMarkedSensitiveWhereLibsystemdCan() throws {
        let pkgConfig = Process()
        pkgConfig.executableURL = URL(filePath: "/usr/bin/env")
        pkgConfig.arguments = ["pkg-config", "--modversion", "libsystemd"]
        let output = Pipe()
        pkgConfig.standardOutput = output
        try pkgConfig.runWithCleanSignals()
        pkgConfig.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let version = try #require(Int(text.prefix { $0.isNumber }), "pkg-config said \(text)")
        #expect(BusConnection.marksMessagesSensitive == (version >= 247), "libsystemd \(version)")
    }
}

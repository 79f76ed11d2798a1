import Foundation
import SecStore
import SecStoreTestSupport
@testable import SecretService
import Testing

/// Input no well-behaved client sends, over one real bus connection: the provider answers with
/// the D-Bus error the specifications name and keeps serving.
@Suite("Bad input over the bus")
struct BadInputTests {
    static let service = "org.freedesktop.Secret.Service"
    static let root = "/org/freedesktop/secrets"

    func call(_ connection: BusConnection, _ path: String, _ interface: String, _ member: String,
              _ values: [BusValue]) throws(BusError) -> [BusValue] {
        try connection.call(destination: "org.freedesktop.secrets", path: path, interface: interface, member: member, values)
    }

    /// Before: an item in the provider's service whose account another program chose (not an
    /// id the provider made, so not a valid object path element) made every SearchItems of
    /// its collection fail with Failed, hiding the good items too.
    @Test("an item another program stored with a foreign account does not break searches")
    func foreignAccountIsLeftOut() throws {
        let provider = try Provider(bus: try PrivateBus()) { directory in
            try FileManager.default.createDirectory(at: directory.storeURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            let store = try SecretStore(at: directory.storeURL, options: .init(access: .owner, deviceKeyURL: directory.deviceKeyURL,
                                                                              firstUnlockCache: .processMemory))
            for account in ["not/a valid-id", ItemMapping.newID()] {
                var item = Item.genericPassword(service: ItemMapping.service, account: account, data: Data("pw".utf8),
                                                accessGroup: "default", label: "x")
                item.attributes.custom = ["service": "s"]
                try store.add(item)
            }
        }
        let lookup = try provider.secretTool(["lookup", "service", "s"])
        #expect(lookup.status == 0 && lookup.stdout == "pw", "\(lookup)")
        let search = try provider.secretTool(["search", "--all", "service", "s"])
        #expect(search.status == 0, "\(search)")
        #expect(provider.isRunning)
    }

    @Test("a wrong signature is InvalidArgs, and the provider keeps serving")
    func wrongSignature() throws {
        let provider = try Provider(bus: try PrivateBus())
        let connection = try BusConnection(address: provider.bus.address)
        #expect(busErrorName { () throws(BusError) in
            try call(connection, Self.root, Self.service, "OpenSession", [.string("plain"), .string("")])
        } == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(busErrorName { () throws(BusError) in
            try call(connection, Self.root, Self.service, "SearchItems", [.array(element: "s", [.string("x")])])
        } == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(busErrorName { () throws(BusError) in
            try call(connection, Self.root, Self.service, "NoSuchMethod", [])
        } == "org.freedesktop.DBus.Error.UnknownMethod")
        #expect(provider.isRunning)
        let opened = try call(connection, Self.root, Self.service, "OpenSession", [.string("plain"), .variant(.string(""))])
        #expect(opened.count == 2)
    }

    @Test("an algorithm other than plain is NotSupported")
    func otherAlgorithm() throws {
        let provider = try Provider(bus: try PrivateBus())
        let connection = try BusConnection(address: provider.bus.address)
        #expect(busErrorName { () throws(BusError) in
            try call(connection, Self.root, Self.service, "OpenSession",
                     [.string("dh-ietf1024-sha256-aes128-cbc-pkcs7"), .variant(.bytes([1, 2, 3]))])
        } == "org.freedesktop.DBus.Error.NotSupported")
        #expect(provider.isRunning)
    }

    /// Before: `Get` of an item's `Locked` answered for a made-up id, and `…/collection/_64efault`
    /// (another escaping of `default`) was the default collection under a second path.
    @Test("an unknown object path is UnknownObject, below the service's prefix or not")
    func unknownPath() throws {
        let provider = try Provider(bus: try PrivateBus())
        let connection = try BusConnection(address: provider.bus.address)
        for path in [Self.root + "/nothing", Self.root + "/collection/other", Self.root + "/collection/default/0123456789abcdef0123456789abcdef",
                     Self.root + "/collection/default/not_an_id", Self.root + "/collection/default/0123456789abcdef0123456789abcdef/deeper", "/org/freedesktop/elsewhere",
                     Self.root + "/collection/_64efault", Self.root + "/collection/_64efault/0123456789abcdef0123456789abcdef"] {
            let name = busErrorName { () throws(BusError) in
                try call(connection, path, "org.freedesktop.DBus.Properties", "GetAll", [.string("org.freedesktop.Secret.Item")])
            }
            #expect(name == "org.freedesktop.DBus.Error.UnknownObject", "\(path)")
            let locked = busErrorName { () throws(BusError) in
                try call(connection, path, "org.freedesktop.DBus.Properties", "Get", [.string("org.freedesktop.Secret.Item"), .string("Locked")])
            }
            #expect(locked == "org.freedesktop.DBus.Error.UnknownObject", "Locked of \(path)")
        }
        #expect(provider.isRunning)
    }

    @Test("a closed session is NoSession for every method that takes one")
    func closedSession() throws {
        let provider = try Provider(bus: try PrivateBus())
        let connection = try BusConnection(address: provider.bus.address)
        let session = try call(connection, Self.root, Self.service, "OpenSession", [.string("plain"), .variant(.string(""))])[1]
        let collection = Self.root + "/collection/default"
        let secret = BusValue.structure([session, .bytes([]), .bytes(Array("pw".utf8)), .string("text/plain")])
        let created = try call(connection, collection, "org.freedesktop.Secret.Collection", "CreateItem",
                               [.properties(["org.freedesktop.Secret.Item.Label": .string("x")]), secret, .boolean(false)])
        let item = created[0]
        _ = try call(connection, session.text ?? "", "org.freedesktop.Secret.Session", "Close", [])
        #expect(busErrorName { () throws(BusError) in
            try call(connection, item.text ?? "", "org.freedesktop.Secret.Item", "GetSecret", [session])
        } == "org.freedesktop.Secret.Error.NoSession")
        #expect(busErrorName { () throws(BusError) in
            try call(connection, Self.root, Self.service, "GetSecrets", [.objectPaths([item.text ?? ""]), session])
        } == "org.freedesktop.Secret.Error.NoSession")
        #expect(busErrorName { () throws(BusError) in
            try call(connection, item.text ?? "", "org.freedesktop.Secret.Item", "SetSecret", [secret])
        } == "org.freedesktop.Secret.Error.NoSession")
        #expect(busErrorName { () throws(BusError) in
            try call(connection, collection, "org.freedesktop.Secret.Collection", "CreateItem",
                     [.properties([:]), secret, .boolean(false)])
        } == "org.freedesktop.Secret.Error.NoSession")
        // Closing it again: the session object is gone.
        #expect(busErrorName { () throws(BusError) in
            try call(connection, session.text ?? "", "org.freedesktop.Secret.Session", "Close", [])
        } == "org.freedesktop.DBus.Error.UnknownObject")
        // A new session reads the item: nothing was half-written.
        let fresh = try call(connection, Self.root, Self.service, "OpenSession", [.string("plain"), .variant(.string(""))])[1]
        let read = try call(connection, item.text ?? "", "org.freedesktop.Secret.Item", "GetSecret", [fresh])
        #expect(read.first?.fields?[2].byteArray == Array("pw".utf8))
        #expect(provider.isRunning)
    }

    @Test("a second provider on the same bus fails with a clear error")
    func nameAlreadyOwned() throws {
        let provider = try Provider(bus: try PrivateBus())
        let second = try Programs.run(Programs.productsDirectory.appending(path: "secstore-secret-service"),
                                      ["--store", provider.directory.storeURL.path, "--device-key", provider.directory.deviceKeyURL.path],
                                      environment: provider.bus.clientEnvironment)
        #expect(second.status != 0)
        #expect(second.stderr.contains("already owns org.freedesktop.secrets"), "\(second)")
        #expect(provider.isRunning)
    }

    @Test("attributes beyond the store's limits are InvalidArgs and nothing is written")
    func hugeAttributes() throws {
        let provider = try Provider(bus: try PrivateBus())
        let connection = try BusConnection(address: provider.bus.address)
        let session = try call(connection, Self.root, Self.service, "OpenSession", [.string("plain"), .variant(.string(""))])[1]
        let secret = BusValue.structure([session, .bytes([]), .bytes(Array("pw".utf8)), .string("text/plain")])
        let huge = String(repeating: "x", count: 1_000_000)
        for attributes in [["name": huge], [huge: "value"], Dictionary(uniqueKeysWithValues: (0..<5000).map { ("k\($0)", "v") })] {
            #expect(busErrorName { () throws(BusError) in
                try call(connection, Self.root + "/collection/default", "org.freedesktop.Secret.Collection", "CreateItem",
                         [.properties(["org.freedesktop.Secret.Item.Attributes": .stringDictionary(attributes)]), secret, .boolean(false)])
            } == "org.freedesktop.DBus.Error.InvalidArgs")
        }
        let items = try call(connection, Self.root + "/collection/default", "org.freedesktop.DBus.Properties", "Get",
                             [.string("org.freedesktop.Secret.Collection"), .string("Items")])
        #expect(items.first?.unwrapped.paths == [])
        #expect(provider.isRunning)
    }
}

import Foundation
import Glibc
@testable import SecretService
import Testing

/// Names that are different byte strings on the bus but canonically equivalent Unicode
/// ("é" as U+00E9, and "e" + U+0301), which Swift's `String ==` treats as equal: access groups
/// are compared byte for byte, and two such attribute names in one dictionary are refused.
@Suite("Unicode names")
struct UnicodeNameTests {
    static let precomposed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"
    static let root = "/org/freedesktop/secrets"

    /// An `a{ss}` with these pairs in order (a Swift dictionary literal would merge the names).
    static func pairs(_ pairs: [(String, String)]) -> BusValue {
        .array(element: "{ss}", pairs.map { .dictEntry(.string($0.0), .string($0.1)) })
    }

    /// Before: the CreateItem below stored one pair, "e\u{301}" with the value "precomposed":
    /// neither pair the client sent could be found.
    @Test("two canonically equivalent attribute names in one call are InvalidArgs, and nothing is written")
    func equivalentAttributeNames() throws {
        let provider = try Provider(bus: try PrivateBus())
        let client = try LimitsTests.Client(provider)
        let connection = client.connection
        func call(_ path: String, _ interface: String, _ member: String, _ values: [BusValue]) throws(BusError) -> [BusValue] {
            try connection.call(destination: "org.freedesktop.secrets", path: path, interface: interface, member: member, values)
        }
        let attributes = Self.pairs([("e\u{301}", "decomposed"), ("\u{E9}", "precomposed")])
        let secret = BusValue.structure([client.session, .bytes([]), .bytes(Array("pw".utf8)), .string("text/plain")])
        let collection = Self.root + "/collection/default"
        var refused: BusError?
        do throws(BusError) {
            _ = try call(collection, "org.freedesktop.Secret.Collection", "CreateItem",
                         [.array(element: "{sv}", [.dictEntry(.string("org.freedesktop.Secret.Item.Attributes"), .variant(attributes))]),
                          secret, .boolean(false)])
        } catch { refused = error }
        #expect(refused?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(refused.map { !$0.message.contains("composed") } == true, "no attribute value in the error")
        let items = try call(collection, "org.freedesktop.DBus.Properties", "Get", [.string("org.freedesktop.Secret.Collection"), .string("Items")])
        #expect(items.first?.unwrapped.paths == [])

        // Searching with such a pair, or setting it on an item, is refused the same way.
        #expect(busErrorName { () throws(BusError) in
            try call(Self.root, "org.freedesktop.Secret.Service", "SearchItems", [attributes])
        } == "org.freedesktop.DBus.Error.InvalidArgs")
        let item = try client.create(Array("pw".utf8), attribute: "v")
        #expect(busErrorName { () throws(BusError) in
            try call(item, "org.freedesktop.DBus.Properties", "Set",
                     [.string("org.freedesktop.Secret.Item"), .string("Attributes"), .variant(attributes)])
        } == "org.freedesktop.DBus.Error.InvalidArgs")
        // Each spelling alone is an ordinary name, kept as sent.
        let stored = try client.create(Array("pw".utf8), attribute: "w")
        _ = try call(stored, "org.freedesktop.DBus.Properties", "Set",
                     [.string("org.freedesktop.Secret.Item"), .string("Attributes"), .variant(Self.pairs([("e\u{301}", "decomposed")]))])
        let found = try call(Self.root, "org.freedesktop.Secret.Service", "SearchItems", [Self.pairs([("e\u{301}", "decomposed")])])
        #expect(found.first?.paths == [stored])
        #expect(provider.isRunning)
    }

    /// Before: this process, granted "cafe\u{301}", read the item of the group "caf\u{E9}"
    /// (granted only to another program) through that group's collection path.
    @Test("a group granted in one spelling does not open the other spelling's collection")
    func equivalentGroupNames() throws {
        let me = try #require(CallerExecutable.path(of: getpid()))
        let setup = try PerBinaryAccessTests.Setup(groups: [Self.precomposed], alsoGranted: [me], theirGroups: [Self.decomposed])
        let theirs = ObjectPaths.collection(Self.precomposed)
        #expect(theirs == Self.root + "/collection/caf_c3_a9")
        let stored = try setup.run(setup.granted, ["store", "--label=Cafe", "--collection=\(theirs)", "app", "cafe"], stdin: "nfc-secret")
        #expect(stored.status == 0, "\(stored)")
        let listing = try setup.run(setup.granted, ["search", "app", "cafe"])
        let idLine = try #require((listing.stdout + listing.stderr).split(separator: "\n").first { $0.hasPrefix("[/") })
        let item = theirs + "/" + idLine.dropFirst(2).dropLast()

        let client = try LimitsTests.Client(setup.provider)
        func call(_ path: String, _ interface: String, _ member: String, _ values: [BusValue]) throws(BusError) -> [BusValue] {
            try client.connection.call(destination: "org.freedesktop.secrets", path: path, interface: interface, member: member, values)
        }
        #expect(busErrorName { () throws(BusError) in
            try call(item, "org.freedesktop.Secret.Item", "GetSecret", [client.session])
        } == "org.freedesktop.DBus.Error.UnknownObject")
        #expect(busErrorName { () throws(BusError) in
            try call(theirs, "org.freedesktop.Secret.Collection", "SearchItems", [Self.pairs([])])
        } == "org.freedesktop.DBus.Error.UnknownObject")
        #expect(try client.getSecrets([item]).first?.elements?.isEmpty == true)
        let collections = try call(Self.root, "org.freedesktop.DBus.Properties", "Get",
                                   [.string("org.freedesktop.Secret.Service"), .string("Collections")])
        #expect(collections.first?.unwrapped.paths == [Self.root + "/collection/default", Self.root + "/collection/cafe_cc_81"])
        // The owner still reads it.
        #expect(try setup.run(setup.granted, ["lookup", "app", "cafe"]).stdout == "nfc-secret")
    }
}

import Foundation
@testable import SecretService
import Testing

/// Calls whose reply or cost would exceed what one call may take (docs/secret-service.md,
/// "Limits"): the provider answers `LimitsExceeded` and keeps serving, and when the bus does
/// drop it, it exits with a failure status so that a service manager restarts it.
@Suite("Limits")
struct LimitsTests {
    static let service = "org.freedesktop.Secret.Service"
    static let root = "/org/freedesktop/secrets"
    static let limitsExceeded = "org.freedesktop.DBus.Error.LimitsExceeded"

    /// A client connection to a provider, with an open session.
    struct Client {
        let connection: BusConnection
        let session: BusValue

        init(_ provider: Provider) throws {
            connection = try BusConnection(address: provider.bus.address)
            session = try connection.call(destination: "org.freedesktop.secrets", path: LimitsTests.root, interface: LimitsTests.service,
                                          member: "OpenSession", [.string("plain"), .variant(.string(""))])[1]
        }

        /// Stores `secret` in the default collection; the item's path.
        func create(_ secret: [UInt8], attribute: String) throws -> String {
            let value = BusValue.structure([session, .bytes([]), .bytes(secret), .string("text/plain")])
            let created = try connection.call(destination: "org.freedesktop.secrets", path: LimitsTests.root + "/collection/default",
                                              interface: "org.freedesktop.Secret.Collection", member: "CreateItem",
                                              [.properties(["org.freedesktop.Secret.Item.Attributes": .stringDictionary(["k": attribute])]),
                                               value, .boolean(false)])
            return try #require(created.first?.text)
        }

        func getSecrets(_ paths: [String]) throws(BusError) -> [BusValue] {
            try connection.call(destination: "org.freedesktop.secrets", path: LimitsTests.root, interface: LimitsTests.service,
                                member: "GetSecrets", [.objectPaths(paths), session])
        }
    }

    /// Before: 40 copies of a 1 MiB item's path made a 40 MiB reply, above the bus daemon's
    /// 32 MiB limit; the daemon disconnected the provider, which exited, for every client.
    @Test("GetSecrets answers a path given many times once")
    func duplicatePaths() throws {
        let provider = try Provider(bus: try PrivateBus())
        let client = try Client(provider)
        let item = try client.create([UInt8](repeating: 0x78, count: 1 << 20), attribute: "big")
        let reply = try client.getSecrets(Array(repeating: item, count: 40))
        let entries = try #require(reply.first?.elements)
        #expect(entries.count == 1)
        #expect(provider.isRunning)
    }

    /// Before: three distinct 12 MiB items made a 36 MiB reply: the provider was dropped by
    /// the bus. Now the call answers LimitsExceeded, and each item can still be read alone.
    @Test("GetSecrets whose secrets would not fit in one D-Bus message is LimitsExceeded")
    func replyTooLarge() throws {
        let provider = try Provider(bus: try PrivateBus())
        let client = try Client(provider)
        let secret = [UInt8](repeating: 0x79, count: 12 << 20)
        let items = try (0..<3).map { try client.create(secret, attribute: "big\($0)") }
        #expect(busErrorName { () throws(BusError) in try client.getSecrets(items) } == Self.limitsExceeded)
        #expect(provider.isRunning)
        let one = try client.getSecrets([items[0]])
        #expect(one.first?.elements?.count == 1)
        #expect(!provider.log.contains("yyyy"))
    }

    /// Before: each path was one store read, however many; 300,000 made-up ids kept every other
    /// client waiting for seconds. Now more than the per-call maximum is refused before any read.
    @Test("GetSecrets with more distinct paths than the maximum is LimitsExceeded")
    func tooManyPaths() throws {
        let provider = try Provider(bus: try PrivateBus())
        let client = try Client(provider)
        let paths = (0...SecretServiceProvider.maximumSecretsPerCall).map {
            Self.root + "/collection/default/" + String(format: "%032x", $0)
        }
        #expect(busErrorName { () throws(BusError) in try client.getSecrets(paths) } == Self.limitsExceeded)
        let fewer = try client.getSecrets(Array(paths.prefix(SecretServiceProvider.maximumSecretsPerCall)))
        #expect(fewer.first?.elements?.isEmpty == true)
        #expect(provider.isRunning)
    }

    /// Each secret of a reply travels in a memfd of its own, a descriptor held until the reply
    /// is sent. A provider held to 64 descriptors (`prlimit`, soft and hard: it raises its soft
    /// limit only to the hard one) answers a `GetSecrets` of 100 items `LimitsExceeded`, keeps
    /// running, and serves a few items after: the descriptors the given-up reply held are back.
    @Test("GetSecrets with more secrets than the provider has descriptors for is LimitsExceeded")
    func descriptorsExhausted() throws {
        let provider = try Provider(bus: try PrivateBus())
        let client = try Client(provider)
        let items = try (0..<100).map { try client.create(Array("secret \($0)".utf8), attribute: "fd\($0)") }
        let limited = try Programs.run(try Programs.require("prlimit"), ["--pid", "\(provider.processIdentifier)", "--nofile=64:64"],
                                         environment: ProcessInfo.processInfo.environment)
        try #require(limited.status == 0, "prlimit: \(limited)")
        #expect(busErrorName { () throws(BusError) in try client.getSecrets(items) } == Self.limitsExceeded)
        #expect(provider.isRunning)
        for _ in 0..<3 {
            let few = try client.getSecrets(Array(items.prefix(5)))
            #expect(few.first?.elements?.count == 5)
        }
        #expect(provider.isRunning)
    }

    /// Before: the provider returned normally (status 0) when the bus dropped it, so
    /// systemd's `Restart=on-failure` left the Secret Service down.
    @Test("the provider exits with a failure status when its bus connection ends")
    func exitsNonZeroWhenDropped() throws {
        let bus = try PrivateBus()
        let provider = try Provider(bus: bus)
        bus.stop()
        #expect(provider.waitForExit() != 0)
        #expect(provider.log.contains("The bus connection ended"), "\(provider.log)")
    }
}

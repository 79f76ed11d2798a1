import Foundation
import SecStore
import SecStoreTestSupport
import Synchronization
@testable import SecretService
import Testing

/// A call's arguments are read from the message only once its signature matched the method's.
/// Reading a body builds one value per element: a 30 MiB `SearchItems` of a shape no method
/// takes (`a(yyyyyyyy)`) cost the provider 1.8 GB and 41 s before it answered `InvalidArgs`,
/// while every other client waited (found by a helper session's audit). These calls go
/// straight to the provider's handler with a reader that records whether it was asked.
@Suite struct ArgumentReadingTests {
    final class Reads: Sendable {
        let count = Atomic<Int>(0)
    }

    func call(_ member: String, signature: String, path: String = ObjectPaths.service, reads: Reads,
              arguments: [BusValue] = []) -> BusCall {
        BusCall(path: path, interface: "org.freedesktop.Secret.Service", member: member, sender: ":1.7",
                signature: signature, readArguments: { () throws(BusError) in
                    reads.count.add(1, ordering: .relaxed)
                    return arguments
                })
    }

    /// The D-Bus error name the call fails with, or nil when it succeeds.
    func errorName(_ provider: SecretServiceProvider, _ call: BusCall) -> String? {
        do throws(BusError) {
            _ = try provider.handle(call)
            return nil
        } catch {
            return error.name
        }
    }

    @Test func aSignatureNoMethodTakesIsRefusedUnread() throws {
        let directory = TemporaryDirectory()
        let store = try SecretStore(at: directory.url.appending(path: "s.secstore"),
                                    options: .init(access: .owner, deviceKeyURL: directory.url.appending(path: "device.key")))
        let provider = SecretServiceProvider(store: store, access: CollectionAccess())
        let reads = Reads()
        #expect(errorName(provider, call("SearchItems", signature: "a(yyyyyyyy)", reads: reads)) == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(errorName(provider, call("NoSuchMethod", signature: "au", reads: reads)) == "org.freedesktop.DBus.Error.UnknownMethod")
        #expect(reads.count.load(ordering: .relaxed) == 0)

        // The method's own signature: read, once.
        let found = try provider.handle(call("SearchItems", signature: "a{ss}", reads: reads,
                                             arguments: [.array(element: "{ss}", [.dictEntry(.string("k"), .string("v"))])]))
        #expect(found.count == 2)
        #expect(reads.count.load(ordering: .relaxed) == 1)
    }
}

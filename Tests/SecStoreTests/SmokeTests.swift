import Foundation
import Testing
@testable import SecStore

@Suite struct SmokeTests {
    @Test func addReadReopen() throws {
        let dir = TemporaryDirectory()
        do {
            let store = try dir.openStore()
            try store.add(.genericPassword(service: "s", account: "a", data: "pw".utf8Data))
            let found = try store.items(matching: Query(service: "s", account: "a", returning: [.data, .attributes]))
            #expect(found.count == 1)
            #expect(found[0].data == "pw".utf8Data)
            #expect(found[0].attributes.accessGroup == TestEntitlements.g1)
        }
        let reopened = try dir.openStore()
        #expect(try reopened.string(forAccount: "a", service: "s") == "pw")
    }
}

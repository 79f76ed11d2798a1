import Foundation
import SecStore
import Testing

@Suite("secstore identity")
struct IdentityTests {
    private let uuidPattern = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}\n$/

    @Test("identity show prints one UUID, the same every time, kept in the default group")
    func show() throws {
        let store = try CLIStore.created()
        let first = try store.run("identity", "show")
        #expect(first.status == Exit.success, "\(first)")
        #expect(first.stdout.wholeMatch(of: uuidPattern) != nil, "\(first.stdout)")
        #expect(try store.run("identity", "show").stdout == first.stdout)

        let stored = try store.open().items(matching: Query(service: "secstore.device-identity", account: "device-uuid",
                                                            accessGroup: "local.secstore", returning: .data))
        #expect(stored.first?.data == Data(first.stdout.dropLast().utf8))

        let lowercase = try store.run("identity", "show", "--lowercase")
        #expect(lowercase.stdout == first.stdout.lowercased())
    }

    @Test("identity --json gives the UUID, its provenance and group")
    func json() throws {
        let store = try CLIStore.created()
        let created = try store.run("identity", "show", "--json").jsonObject()
        #expect(created["provenance"] as? String == "generated")
        #expect(created["accessGroup"] as? String == "local.secstore")
        let uuid = try #require(created["uuid"] as? String)
        #expect(UUID(uuidString: uuid) != nil)
        let again = try store.run("identity", "show", "--json").jsonObject()
        #expect(again["provenance"] as? String == "store")
        #expect(again["uuid"] as? String == uuid)
    }

    @Test("identity reset gives a new UUID that show then returns; --group keeps its own")
    func reset() throws {
        let store = try CLIStore.created()
        let before = try store.run("identity", "show").stdout
        let vendor = try store.run("identity", "show", "--group", "ABCDE12345.com.example.shared").stdout
        #expect(vendor != before)

        let reset = try store.run("identity", "reset")
        #expect(reset.status == Exit.success)
        #expect(reset.stdout.wholeMatch(of: uuidPattern) != nil)
        #expect(reset.stdout != before)
        #expect(try store.run("identity", "show").stdout == reset.stdout)
        #expect(try store.run("identity", "show", "--group", "ABCDE12345.com.example.shared").stdout == vendor,
                "a reset in one group leaves another group's identifier alone")
    }
}

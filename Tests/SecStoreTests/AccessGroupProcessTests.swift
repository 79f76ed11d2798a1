import Foundation
import Testing
@testable import SecStore

/// Two apps of one team, as separate processes with different entitlements, on one store
/// file: each sees its own private group and the shared group, never the other's private
/// group, and gets `missingEntitlement` for any group it is not entitled to.
@Suite struct AccessGroupProcessTests {
    static let mail = "ABCDE12345.com.example.mail"
    static let maps = "ABCDE12345.com.example.maps"
    static let shared = "ABCDE12345.com.example.shared"
    static let foreign = "ZZZZZ99999.com.other.private"

    func run(_ app: String, _ op: String, account: String, group: String?, value: String? = nil, in dir: TemporaryDirectory) throws -> String {
        var arguments = ["op", "--store", dir.storeURL.path, "--device-key", dir.deviceKeyURL.path,
                         "--app-id", app, "--group", app, "--group", Self.shared,
                         "--op", op, "--service", "matrix", "--account", account]
        if let group { arguments += ["--in-group", group] }
        if let value { arguments += ["--value", value] }
        return try helper.run(arguments).lines.joined(separator: "\n")
    }

    @Test func ownPrivateGroup() throws {
        let dir = TemporaryDirectory()
        #expect(try run(Self.mail, "add", account: "own", group: Self.mail, value: "v1", in: dir) == "ok")
        #expect(try run(Self.mail, "read", account: "own", group: Self.mail, in: dir) == "ok v1")
        #expect(try run(Self.mail, "update", account: "own", group: Self.mail, value: "v2", in: dir) == "ok")
        #expect(try run(Self.mail, "read", account: "own", group: nil, in: dir) == "ok v2")
        #expect(try run(Self.mail, "delete", account: "own", group: Self.mail, in: dir) == "ok")
        #expect(try run(Self.mail, "read", account: "own", group: nil, in: dir) == "error itemNotFound -25300")
    }

    @Test func sharedGroupIsSeenByBothWithoutReopening() throws {
        let dir = TemporaryDirectory()
        #expect(try run(Self.mail, "add", account: "team", group: Self.shared, value: "from-mail", in: dir) == "ok")
        #expect(try run(Self.maps, "read", account: "team", group: nil, in: dir) == "ok from-mail")
        #expect(try run(Self.maps, "update", account: "team", group: Self.shared, value: "from-maps", in: dir) == "ok")
        #expect(try run(Self.mail, "read", account: "team", group: Self.shared, in: dir) == "ok from-maps")
        #expect(try run(Self.maps, "delete", account: "team", group: nil, in: dir) == "ok")
        #expect(try run(Self.mail, "read", account: "team", group: nil, in: dir) == "error itemNotFound -25300")

        // And a long-lived handle sees another process's changes on its next call.
        let store = try SecretStore(at: dir.storeURL, options: .init(
            access: .entitled(Entitlements(applicationIdentifier: Self.mail, keychainAccessGroups: [Self.mail, Self.shared])),
            deviceKeyURL: dir.deviceKeyURL))
        #expect(try run(Self.maps, "add", account: "live", group: Self.shared, value: "one", in: dir) == "ok")
        #expect(try store.string(forAccount: "live", service: "matrix") == "one")
        #expect(try run(Self.maps, "update", account: "live", group: Self.shared, value: "two", in: dir) == "ok")
        #expect(try store.string(forAccount: "live", service: "matrix") == "two")
        #expect(try run(Self.maps, "delete", account: "live", group: Self.shared, in: dir) == "ok")
        #expect(try store.string(forAccount: "live", service: "matrix") == nil)
    }

    @Test func otherAppsPrivateGroupIsInvisibleAndForbidden() throws {
        let dir = TemporaryDirectory()
        #expect(try run(Self.maps, "add", account: "secret", group: Self.maps, value: "maps-only", in: dir) == "ok")
        let missing = "error missingEntitlement -34018"
        #expect(try run(Self.mail, "add", account: "secret", group: Self.maps, value: "x", in: dir) == missing)
        #expect(try run(Self.mail, "read", account: "secret", group: Self.maps, in: dir) == missing)
        #expect(try run(Self.mail, "update", account: "secret", group: Self.maps, value: "x", in: dir) == missing)
        #expect(try run(Self.mail, "delete", account: "secret", group: Self.maps, in: dir) == missing)
        // Without naming the group, the item simply does not exist for mail.
        let notFound = "error itemNotFound -25300"
        #expect(try run(Self.mail, "read", account: "secret", group: nil, in: dir) == notFound)
        #expect(try run(Self.mail, "update", account: "secret", group: nil, value: "x", in: dir) == notFound)
        #expect(try run(Self.mail, "delete", account: "secret", group: nil, in: dir) == notFound)
        #expect(try run(Self.maps, "read", account: "secret", group: nil, in: dir) == "ok maps-only")
    }

    @Test func unentitledGroupIsForbiddenForEveryOperation() throws {
        let dir = TemporaryDirectory()
        let missing = "error missingEntitlement -34018"
        for op in ["add", "read", "update", "delete"] {
            #expect(try run(Self.mail, op, account: "x", group: Self.foreign, value: "v", in: dir) == missing, "\(op)")
        }
    }

    @Test func ownerSeesEveryGroup() throws {
        let dir = TemporaryDirectory()
        #expect(try run(Self.mail, "add", account: "a", group: Self.mail, value: "1", in: dir) == "ok")
        #expect(try run(Self.maps, "add", account: "b", group: Self.maps, value: "2", in: dir) == "ok")
        #expect(try run(Self.maps, "add", account: "c", group: Self.shared, value: "3", in: dir) == "ok")
        let owner = try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL))
        let all = try owner.items(matching: Query(service: "matrix", limit: .all, returning: .attributes))
        #expect(Set(all.compactMap(\.attributes.accessGroup)) == [Self.mail, Self.maps, Self.shared])
        let addWithoutGroup = try #require(throws: SecStoreError.self) {
            try owner.add(.genericPassword(service: "matrix", account: "d"))
        }
        #expect(addWithoutGroup.code == .invalidParameter)
    }
}

import Foundation
import SecStore

/// `Fixtures/format-v1`: written by the format-1 SecStore (before the passphrase-protected and
/// free-form items of the later fixtures): both item classes, two groups, six accessibility
/// classes, every kind of attribute value, an updated item and a deleted one. No passphrase.
extension StoreFixture {
    static let formatV1 = StoreFixture(version: 1, accessGroups: [shared, second], passphrase: nil, entries: v1Entries)

    /// Also the first items of every later fixture.
    static let v1Entries: [Entry] = [
        Entry(
            name: "alice",
            item: {
                var item = Item.genericPassword(service: "fixture.api", account: "alice", data: Data("alice-secret-v1".utf8),
                                                label: "Fixture API")
                item.attributes.comment = "first item"
                item.attributes[.generic] = .data(Data([0, 1, 2, 0xFF]))
                return item
            }(),
            expectedAttributes: [
                .service: "fixture.api", .account: "alice", .label: "Fixture API", .comment: "first item",
                .generic: .data(Data([0, 1, 2, 0xFF])), .accessGroup: .string(shared), .accessible: "ak",
                .synchronizable: .number(0),
            ],
            expectedData: Data("alice-secret-v1".utf8)),
        Entry(
            name: "bob",
            item: {
                var item = Item.genericPassword(service: "fixture.api", account: "bob", data: Data(0..<32),
                                                accessGroup: second, accessibility: .afterFirstUnlock)
                item.attributes.itemDescription = "application password"
                item.attributes[.creator] = .number(0x4142_4344)
                item.attributes[.type] = .number(7)
                item.attributes.isInvisible = true
                item.attributes.isNegative = false
                return item
            }(),
            expectedAttributes: [
                .service: "fixture.api", .account: "bob", .itemDescription: "application password",
                .creator: .number(0x4142_4344), .type: .number(7), .isInvisible: .number(1), .isNegative: .number(0),
                .accessGroup: .string(second), .accessible: "ck", .synchronizable: .number(0),
            ],
            expectedData: Data(0..<32)),
        Entry(
            name: "carol",
            item: .genericPassword(service: "fixture.sync", account: "carol", data: Data("synced-secret".utf8),
                                   accessibility: .always, synchronizable: true),
            expectedAttributes: [
                .service: "fixture.sync", .account: "carol", .accessGroup: .string(shared), .accessible: "dk",
                .synchronizable: .number(1),
            ],
            expectedData: Data("synced-secret".utf8)),
        Entry(
            name: "empty",
            item: Item(itemClass: .genericPassword, attributes: [.service: "fixture.empty", .accessible: "dku"]),
            expectedAttributes: [
                .service: "fixture.empty", .account: "", .accessGroup: .string(shared), .accessible: "dku",
                .synchronizable: .number(0),
            ],
            expectedData: Data()),
        Entry(
            name: "frank",
            item: .genericPassword(service: "fixture.updated", account: "frank", data: Data("before-update".utf8)),
            update: ItemChanges(attributes: [.label: "updated"], data: Data("after-update".utf8)),
            expectedAttributes: [
                .service: "fixture.updated", .account: "frank", .label: "updated", .accessGroup: .string(shared),
                .accessible: "ak", .synchronizable: .number(0),
            ],
            expectedData: Data("after-update".utf8)),
        Entry(
            name: "zoe",
            item: .genericPassword(service: "fixture.unicode", account: "zoë-ß-日本", data: Data("пароль🔑".utf8), label: "Ünïcödé"),
            expectedAttributes: [
                .service: "fixture.unicode", .account: "zoë-ß-日本", .label: "Ünïcödé", .accessGroup: .string(shared),
                .accessible: "ak", .synchronizable: .number(0),
            ],
            expectedData: Data("пароль🔑".utf8)),
        Entry(
            name: "dave",
            item: .internetPassword(server: "example.com", account: "dave", data: Data("inet-secret".utf8), protocol: .https,
                                    port: 443, path: "/login", authenticationType: .default, securityDomain: "realm",
                                    accessibility: .whenUnlockedThisDeviceOnly),
            expectedAttributes: [
                .server: "example.com", .account: "dave", .protocol: "htps", .port: .number(443), .path: "/login",
                .authenticationType: "dflt", .securityDomain: "realm", .accessGroup: .string(shared), .accessible: "aku",
                .synchronizable: .number(0),
            ],
            expectedData: Data("inet-secret".utf8)),
        Entry(
            name: "erin",
            item: {
                var item = Item.internetPassword(server: "placeholder", account: "erin", data: Data("erin-secret".utf8),
                                                 protocol: .ssh, accessGroup: second,
                                                 accessibility: .afterFirstUnlockThisDeviceOnly)
                item.attributes[.server] = .data(Data("data.example.org".utf8))
                item.attributes[.port] = "8443"
                return item
            }(),
            expectedAttributes: [
                .server: .data(Data("data.example.org".utf8)), .account: "erin", .protocol: "ssh ", .port: .number(8443),
                .path: "", .authenticationType: "", .securityDomain: "", .accessGroup: .string(second), .accessible: "cku",
                .synchronizable: .number(0),
            ],
            expectedData: Data("erin-secret".utf8)),
    ]
}

import Foundation
import SecStore

/// `Fixtures/format-v2`: the version-1 items, and what version 2 adds to them: a passphrase,
/// so every class but `dk`/`dku` is sealed behind it, a `whenPasscodeSetThisDeviceOnly` item,
/// which exists only with one, a third group, and data that is valid UTF-8 (it must stay data).
extension StoreFixture {
    static let formatV2 = StoreFixture(version: 2, accessGroups: [shared, second, third], passphrase: "fixture passphrase v2",
                                       entries: v1Entries + v2Entries)

    /// Also items of every later fixture.
    static let v2Entries: [Entry] = [
        Entry(
            name: "henry",
            item: {
                var item = Item.genericPassword(service: "fixture.passcode", account: "henry", data: Data("passcode-only-secret".utf8),
                                                accessGroup: third, accessibility: .whenPasscodeSetThisDeviceOnly, label: "Passcode only")
                item.attributes[.generic] = .data(Data("UTF-8 text kept as data".utf8))
                return item
            }(),
            expectedAttributes: [
                .service: "fixture.passcode", .account: "henry", .label: "Passcode only",
                .generic: .data(Data("UTF-8 text kept as data".utf8)), .accessGroup: .string(third), .accessible: "akpu",
                .synchronizable: .number(0),
            ],
            expectedData: Data("passcode-only-secret".utf8)),
        Entry(
            name: "iris",
            item: {
                var item = Item.internetPassword(server: "files.example.net", account: "iris", data: Data([0, 0, 0xFE, 0x41]),
                                                 protocol: .ftps, port: 990, path: "/upload", authenticationType: .ntlm, accessGroup: third,
                                                 accessibility: .afterFirstUnlock)
                item.attributes.comment = "before the update"
                item.attributes.isNegative = true
                return item
            }(),
            update: ItemChanges(attributes: [.comment: "after the update"], data: Data([0xFF, 0, 0x41, 0])),
            expectedAttributes: [
                .server: "files.example.net", .account: "iris", .protocol: "ftps", .port: .number(990), .path: "/upload",
                .authenticationType: "ntlm", .securityDomain: "", .comment: "after the update", .isNegative: .number(1),
                .accessGroup: .string(third), .accessible: "ck", .synchronizable: .number(0),
            ],
            expectedData: Data([0xFF, 0, 0x41, 0])),
    ]
}

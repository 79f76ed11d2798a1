import Foundation
import SecStore

/// `Fixtures/format-v4`: the version-3 items, and synchronizable items written by a SecStore
/// with the sync journal (version 4; the store was never in a sync circle, so the journal is
/// empty): an internet password behind the passphrase with free-form attributes, and a generic
/// one updated after the add.
extension StoreFixture {
    static let formatV4 = StoreFixture(version: 4, accessGroups: [shared, second, third], passphrase: "fixture passphrase v4",
                                       entries: v1Entries + v2Entries + v3Entries + v4Entries,
                                       notes: customNotes(v3Entries + v4Entries))

    static let v4Entries: [Entry] = [
        Entry(
            name: "nora",
            item: {
                var item = withCustom(.internetPassword(server: "sync.example.com", account: "nora", data: Data("nora-synced".utf8),
                                                        protocol: .https, port: 443, accessibility: .afterFirstUnlock),
                                      ["user": "nora", "synced": "yes"])
                item.attributes[.synchronizable] = .number(1)
                return item
            }(),
            expectedAttributes: withCustom([
                .server: "sync.example.com", .account: "nora", .protocol: "htps", .port: .number(443), .path: "",
                .authenticationType: "", .securityDomain: "", .accessGroup: .string(shared), .accessible: "ck",
                .synchronizable: .number(1),
            ], ["user": "nora", "synced": "yes"]),
            expectedData: Data("nora-synced".utf8)),
        Entry(
            name: "owen",
            item: .genericPassword(service: "fixture.sync", account: "owen", data: Data("owen-before".utf8),
                                   accessGroup: second, synchronizable: true),
            update: ItemChanges(attributes: [.label: "synced and updated"], data: Data("owen-after".utf8)),
            expectedAttributes: [
                .service: "fixture.sync", .account: "owen", .label: "synced and updated", .accessGroup: .string(second),
                .accessible: "ak", .synchronizable: .number(1),
            ],
            expectedData: Data("owen-after".utf8)),
    ]
}

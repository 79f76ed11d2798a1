import Foundation
import SecStore

/// `Fixtures/format-v3`: the version-2 items, and free-form attributes (``Attributes/custom``,
/// new in version 3) on items of both classes, a synchronizable one, a locked class and an
/// always-readable one, and a set replaced by an update (its old pairs must be gone).
extension StoreFixture {
    static let formatV3 = StoreFixture(version: 3, accessGroups: [shared, second, third], passphrase: "fixture passphrase v3",
                                       entries: v1Entries + v2Entries + v3Entries, notes: customNotes(v3Entries))

    /// Also items of every later fixture.
    static let v3Entries: [Entry] = [
        Entry(
            name: "jack",
            item: withCustom(.genericPassword(service: "fixture.custom", account: "jack", data: Data("custom-attributes".utf8)),
                             ["xdg:schema": "org.freedesktop.Secret.Generic", "user": "jack", "ünïcödé näme": "välüe 日本"]),
            expectedAttributes: withCustom([
                .service: "fixture.custom", .account: "jack", .accessGroup: .string(shared), .accessible: "ak",
                .synchronizable: .number(0),
            ], ["xdg:schema": "org.freedesktop.Secret.Generic", "user": "jack", "ünïcödé näme": "välüe 日本"]),
            expectedData: Data("custom-attributes".utf8)),
        Entry(
            name: "kate",
            item: withCustom(.internetPassword(server: "custom.example.com", account: "kate", data: Data("kate-secret".utf8),
                                               protocol: .https, accessGroup: second, accessibility: .alwaysThisDeviceOnly),
                             ["purpose": "ci", "user": "kate"]),
            expectedAttributes: withCustom([
                .server: "custom.example.com", .account: "kate", .protocol: "htps", .port: .number(0), .path: "",
                .authenticationType: "", .securityDomain: "", .accessGroup: .string(second), .accessible: "dku",
                .synchronizable: .number(0),
            ], ["purpose": "ci", "user": "kate"]),
            expectedData: Data("kate-secret".utf8)),
        Entry(
            name: "liam",
            item: withCustom(.genericPassword(service: "fixture.custom", account: "liam", data: Data("liam-secret".utf8),
                                              accessGroup: third, accessibility: .afterFirstUnlock),
                             ["state": "before the update", "removed": "by the update"]),
            update: ItemChanges(customAttributes: ["state": "after the update"]),
            expectedAttributes: withCustom([
                .service: "fixture.custom", .account: "liam", .accessGroup: .string(third), .accessible: "ck",
                .synchronizable: .number(0),
            ], ["state": "after the update"]),
            expectedData: Data("liam-secret".utf8)),
        Entry(
            name: "mia",
            item: withCustom(.genericPassword(service: "fixture.custom", account: "mia", data: Data("mia-secret".utf8),
                                              accessibility: .always, synchronizable: true),
                             ["user": "mia"]),
            expectedAttributes: withCustom([
                .service: "fixture.custom", .account: "mia", .accessGroup: .string(shared), .accessible: "dk",
                .synchronizable: .number(1),
            ], ["user": "mia"]),
            expectedData: Data("mia-secret".utf8)),
    ]

    static func withCustom(_ item: Item, _ custom: [String: String]) -> Item {
        var item = item
        item.attributes.custom = custom
        return item
    }

    static func withCustom(_ attributes: Attributes, _ custom: [String: String]) -> Attributes {
        var attributes = attributes
        attributes.custom = custom
        return attributes
    }

    /// The README's lines for the free-form attributes, which its table leaves out.
    static func customNotes(_ entries: [Entry]) -> [String] {
        ["Free-form attributes (`Attributes.custom`, sealed in the metadata and indexed in `item_attributes`):", ""]
            + entries.filter { !$0.expectedAttributes.custom.isEmpty }.map { entry in
                let pairs = entry.expectedAttributes.custom.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                    .map { "\"\($0.key)\": \"\($0.value)\"" }.joined(separator: ", ")
                return "- \(entry.name): \(pairs)"
            }
    }
}

import Foundation
import SecStore

/// The items of the `Fixtures/format-v1` store: how they were written, and exactly what
/// reading them back must give. The expected attributes are spelled out by hand (not
/// computed by the engine's rules) so a change in how the engine reads old files shows.
enum FormatV1Fixture {
    static let directoryName = "format-v1"
    static let storeFileName = "store.secstore"
    static let deviceKeyFileName = "device.key"

    static let shared = "FIXTURE123.org.secstore.shared"
    static let second = "FIXTURE123.org.secstore.second"
    static let entitlements = Entitlements(applicationIdentifier: "FIXTURE123.org.secstore.fixture",
                                           keychainAccessGroups: [shared, second])

    struct Entry: Sendable {
        /// A short name for messages and the README.
        var name: String
        var item: Item
        /// Applied after the add, so the item's modification date is later than its creation.
        var update: ItemChanges?
        var expectedAttributes: Attributes
        var expectedData: Data
    }

    /// Added and then deleted: must not be in the fixture.
    static let deleted = Item.genericPassword(service: "fixture.deleted", account: "gone", data: Data("deleted-secret".utf8))

    static let entries: [Entry] = [
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

    /// Writes every entry (and the deleted item) into `store`.
    static func populate(_ store: SecretStore) throws {
        for entry in entries {
            try store.add(entry.item)
        }
        try store.add(deleted)
        try store.delete(matching: Query(service: "fixture.deleted", account: "gone"))
        for entry in entries {
            guard let update = entry.update else { continue }
            let query = Query(itemClass: entry.item.itemClass, attributes: [
                .service: entry.item.attributes[.service] ?? "", .account: entry.item.attributes[.account] ?? "",
            ])
            try store.update(matching: query, with: update)
        }
    }

    private static func readmeText(_ value: AttributeValue) -> String {
        switch value {
        case .data(let data): "data(\(data.map { String(format: "%02x", $0) }.joined()))"
        case .number(let number): String(number)
        default: value.description
        }
    }

    /// The fixture's README, generated from ``entries`` so it always matches them.
    static func readme() -> String {
        var lines = [
            "# Fixture: store format version 1",
            "",
            "Written by SecStore's current format (`PRAGMA user_version` = 1) with",
            "`SECSTORE_WRITE_FIXTURES=1 swift test --filter FixtureTests` (FixtureTests.writeFormatV1Fixture).",
            "FixtureTests opens a copy of it on every run and checks every item exactly, so later",
            "format versions must keep reading (or migrating) it. Do not regenerate it once a newer",
            "format exists: it stands for the files users already have.",
            "",
            "- `\(storeFileName)`: the store, WAL checkpointed into the file (no `-wal`/`-shm` needed).",
            "- `\(deviceKeyFileName)`: its device key (test data only). Git does not keep file modes;",
            "  the test copies it and sets mode 0600 before opening, as SecStore refuses other modes.",
            "",
            "Entitlements: application identifier `\(entitlements.applicationIdentifier!)`,",
            "keychain access groups `\(shared)` (default) and `\(second)`.",
            "",
            "| item | class | attributes | secret |",
            "| --- | --- | --- | --- |",
        ]
        for entry in entries {
            let attributes = entry.expectedAttributes.sorted { $0.key.rawValue < $1.key.rawValue }
                .map { "\($0.key.rawValue): \(readmeText($0.value))" }.joined(separator: ", ")
            let secret: String
            if entry.expectedData.isEmpty {
                secret = "(none: empty data)"
            } else if let text = String(data: entry.expectedData, encoding: .utf8), !text.contains(where: \.isASCIIControl) {
                secret = "`\(text)`"
            } else {
                secret = "\(entry.expectedData.count) bytes, hex `\(entry.expectedData.map { String(format: "%02x", $0) }.joined())`"
            }
            lines.append("| \(entry.name) | \(entry.item.itemClass) | \(attributes) | \(secret) |")
        }
        lines += [
            "",
            "`frank` was updated after the add (its modification date is later than its creation",
            "date); every other item has equal dates. `fixture.deleted`/`gone` was added and then",
            "deleted and must not appear.",
            "",
        ]
        return lines.joined(separator: "\n")
    }
}

extension Character {
    var isASCIIControl: Bool { isASCII && (asciiValue! < 0x20 || asciiValue! == 0x7F) }
}

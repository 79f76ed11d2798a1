import Foundation
import SecStore

/// A store file written by the SecStore of an earlier format version, kept in
/// `Fixtures/format-v<version>`: how its items were written, and exactly what reading them
/// back must give. The expected attributes are spelled out by hand (not computed by the
/// engine's rules) so a change in how the engine reads old files shows.
///
/// This file and the `FixtureContentsV<n>.swift` files are also compiled, unchanged, into the
/// throwaway writer that `scripts/write-fixture.sh` builds at an old commit: they may use only
/// the public API of the SecStore that writes the fixture (version `n`'s contents only what
/// version `n` has; nothing here may use free-form attributes, which came with version 3).
struct StoreFixture: Sendable, CustomStringConvertible {
    /// The format version its SecStore wrote (`PRAGMA user_version`).
    var version: Int
    /// The groups its items are in; the first is the default.
    var accessGroups: [String]
    /// The store's passphrase (Argon2id limits ``PasswordHashingLimits/minimumForTesting``),
    /// or `nil` for a store without one. Kept in ``passphraseFileName`` beside the store.
    var passphrase: String?
    var entries: [Entry]
    /// Lines the README adds after the table (what the table cannot show).
    var notes: [String] = []

    struct Entry: Sendable {
        /// A short name for messages and the README.
        var name: String
        var item: Item
        /// Applied after the add, so the item's modification date is later than its creation.
        var update: ItemChanges?
        var expectedAttributes: Attributes
        var expectedData: Data
    }

    static let storeFileName = "store.secstore"
    static let deviceKeyFileName = "device.key"
    static let passphraseFileName = "passphrase.txt"
    static let applicationIdentifier = "FIXTURE123.org.secstore.fixture"
    static let shared = "FIXTURE123.org.secstore.shared"
    static let second = "FIXTURE123.org.secstore.second"
    static let third = "FIXTURE123.org.secstore.third"

    /// Added and then deleted: must not be in any fixture.
    static let deleted = Item.genericPassword(service: "fixture.deleted", account: "gone", data: Data("deleted-secret".utf8))

    var directoryName: String { "format-v\(version)" }
    var description: String { directoryName }

    var entitlements: Entitlements {
        Entitlements(applicationIdentifier: Self.applicationIdentifier, keychainAccessGroups: accessGroups)
    }

    /// The files of its directory.
    var fileNames: Set<String> {
        var names: Set<String> = [Self.storeFileName, Self.deviceKeyFileName, "README.md"]
        if passphrase != nil { names.insert(Self.passphraseFileName) }
        return names
    }

    /// Writes every entry (and the deleted item) into `store`, which this SecStore has just
    /// created, after setting the passphrase (this handle stays unlocked).
    func populate(_ store: SecretStore) throws {
        if let passphrase {
            try store.setPassphraseAsOwner(passphrase, limits: .minimumForTesting)
        }
        for entry in entries {
            try store.add(entry.item)
        }
        try store.add(Self.deleted)
        try store.delete(matching: Query(service: "fixture.deleted", account: "gone"))
        for entry in entries {
            guard let update = entry.update else { continue }
            try store.update(matching: Self.primaryKeyQuery(of: entry.item), with: update)
        }
    }

    /// A query for the one item with `item`'s class, service or server, and account.
    static func primaryKeyQuery(of item: Item) -> Query {
        let name: AttributeKey = item.itemClass == .internetPassword ? .server : .service
        return Query(itemClass: item.itemClass, attributes: [
            name: item.attributes[name] ?? "", .account: item.attributes[.account] ?? "",
        ], synchronizable: .any)
    }

    private static func hex(_ data: Data) -> String {
        data.map { String(format: "%02x", $0) }.joined()
    }

    private static func readmeText(_ value: AttributeValue) -> String {
        switch value {
        case .data(let data): "data(\(hex(data)))"
        case .number(let number): String(number)
        default: value.description
        }
    }

    /// The fixture's README, generated from ``entries`` so it always matches them.
    /// `commit` is the commit whose SecStore wrote it.
    func readme(commit: String) -> String {
        var lines = [
            "# Fixture: store format version \(version)",
            "",
            "Written by the SecStore of commit \(commit), which writes format version \(version)",
            "(`PRAGMA user_version` = \(version)), with `scripts/write-fixture.sh \(version) \(commit)`: the script",
            "builds that commit in a git worktree with a throwaway executable (never committed) that runs",
            "`StoreFixture.formatV\(version)` of `Tests/SecStoreTests/Support` through `FixtureWriter`.",
            "FixtureTests opens a copy of it on every run, migrates it and checks every item exactly, so later",
            "format versions must keep reading (or migrating) it. Do not regenerate it with a SecStore that",
            "writes another version (the writer refuses): it stands for the files users already have.",
            "",
            "- `\(Self.storeFileName)`: the store, WAL checkpointed into the file (no `-wal`/`-shm` needed).",
            "- `\(Self.deviceKeyFileName)`: its device key (test data only). Git does not keep file modes;",
            "  the test copies it and sets mode 0600 before opening, as SecStore refuses other modes.",
        ]
        if let passphrase {
            lines += [
                "- `\(Self.passphraseFileName)`: its passphrase (`\(passphrase)`, test data only; Argon2id limits",
                "  `minimumForTesting`). Every class but `dk` and `dku` needs it; `akpu` exists only with it.",
            ]
        }
        lines += [
            "",
            "Entitlements: application identifier `\(Self.applicationIdentifier)`, keychain access groups "
                + accessGroups.enumerated().map { "`\($0.element)`" + ($0.offset == 0 ? " (default)" : "") }.joined(separator: ", ") + ".",
            "",
            "| item | class | attributes | secret |",
            "| --- | --- | --- | --- |",
        ]
        for entry in entries {
            let attributes = entry.expectedAttributes.sorted { $0.key.rawValue < $1.key.rawValue }
                .map { "\($0.key.rawValue): \(Self.readmeText($0.value))" }.joined(separator: ", ")
            let secret: String
            if entry.expectedData.isEmpty {
                secret = "(none: empty data)"
            } else if let text = String(data: entry.expectedData, encoding: .utf8), !text.contains(where: \.isASCIIControl) {
                secret = "`\(text)`"
            } else {
                secret = "\(entry.expectedData.count) bytes, hex `\(Self.hex(entry.expectedData))`"
            }
            lines.append("| \(entry.name) | \(entry.item.itemClass) | \(attributes) | \(secret) |")
        }
        let updated = entries.filter { $0.update != nil }.map { "`\($0.name)`" }.joined(separator: ", ")
        lines += [
            "",
            "\(updated) were updated after the add (their modification date is later than their creation",
            "date); every other item has equal dates. `fixture.deleted`/`gone` was added and then",
            "deleted and must not appear.",
        ]
        if !notes.isEmpty { lines += [""] + notes }
        lines.append("")
        return lines.joined(separator: "\n")
    }
}

extension Character {
    var isASCIIControl: Bool { isASCII && (asciiValue! < 0x20 || asciiValue! == 0x7F) }
}

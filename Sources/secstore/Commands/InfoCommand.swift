import ArgumentParser
import Foundation
import SecStore

/// `secstore info`: what a store holds and how it is protected, without any secret.
struct InfoCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show the store's format, item counts, lock state, KDF parameters and files.",
        discussion: """
        Counts items by class, accessibility and access group. Groups of items whose class is \
        locked are unknown until the store is unlocked: pass the passphrase to count them too.

        Examples:
          secstore info
          secstore info --json
          secstore info --passphrase-file ~/.config/secstore/pass
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let session = try StoreSession(store: storeOptions, passphrase: passphrase)
        let stats = try session.store.statistics()
        if output.json {
            JSONOutput.print(json(stats))
        } else {
            Console.write(text(stats))
        }
    }

    private func json(_ stats: StoreStatistics) -> JSONValue {
        let limits: JSONValue = stats.passphraseLimits.map {
            ["algorithm": "argon2id", "operations": .number(Int64($0.operations)), "memoryBytes": .int($0.memoryBytes)]
        } ?? .null
        return [
            "store": .string(storeOptions.storeURL.path), "deviceKey": .string(storeOptions.deviceKeyURL.path),
            "storeID": .string(stats.storeID.uuidString), "formatVersion": .int(stats.formatVersion),
            "lockState": .string(stats.lockState.rawValue), "kdf": limits,
            "firstUnlockCache": .string(stats.firstUnlockBackend == .kernelKeyring ? "kernelKeyring" : "processMemory"),
            "itemCount": .int(stats.itemCount), "lockedItemCount": .int(stats.lockedItemCount),
            "countsByClass": .object(Dictionary(uniqueKeysWithValues: stats.countsByClass.map { ($0.key.rawValue, .int($0.value)) })),
            "countsByAccessibility": .object(Dictionary(uniqueKeysWithValues: stats.countsByAccessibility.map { ($0.key.description, .int($0.value)) })),
            "countsByGroup": .object(stats.countsByGroup.mapValues { .int($0) }),
            "files": .array(stats.files.map { ["path": .string($0.url.path), "size": .int($0.size)] }),
        ]
    }

    private func text(_ stats: StoreStatistics) -> String {
        var summary = KeyValueList()
        summary.append("Store", storeOptions.storeURL.path)
        summary.append("Store ID", stats.storeID.uuidString)
        summary.append("Format version", String(stats.formatVersion))
        summary.append("Device key", storeOptions.deviceKeyURL.path)
        summary.append("Lock state", Self.describe(stats.lockState))
        summary.append("KDF", stats.passphraseLimits.map {
            "Argon2id, \($0.operations) passes, \(Self.size($0.memoryBytes))"
        } ?? "none (no passphrase)")
        summary.append("First-unlock keys", stats.firstUnlockBackend.description)
        summary.append("Items", "\(stats.itemCount)" + (stats.lockedItemCount > 0 ? " (\(stats.lockedItemCount) in locked classes)" : ""))
        var text = summary.render()
        text += section("By class", stats.countsByClass.map { ($0.key.rawValue, $0.value) })
        text += section("By accessibility", stats.countsByAccessibility.map { ($0.key.description, $0.value) })
        var groups = stats.countsByGroup.map { ($0.key, $0.value) }
        if stats.lockedItemCount > 0 { groups.append(("(locked, unknown)", stats.lockedItemCount)) }
        text += section("By access group", groups)
        var files = KeyValueList()
        for file in stats.files { files.append(file.url.path, "\(file.size) bytes") }
        text += "\nFiles\n" + files.render(indent: "  ")
        return text
    }

    private func section(_ title: String, _ counts: [(String, Int)]) -> String {
        guard !counts.isEmpty else { return "" }
        var list = KeyValueList()
        for (name, count) in counts.sorted(by: { $0.0 < $1.0 }) { list.append(name, String(count)) }
        return "\n\(title)\n" + list.render(indent: "  ")
    }

    static func describe(_ state: LockState) -> String {
        switch state {
        case .noPassphrase: "no passphrase (every class but whenPasscodeSetThisDeviceOnly is readable)"
        case .locked: "locked (passphrase set)"
        case .unlocked: "unlocked"
        }
    }

    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}

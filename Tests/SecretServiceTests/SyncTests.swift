import Foundation
import SecStore
import SecStoreTestSupport
import Testing
@testable import SecretService

/// The provider and SecStore's sync (docs/secret-service.md, "Sync"): with `--synchronizable`
/// or `SECSTORE_SYNCHRONIZABLE=1` what `secret-tool store` creates is synchronizable, and with
/// or without it every lookup sees synchronizable items too (those that arrive from the owner's
/// other devices). Checked through the SecStore library beside the running provider.
@Suite("secstore-secret-service and sync")
struct SyncTests {
    /// The Secret Service items of the default collection of one kind, with their secrets.
    private static func items(_ provider: Provider, _ kind: SynchronizableMatch) throws -> [Item] {
        var query = Query(service: ItemMapping.service, accessGroup: "default", limit: .all, returning: [.attributes, .data])
        query.synchronizable = kind
        do {
            return try provider.openStore().items(matching: query)
        } catch let error as SecStoreError where error.code == .itemNotFound {
            return []
        }
    }

    private static func secrets(_ items: [Item]) -> [String] {
        items.map { String(decoding: $0.data ?? Data(), as: UTF8.self) }
    }

    @Test("with --synchronizable, secret-tool store creates a synchronizable item")
    func optionCreatesSynchronizable() throws {
        let provider = try Provider(bus: try PrivateBus(), arguments: ["--synchronizable"])
        let stored = try provider.secretTool(["store", "--label=Mail", "service", "mail.example.com", "user", "alice"], stdin: "pw-sync")
        #expect(stored.status == 0, "\(stored)")
        let synchronizable = try Self.items(provider, .yes)
        #expect(Self.secrets(synchronizable) == ["pw-sync"])
        #expect(synchronizable.first?.attributes.custom == ["service": "mail.example.com", "user": "alice"])
        #expect(synchronizable.first?.attributes.accessibility == .whenUnlocked)   // not ThisDeviceOnly: it may leave
        #expect(try Self.items(provider, .no).isEmpty)
        #expect(try provider.secretTool(["lookup", "user", "alice"]).stdout == "pw-sync")
    }

    @Test("SECSTORE_SYNCHRONIZABLE=1 does what --synchronizable does")
    func environmentCreatesSynchronizable() throws {
        let provider = try Provider(bus: try PrivateBus(), environment: ["SECSTORE_SYNCHRONIZABLE": "1"])
        _ = try provider.secretTool(["store", "--label=x", "service", "s"], stdin: "from-env")
        #expect(Self.secrets(try Self.items(provider, .yes)) == ["from-env"])
        #expect(try Self.items(provider, .no).isEmpty)
    }

    @Test("without the option, secret-tool store creates an item that stays on the device")
    func defaultIsLocal() throws {
        let provider = try Provider(bus: try PrivateBus(), environment: ["SECSTORE_SYNCHRONIZABLE": "0"])
        _ = try provider.secretTool(["store", "--label=x", "service", "s"], stdin: "local-pw")
        #expect(Self.secrets(try Self.items(provider, .no)) == ["local-pw"])
        #expect(try Self.items(provider, .yes).isEmpty)
    }

    @Test("a SECSTORE_SYNCHRONIZABLE that is neither on nor off stops the provider")
    func badEnvironmentValue() throws {
        let bus = try PrivateBus()
        let directory = TemporaryDirectory("secret-service-sync")
        var environment = bus.clientEnvironment
        environment["SECSTORE_SYNCHRONIZABLE"] = "maybe"
        environment["SECSTORE_KEYRING"] = "off"
        let result = try Programs.run(Programs.productsDirectory.appending(path: "secstore-secret-service"),
                                      ["--store", directory.storeURL.path, "--device-key", directory.deviceKeyURL.path],
                                      environment: environment)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("SECSTORE_SYNCHRONIZABLE must be 1 or 0"), "\(result)")
    }

    /// Stored as another device's provider stores an item, as sync delivers it.
    private static func addSynchronizable(_ provider: Provider, id: String = ItemMapping.newID(), secret: String,
                                          attributes: [String: String]) throws {
        var item = Item.genericPassword(service: ItemMapping.service, account: id, data: Data(secret.utf8),
                                        accessGroup: "default", synchronizable: true, label: "From elsewhere")
        item.attributes.itemDescription = "text/plain"
        item.attributes.custom = attributes
        try provider.openStore().add(item)
    }

    @Test("a synchronizable item from elsewhere is found, replaced keeping its kind, and cleared")
    func synchronizableItemIsSeen() throws {
        let provider = try Provider(bus: try PrivateBus())   // without the option: lookups see both kinds anyway
        try Self.addSynchronizable(provider, secret: "synced-pw", attributes: ["service": "vpn", "user": "bob"])
        let found = try provider.secretTool(["lookup", "service", "vpn", "user", "bob"])
        #expect(found.status == 0, "\(found)")
        #expect(found.stdout == "synced-pw")
        let listed = try provider.secretTool(["search", "--all", "service", "vpn"])
        #expect((listed.stdout + listed.stderr).contains("label = From elsewhere"), "\(listed)")

        // secret-tool store replaces an item with the same attributes: it stays synchronizable,
        // so the new secret reaches the other devices.
        _ = try provider.secretTool(["store", "--label=Renewed", "service", "vpn", "user", "bob"], stdin: "renewed-pw")
        #expect(Self.secrets(try Self.items(provider, .yes)) == ["renewed-pw"])
        #expect(try Self.items(provider, .no).isEmpty)

        let cleared = try provider.secretTool(["clear", "service", "vpn", "user", "bob"])
        #expect(cleared.status == 0, "\(cleared)")
        #expect(try Self.items(provider, .any).isEmpty)
        #expect(try provider.secretTool(["lookup", "service", "vpn"]).status != 0)
    }

    @Test("both kinds under one id are one object: the newest answers, clear removes both")
    func bothKindsUnderOneID() throws {
        let provider = try Provider(bus: try PrivateBus())
        let id = ItemMapping.newID()
        var local = Item.genericPassword(service: ItemMapping.service, account: id, data: Data("older".utf8),
                                         accessGroup: "default", label: "local")
        local.attributes.custom = ["service": "twin"]
        try provider.openStore().add(local)
        try Self.addSynchronizable(provider, id: id, secret: "newer", attributes: ["service": "twin"])
        let listed = try provider.secretTool(["search", "--all", "service", "twin"])
        let text = listed.stdout + listed.stderr
        #expect(text.components(separatedBy: "secret = ").count - 1 == 1, "\(listed)")   // one path, not the same path twice
        #expect(text.contains("secret = newer"), "\(listed)")
        _ = try provider.secretTool(["clear", "service", "twin"])
        #expect(try Self.items(provider, .any).isEmpty)

        // The other way round: the synchronizable copy first, a newer local one after. The
        // newest answers, not the synchronizable one nor the last added.
        let other = ItemMapping.newID()
        try Self.addSynchronizable(provider, id: other, secret: "older-synced", attributes: ["service": "twin2"])
        Thread.sleep(forTimeInterval: 0.01)   // modification dates apart by more than their resolution
        var newer = Item.genericPassword(service: ItemMapping.service, account: other, data: Data("newer-local".utf8),
                                         accessGroup: "default", label: "local")
        newer.attributes.custom = ["service": "twin2"]
        try provider.openStore().add(newer)
        let reversed = try provider.secretTool(["search", "--all", "service", "twin2"])
        #expect((reversed.stdout + reversed.stderr).contains("secret = newer-local"), "\(reversed)")
    }
}

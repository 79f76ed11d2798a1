import Foundation
import SecStore
import SecStoreTestSupport
import Testing
@testable import DeviceIdentity

@Suite struct ScopeAndResetTests {
    @Test func vendorAppsShareTheVendorIDButNotTheirApplicationIDs() throws {
        let directory = TemporaryDirectory()
        let mail = TestApp(appID: "ABCDE12345.com.example.mail", directory: directory)
        let maps = TestApp(appID: "ABCDE12345.com.example.maps", directory: directory)
        let vendor = ["--vendor-group", TestApp.vendorGroup]
        let mailVendor = try helper.run(mail.helperArguments(vendor)).lines.first?.split(separator: " ").first
        let mapsVendor = try helper.run(maps.helperArguments(vendor)).lines.first?.split(separator: " ").first
        let mailApp = try helper.run(mail.helperArguments()).lines.first?.split(separator: " ").first
        let mapsApp = try helper.run(maps.helperArguments()).lines.first?.split(separator: " ").first
        #expect(mailVendor != nil && mailVendor == mapsVendor)
        #expect(mailApp != nil && mapsApp != nil && mailApp != mapsApp)
        #expect(mailApp != mailVendor)
    }

    @Test func resetGivesANewValueToEveryLaterReadInEveryProcess() throws {
        let directory = TemporaryDirectory()
        let app = TestApp(appID: "ABCDE12345.com.example.app", directory: directory)
        let before = try helper.run(app.helperArguments()).lines.first?.split(separator: " ").first.map(String.init)
        let reset = try helper.run(app.helperArguments(["--reset", "yes"])).lines.first?.split(separator: " ").map(String.init)
        #expect(reset?.last == "generated")
        #expect(reset?.first != nil && reset?.first != before)
        for _ in 0..<3 {
            let later = try helper.run(app.helperArguments()).lines.first?.split(separator: " ").map(String.init)
            #expect(later == [reset?.first ?? "", "store"])
        }
        // The old value is gone from the mirror too.
        let mirrored = try String(contentsOf: app.mirrorURL, encoding: .utf8)
        #expect(!mirrored.contains(before ?? "-"))
        #expect(mirrored.contains(reset?.first ?? "-"))
    }

    /// Before: a reset whose mirror could not be written had already committed its new value:
    /// it threw, so the caller took it for a reset that did not happen (and a retry reset
    /// again), while the mirror kept the value reset away, which a wiped store then got back.
    /// The new mirror is now written out before the store changes (only its rename follows
    /// the commit), so a reset that throws for it changed nothing. Here its directory is a
    /// file, so no temporary can be made there.
    @Test func aResetThatCannotWriteTheMirrorChangesNothing() throws {
        let directory = TemporaryDirectory()
        let app = TestApp(appID: "ABCDE12345.com.example.app", directory: directory)
        let before = try app.identity(mirror: false).identifier()
        let blocked = app.mirrorURL.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: blocked.deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: blocked.path, contents: Data("a file".utf8)))
        let error = try #require(throws: SecStoreError.self) { try app.identity().reset() }
        #expect(error.code == .ioFailure && error.message.contains("mirror copy"), "\(error)")
        #expect(try app.identity(mirror: false).identifier() == Identifier(uuid: before.uuid, provenance: .store))
    }

    /// Before: a reset killed after writing its new mirror out under a temporary name and
    /// before renaming it into place left `.device-id.<pid>.<random>.tmp` until the next write
    /// of the mirror — the next reset, maybe never. Now every `identifier()` removes those older
    /// than a minute that no live writer holds; a reset under way in another process (here:
    /// this one, holding its temporary while a helper process reads) keeps its own.
    @Test func aReadRemovesTheTemporaryAKilledResetLeft() throws {
        let directory = TemporaryDirectory()
        let app = TestApp(appID: "ABCDE12345.com.example.app", directory: directory)
        let first = try app.identity().identifier()
        func leftover(ageSeconds: TimeInterval) throws -> URL {
            let name = ".\(app.mirrorURL.lastPathComponent).\(Int.random(in: 100...99_999)).\(String(UInt32.random(in: 1...UInt32.max), radix: 16)).tmp"
            let url = app.mirrorURL.deletingLastPathComponent().appending(path: name)
            #expect(FileManager.default.createFile(atPath: url.path, contents: Data("\(UUID().uuidString) \(app.appID)\n".utf8),
                                                   attributes: [.posixPermissions: 0o600]))
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -ageSeconds)], ofItemAtPath: url.path)
            return url
        }
        // The live writer first: making it sweeps the leftovers already there.
        let live = try MirrorFile(url: app.mirrorURL, group: app.appID).prepare(UUID())
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: live.temporary.path)
        let abandoned = try leftover(ageSeconds: 7200)
        let fresh = try leftover(ageSeconds: 0)

        let read = try helper.run(app.helperArguments())
        #expect(read.lines == ["\(first.string) store"], "\(read.output)")
        #expect(!FileManager.default.fileExists(atPath: abandoned.path), "a killed reset's temporary stays after a read")
        #expect(FileManager.default.fileExists(atPath: fresh.path), "younger than a writer's window between creating and locking")
        #expect(FileManager.default.fileExists(atPath: live.temporary.path), "a reset under way lost its temporary")
        try live.commit(.replace)
        #expect(MirrorFile(url: app.mirrorURL, group: app.appID).read() != nil)
    }

    @Test func defaultsMatchTheSeedMaterialsLessons() throws {
        let directory = TemporaryDirectory()
        let app = TestApp(appID: "ABCDE12345.com.example.app", directory: directory)
        let identifier = try app.identity().identifier()
        #expect(identifier.string == identifier.string.uppercased())
        #expect(identifier.lowercaseString == identifier.string.lowercased())
        let query = Query(service: DeviceIdentity.service, account: DeviceIdentity.account, accessGroup: app.appID,
                          returning: [.attributes, .data])
        let item = try #require(try app.store().items(matching: query).first)
        #expect(item.attributes.accessibility == .afterFirstUnlockThisDeviceOnly)
        #expect(item.data == Data(identifier.string.utf8))
    }

    @Test func lockedStoreNeverCreatesANewValue() throws {
        let directory = TemporaryDirectory()
        let app = TestApp(appID: "ABCDE12345.com.example.app", directory: directory)
        let store = try app.store()
        // The passphrase is the owner's to set (docs/access-groups.md); this handle then unlocks.
        try SecretStore(at: directory.storeURL, options: .init(access: .owner, deviceKeyURL: directory.deviceKeyURL))
            .setPassphrase("pw", limits: .minimumForTesting)
        try store.unlock(passphrase: "pw")
        let first = try DeviceIdentity(store: store).identifier()
        // As after a reboot, before the first unlock.
        store.lock(forgettingFirstUnlock: true)
        let error = try #require(throws: SecStoreError.self) { try DeviceIdentity(store: try app.store()).identifier() }
        #expect(error.code == .interactionNotAllowed)
        let unlocked = try app.store()
        try unlocked.unlock(passphrase: "pw")
        #expect(try DeviceIdentity(store: unlocked).identifier() == Identifier(uuid: first.uuid, provenance: .store))
        unlocked.lock(forgettingFirstUnlock: true)
    }

    @Test func applicationScopeNeedsAnApplicationIdentifier() throws {
        let directory = TemporaryDirectory()
        let owner = try SecretStore(at: directory.storeURL, options: .init(access: .owner, deviceKeyURL: directory.deviceKeyURL))
        let error = try #require(throws: SecStoreError.self) { try DeviceIdentity(store: owner).identifier() }
        #expect(error.code == .missingEntitlement)
        let vendor = try DeviceIdentity(store: owner, options: .init(scope: .vendor(accessGroup: "G"))).identifier()
        #expect(vendor.provenance == .generated)
    }
}

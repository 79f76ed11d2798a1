import Foundation
import SecStore
import SecStoreTestSupport
import Testing
@testable import DeviceIdentity

/// The seed material's scenarios: what survives deleting the app's files, the store, or both.
@Suite struct ReinstallTests {
    @Test func reinstallKeepsTheStoreValue() throws {
        let directory = TemporaryDirectory()
        let app = TestApp(appID: "ABCDE12345.com.example.app", directory: directory)
        let first = try app.identity().identifier()
        #expect(first.provenance == .generated)
        #expect(try app.identity().identifier() == Identifier(uuid: first.uuid, provenance: .store))

        // Reinstall: the app's own files (the mirror) are gone, the store remains.
        try FileManager.default.removeItem(at: app.mirrorURL)
        let afterReinstall = try app.identity().identifier()
        #expect(afterReinstall == Identifier(uuid: first.uuid, provenance: .store))
        #expect(FileManager.default.fileExists(atPath: app.mirrorURL.path), "the mirror is written again")
    }

    @Test func wipedStoreIsRestoredFromTheMirror() throws {
        let directory = TemporaryDirectory()
        let app = TestApp(appID: "ABCDE12345.com.example.app", directory: directory)
        let first = try app.identity().identifier()
        directory.deleteStore()
        let restored = try app.identity().identifier()
        #expect(restored == Identifier(uuid: first.uuid, provenance: .mirror))
        #expect(try app.identity().identifier() == Identifier(uuid: first.uuid, provenance: .store))
    }

    /// A wiped store is not restored from a mirror someone else could have written (here one
    /// that others may write; another user's file is refused the same way, MirrorFileTests):
    /// a new value is generated and the mirror replaced by a private copy of it.
    @Test func aWipedStoreIsNotRestoredFromAMirrorOthersCouldWrite() throws {
        let directory = TemporaryDirectory()
        let app = TestApp(appID: "ABCDE12345.com.example.app", directory: directory)
        _ = try app.identity().identifier()
        directory.deleteStore()
        let planted = UUID()
        try "\(planted.uuidString) \(app.appID)\n".write(to: app.mirrorURL, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: app.mirrorURL.path)
        let fresh = try app.identity().identifier()
        #expect(fresh.provenance == .generated && fresh.uuid != planted)
        let mirrored = try String(contentsOf: app.mirrorURL, encoding: .utf8)
        #expect(mirrored == "\(fresh.string) \(app.appID)\n")
        #expect(try permissionBits(of: app.mirrorURL) == 0o600)
    }

    @Test func derivedValueSurvivesLosingStoreAndMirror() throws {
        let directory = TemporaryDirectory()
        let app = TestApp(appID: "ABCDE12345.com.example.app", directory: directory)
        try "51df0b4bc3b04c9780e299b98ca373b8\n".write(to: app.machineIDURL, atomically: true, encoding: .ascii)
        let first = try app.identity(derive: true).identifier()
        #expect(first.provenance == .derived)
        directory.deleteStore()
        try FileManager.default.removeItem(at: app.mirrorURL)
        #expect(try app.identity(derive: true).identifier() == Identifier(uuid: first.uuid, provenance: .derived))
        // Never the raw machine id.
        #expect(first.lowercaseString.replacingOccurrences(of: "-", with: "") != "51df0b4bc3b04c9780e299b98ca373b8")
    }

    @Test func mirrorThatDisagreesIsRepairedAndTheStoreWins() throws {
        let directory = TemporaryDirectory()
        let app = TestApp(appID: "ABCDE12345.com.example.app", directory: directory)
        let first = try app.identity().identifier()
        let other = UUID()
        try "\(other.uuidString) \(app.appID)\n".write(to: app.mirrorURL, atomically: true, encoding: .utf8)
        #expect(try app.identity().identifier() == Identifier(uuid: first.uuid, provenance: .store))
        let mirrored = try String(contentsOf: app.mirrorURL, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(mirrored == "\(first.string) \(app.appID)")
    }
}

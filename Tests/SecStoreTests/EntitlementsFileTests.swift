import Foundation
import Testing
@testable import SecStore

/// Apple-style entitlements files (Fixtures/entitlements): XML, binary, and the ways they go wrong.
@Suite struct EntitlementsFileTests {
    static let fixtures = URL(filePath: #filePath).deletingLastPathComponent()
        .appending(path: "../../Fixtures/entitlements").standardizedFileURL

    func load(_ name: String) throws -> Entitlements {
        try Entitlements(contentsOf: Self.fixtures.appending(path: name))
    }

    func failure(_ name: String) -> SecStoreError? {
        do {
            _ = try load(name)
            return nil
        } catch {
            return error as? SecStoreError
        }
    }

    @Test func xmlPlist() throws {
        let mail = try load("Mail.entitlements")
        #expect(mail.applicationIdentifier == "ABCDE12345.com.example.mail")
        #expect(mail.accessGroups == ["ABCDE12345.com.example.mail", "ABCDE12345.com.example.shared"])
        #expect(mail.defaultAccessGroup == "ABCDE12345.com.example.mail")
    }

    @Test func binaryPlistWithApplicationGroups() throws {
        let maps = try load("Maps-binary.entitlements")
        // Apple's order: keychain-access-groups, then the app id (already listed), then application groups.
        #expect(maps.accessGroups == ["ABCDE12345.com.example.maps", "ABCDE12345.com.example.shared", "group.com.example"])
    }

    @Test func applicationIdentifierAloneIsTheDefaultGroup() throws {
        let solo = try load("AppIdentifierOnly.entitlements")
        #expect(solo.accessGroups == ["ABCDE12345.com.example.solo"])
        #expect(solo.defaultAccessGroup == "ABCDE12345.com.example.solo")
    }

    @Test(arguments: [
        ("Malformed.entitlements", "not a property list"),
        ("MissingKeys.entitlements", "declares neither"),
        ("WrongTypes.entitlements", "must be an array of strings"),
        ("Unexpanded.entitlements", "AppIdentifierPrefix"),
        ("does-not-exist.entitlements", "Cannot read"),
    ])
    func badFilesGiveAClearError(name: String, phrase: String) throws {
        let error = try #require(failure(name))
        #expect(error.code == .invalidEntitlements)
        #expect(error.status == -34018)
        #expect(error.message.contains(phrase), "\(error.message)")
    }
}

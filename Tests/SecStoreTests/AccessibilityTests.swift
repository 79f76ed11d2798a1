import Foundation
import GRDB
import Testing
@testable import SecStore

/// Every accessibility class × {no passphrase, locked, unlocked, before first unlock}: the
/// outcome of reading the secret (docs/accessibility.md has the same table).
@Suite struct AccessibilityTests {
    static let passphrase = "correct horse battery staple"

    func addOneOfEach(_ store: SecretStore) throws {
        for accessibility in Accessibility.allCases {
            try store.add(.genericPassword(service: "svc", account: accessibility.rawValue,
                                           data: Data("secret-\(accessibility.rawValue)".utf8), accessibility: accessibility))
        }
    }

    /// The error code of reading `accessibility`'s item, or nil when it reads its secret.
    func readFailure(_ store: SecretStore, _ accessibility: Accessibility) -> SecStoreError.Code? {
        do {
            let item = try store.items(matching: Query(service: "svc", account: accessibility.rawValue, returning: .data))
            #expect(item.first?.data == Data("secret-\(accessibility.rawValue)".utf8))
            return nil
        } catch let error as SecStoreError {
            return error.code
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    @Test func withoutPassphraseEveryClassButPasscodeOnlyIsReadable() throws {
        let dir = TemporaryDirectory()
        let store = try dir.openProcessLocalStore()
        #expect(try store.lockState == .noPassphrase)
        for accessibility in Accessibility.allCases where accessibility != .whenPasscodeSetThisDeviceOnly {
            try store.add(.genericPassword(service: "svc", account: accessibility.rawValue,
                                           data: Data("secret-\(accessibility.rawValue)".utf8), accessibility: accessibility))
            #expect(readFailure(store, accessibility) == nil, "\(accessibility)")
        }
        let error = try #require(throws: SecStoreError.self) {
            try store.add(.genericPassword(service: "svc", account: "akpu", data: Data(), accessibility: .whenPasscodeSetThisDeviceOnly))
        }
        #expect(error.code == .authenticationFailed)
        #expect(error.status == -25293)
        // Locking a store without a passphrase changes nothing, as on a device without a passcode.
        store.lock()
        #expect(readFailure(store, .whenUnlocked) == nil)
    }

    @Test func unlockedLockedAndBeforeFirstUnlock() throws {
        let dir = TemporaryDirectory()
        let store = try dir.openProcessLocalStore()
        try store.setPassphraseAsOwner(Self.passphrase, limits: .minimumForTesting)
        #expect(try store.lockState == .unlocked)
        try addOneOfEach(store)
        for accessibility in Accessibility.allCases {
            #expect(readFailure(store, accessibility) == nil, "unlocked: \(accessibility)")
        }

        store.lock()
        #expect(try store.lockState == .locked)
        let locked: [Accessibility: SecStoreError.Code?] = [
            .whenUnlocked: .interactionNotAllowed, .whenUnlockedThisDeviceOnly: .interactionNotAllowed,
            .whenPasscodeSetThisDeviceOnly: .interactionNotAllowed,
            .afterFirstUnlock: nil, .afterFirstUnlockThisDeviceOnly: nil,
            .always: nil, .alwaysThisDeviceOnly: nil,
        ]
        for (accessibility, expected) in locked {
            #expect(readFailure(store, accessibility) == expected, "locked: \(accessibility)")
        }

        // As after a reboot: AfterFirstUnlock classes are locked too until the next unlock.
        store.lock(forgettingFirstUnlock: true)
        let fresh = try dir.openProcessLocalStore()
        for accessibility in Accessibility.allCases {
            let expected: SecStoreError.Code? = accessibility.rawValue.hasPrefix("d") ? nil : .interactionNotAllowed
            #expect(readFailure(fresh, accessibility) == expected, "before first unlock: \(accessibility)")
        }

        try fresh.unlock(passphrase: Self.passphrase)
        for accessibility in Accessibility.allCases {
            #expect(readFailure(fresh, accessibility) == nil, "unlocked again: \(accessibility)")
        }
        fresh.lock(forgettingFirstUnlock: true)
    }

    @Test func lockedStoreHidesAttributesOfWhenUnlockedItems() throws {
        let dir = TemporaryDirectory()
        let store = try dir.openProcessLocalStore()
        try store.setPassphraseAsOwner(Self.passphrase, limits: .minimumForTesting)
        try store.add(.genericPassword(service: "svc", account: "a", data: Data("x".utf8), accessibility: .whenUnlocked))
        try store.add(.genericPassword(service: "svc", account: "d", data: Data("y".utf8), accessibility: .always))
        store.lock()
        // Attributes of class-A items are sealed under the class key too (reference §4.8).
        let error = try #require(throws: SecStoreError.self) {
            try store.items(matching: Query(service: "svc", account: "a", returning: .attributes))
        }
        #expect(error.code == .interactionNotAllowed)
        // A query that touches a locked item fails as a whole, even if others are readable.
        expectError(.interactionNotAllowed) { try store.items(matching: Query(service: "svc", limit: .all)) }
        #expect(try store.items(matching: Query(service: "svc", account: "d", returning: .attributes)).count == 1)
        // Writes that need the locked class fail the same way.
        expectError(.interactionNotAllowed) {
            try store.add(.genericPassword(service: "svc", account: "b", data: Data(), accessibility: .whenUnlocked))
        }
        store.lock(forgettingFirstUnlock: true)
    }

    @Test func updateMovesSecretToTheNewClass() throws {
        let dir = TemporaryDirectory()
        let store = try dir.openProcessLocalStore()
        try store.setPassphraseAsOwner(Self.passphrase, limits: .minimumForTesting)
        try store.add(.genericPassword(service: "svc", account: "moving", data: Data("payload".utf8), accessibility: .whenUnlocked))
        var changes = ItemChanges()
        changes.attributes.accessibility = .always
        try store.update(matching: Query(service: "svc", account: "moving"), with: changes)
        store.lock(forgettingFirstUnlock: true)
        let found = try store.items(matching: Query(service: "svc", account: "moving", returning: [.data, .attributes]))
        #expect(found[0].data == Data("payload".utf8))
        #expect(found[0].attributes.accessibility == .always)
        // The row on disk now names the new class.
        let code = try RawStoreFileAccess.accessibilityCodes(dir.storeURL)
        #expect(code == [Accessibility.always.code])
    }

    @Test func idleTimeoutLocks() throws {
        let dir = TemporaryDirectory()
        let store = try SecretStore(at: dir.storeURL, options: .init(access: .entitled(TestEntitlements.app), deviceKeyURL: dir.deviceKeyURL,
                                                                     autoLockInterval: 0.2, firstUnlockCache: .processMemory))
        try store.setPassphraseAsOwner(Self.passphrase, limits: .minimumForTesting)
        try store.add(.genericPassword(service: "svc", account: "a", data: Data("x".utf8)))
        #expect(try store.lockState == .unlocked)
        let deadline = Date().addingTimeInterval(5)
        while try store.lockState == .unlocked && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(try store.lockState == .locked)
        let error = try #require(throws: SecStoreError.self) { try store.items(matching: Query(service: "svc", account: "a", returning: .data)) }
        #expect(error.code == .interactionNotAllowed)
        store.lock(forgettingFirstUnlock: true)
    }
}

/// Reads columns of a store file directly, as an observer of the file would.
enum RawStoreFileAccess {
    static func accessibilityCodes(_ url: URL) throws -> [UInt8] {
        let queue = try DatabaseQueue(path: url.path)
        return try queue.read { db in try UInt8.fetchAll(db, sql: "SELECT accessibility FROM items ORDER BY id") }
    }
}

import Foundation
import GRDB
import Testing
@testable import SecStore

@Suite struct PassphraseTests {
    @Test func wrongPassphraseIsAuthFailedAndRevealsNothing() throws {
        let dir = TemporaryDirectory()
        do {
            let store = try dir.openProcessLocalStore()
            try store.setPassphraseAsOwner("right", limits: .minimumForTesting)
            try store.add(.genericPassword(service: "svc", account: "a", data: Data("x".utf8)))
        }
        let store = try dir.openProcessLocalStore()
        let error = try #require(throws: SecStoreError.self) { try store.unlock(passphrase: "wrong") }
        #expect(error.code == .authenticationFailed)
        #expect(error.status == -25293)
        #expect(!error.message.contains("right"))
        #expect(try store.lockState == .locked)
        expectError(.interactionNotAllowed) { try store.secret("a") }
        try store.unlock(passphrase: "right")
        #expect(try store.secret("a") == Data("x".utf8))
        store.lock(forgettingFirstUnlock: true)
    }

    @Test func limitsAreStoredWithTheStore() throws {
        let dir = TemporaryDirectory()
        let store = try dir.openProcessLocalStore()
        #expect(try store.passphraseLimits == nil)
        let limits = PasswordHashingLimits(operations: 2, memoryBytes: 1 << 16)
        try store.setPassphraseAsOwner("pw", limits: limits)
        #expect(try dir.openProcessLocalStore().passphraseLimits == limits)
        expectError(.invalidParameter) { try store.setPassphraseAsOwner("again", limits: limits) }
        expectError(.invalidParameter) { try store.ownerHandle().changePassphrase(from: "pw", to: "", limits: limits) }
        expectError(.invalidParameter) {
            try store.ownerHandle().changePassphrase(from: "pw", to: "x", limits: PasswordHashingLimits(operations: 0, memoryBytes: 1))
        }
        store.lock(forgettingFirstUnlock: true)
    }

    @Test func changeKeepsEveryItemAndOnlyTheNewPassphraseWorks() throws {
        let dir = TemporaryDirectory()
        do {
            let store = try dir.openProcessLocalStore()
            try store.setPassphraseAsOwner("old", limits: .minimumForTesting)
            for accessibility in Accessibility.allCases {
                try store.add(.genericPassword(service: "svc", account: accessibility.rawValue,
                                               data: Data(accessibility.rawValue.utf8), accessibility: accessibility))
            }
            let before = try RawItemBlobs.secrets(dir.storeURL)
            try store.ownerHandle().changePassphrase(from: "old", to: "new", limits: .minimumForTesting)
            // Items are not re-encrypted: only key rows change.
            #expect(try RawItemBlobs.secrets(dir.storeURL) == before)
            store.lock(forgettingFirstUnlock: true)
        }
        let store = try dir.openProcessLocalStore()
        expectError(.authenticationFailed) { try store.unlock(passphrase: "old") }
        try store.unlock(passphrase: "new")
        for accessibility in Accessibility.allCases {
            #expect(try store.secret(accessibility.rawValue) == Data(accessibility.rawValue.utf8))
        }
        expectError(.authenticationFailed) { try store.ownerHandle().changePassphrase(from: "wrong", to: "x", limits: .minimumForTesting) }
        store.lock(forgettingFirstUnlock: true)
    }

    @Test func removalDeletesPasscodeOnlyItemsAndUnprotectsTheRest() throws {
        let dir = TemporaryDirectory()
        let store = try dir.openProcessLocalStore()
        try store.setPassphraseAsOwner("pw", limits: .minimumForTesting)
        try store.add(.genericPassword(service: "svc", account: "akpu1", data: Data("1".utf8), accessibility: .whenPasscodeSetThisDeviceOnly))
        try store.add(.genericPassword(service: "svc", account: "akpu2", data: Data("2".utf8), accessibility: .whenPasscodeSetThisDeviceOnly))
        try store.add(.genericPassword(service: "svc", account: "ak", data: Data("3".utf8), accessibility: .whenUnlocked))
        expectError(.authenticationFailed) { try store.ownerHandle().removePassphrase("wrong") }
        #expect(try store.ownerHandle().removePassphrase("pw") == 2)
        #expect(try store.lockState == .noPassphrase)
        let gone = try #require(throws: SecStoreError.self) { try store.secret("akpu1") }
        #expect(gone.code == .itemNotFound)
        // Without a passphrase, whenUnlocked items are readable by any fresh handle.
        let fresh = try dir.openProcessLocalStore()
        #expect(try fresh.secret("ak") == Data("3".utf8))
        let add = try #require(throws: SecStoreError.self) {
            try fresh.add(.genericPassword(service: "svc", account: "akpu3", data: Data(), accessibility: .whenPasscodeSetThisDeviceOnly))
        }
        #expect(add.code == .authenticationFailed)
    }

    @Test func anotherHandleSeesPassphraseRemovalWithoutReopening() throws {
        let dir = TemporaryDirectory()
        let first = try dir.openProcessLocalStore()
        try first.setPassphraseAsOwner("pw", limits: .minimumForTesting)
        try first.add(.genericPassword(service: "svc", account: "ak", data: Data("v".utf8)))
        let second = try dir.openProcessLocalStore()
        #expect(try second.lockState == .locked)
        expectError(.interactionNotAllowed) { try second.secret("ak") }
        try first.ownerHandle().removePassphrase("pw")
        #expect(try second.secret("ak") == Data("v".utf8))
        #expect(try second.lockState == .noPassphrase)
    }

    @Test func storeMovedToAnotherDeviceKeyIsRefused() throws {
        let dir = TemporaryDirectory()
        do {
            let store = try dir.openProcessLocalStore()
            try store.add(.genericPassword(service: "svc", account: "a", data: Data("x".utf8)))
        }
        let otherKey = dir.url.appending(path: "other/device.key")
        _ = try SecretStore(at: dir.url.appending(path: "other/other.secstore"),
                            options: .init(access: .entitled(TestEntitlements.app), deviceKeyURL: otherKey))
        let error = try #require(throws: SecStoreError.self) {
            try SecretStore(at: dir.storeURL, options: .init(access: .entitled(TestEntitlements.app), deviceKeyURL: otherKey, createIfMissing: false))
        }
        #expect(error.code == .wrongDeviceKey)
        #expect(error.message.contains("device key"))
    }
}

/// The sealed secret column of every row, to show which operations re-encrypt items.
enum RawItemBlobs {
    static func secrets(_ url: URL) throws -> [Data] {
        try DatabaseQueue(path: url.path).read { db in
            try Data.fetchAll(db, sql: "SELECT secret FROM items ORDER BY id")
        }
    }
}

/// Two handles on one store, where the other process's passphrase changes must reach a handle
/// opened before them.
@Suite struct CrossHandleLockTests {
    /// A handle opened without a passphrase had every key; once another handle sets one, the
    /// first handle's `lock()` must lock it, and its lock state must say so.
    @Test func passphraseSetElsewhereMakesLockWork() throws {
        let dir = TemporaryDirectory()
        let early = try dir.openProcessLocalStore()
        try early.add(.genericPassword(service: "svc", account: "ak", data: Data("v".utf8)))
        let setter = try dir.openProcessLocalStore()
        try setter.setPassphraseAsOwner("pw", limits: .minimumForTesting)
        #expect(try early.lockState == .locked)
        early.lock()
        expectError(.interactionNotAllowed) { try early.secret("ak") }
        try early.unlock(passphrase: "pw")
        #expect(try early.secret("ak") == Data("v".utf8))
        early.lock()
        expectError(.interactionNotAllowed) { try early.secret("ak") }
        setter.lock(forgettingFirstUnlock: true)
    }

    /// After another handle removes the passphrase and sets a new one, the passcode-only class
    /// has a new key: a write must not use the old one (the item would be unreadable to
    /// everyone else).
    @Test func replacedPasscodeOnlyKeyIsNeverUsedForWrites() throws {
        let dir = TemporaryDirectory()
        let first = try dir.openProcessLocalStore()
        try first.setPassphraseAsOwner("one", limits: .minimumForTesting)
        let second = try dir.openProcessLocalStore()
        try second.unlock(passphrase: "one")
        try first.ownerHandle().removePassphrase("one")
        try first.setPassphraseAsOwner("two", limits: .minimumForTesting)
        let add = { try second.add(.genericPassword(service: "svc", account: "akpu", data: Data("p".utf8),
                                                     accessibility: .whenPasscodeSetThisDeviceOnly)) }
        expectError(.interactionNotAllowed) { try add() }
        try second.unlock(passphrase: "two")
        _ = try add()
        #expect(try first.secret("akpu") == Data("p".utf8))
        first.lock(forgettingFirstUnlock: true)
    }
}

import Foundation
import GRDB
import Testing
@testable import SecStore

@Suite struct PassphraseTests {
    func open(_ dir: TemporaryDirectory) throws -> SecretStore {
        try SecretStore(at: dir.storeURL, options: .init(access: .entitled(TestEntitlements.app), deviceKeyURL: dir.deviceKeyURL,
                                                         firstUnlockCache: .processMemory))
    }

    func secret(_ store: SecretStore, _ account: String) throws -> Data? {
        try store.items(matching: Query(service: "svc", account: account, returning: .data)).first?.data
    }

    @Test func wrongPassphraseIsAuthFailedAndRevealsNothing() throws {
        let dir = TemporaryDirectory()
        do {
            let store = try open(dir)
            try store.setPassphrase("right", limits: .minimumForTesting)
            try store.add(.genericPassword(service: "svc", account: "a", data: Data("x".utf8)))
        }
        let store = try open(dir)
        let error = try #require(throws: SecStoreError.self) { try store.unlock(passphrase: "wrong") }
        #expect(error.code == .authenticationFailed)
        #expect(error.status == -25293)
        #expect(!error.message.contains("right"))
        #expect(try store.lockState == .locked)
        #expect(throws: SecStoreError.self) { try secret(store, "a") }
        try store.unlock(passphrase: "right")
        #expect(try secret(store, "a") == Data("x".utf8))
        store.lock(forgettingFirstUnlock: true)
    }

    @Test func limitsAreStoredWithTheStore() throws {
        let dir = TemporaryDirectory()
        let store = try open(dir)
        #expect(try store.passphraseLimits == nil)
        let limits = PasswordHashingLimits(operations: 2, memoryBytes: 1 << 16)
        try store.setPassphrase("pw", limits: limits)
        #expect(try open(dir).passphraseLimits == limits)
        #expect(throws: SecStoreError.self) { try store.setPassphrase("again", limits: limits) }
        #expect(throws: SecStoreError.self) { try store.changePassphrase(from: "pw", to: "", limits: limits) }
        #expect(throws: SecStoreError.self) {
            try store.changePassphrase(from: "pw", to: "x", limits: PasswordHashingLimits(operations: 0, memoryBytes: 1))
        }
        store.lock(forgettingFirstUnlock: true)
    }

    @Test func changeKeepsEveryItemAndOnlyTheNewPassphraseWorks() throws {
        let dir = TemporaryDirectory()
        do {
            let store = try open(dir)
            try store.setPassphrase("old", limits: .minimumForTesting)
            for accessibility in Accessibility.allCases {
                try store.add(.genericPassword(service: "svc", account: accessibility.rawValue,
                                               data: Data(accessibility.rawValue.utf8), accessibility: accessibility))
            }
            let before = try RawItemBlobs.secrets(dir.storeURL)
            try store.changePassphrase(from: "old", to: "new", limits: .minimumForTesting)
            // Items are not re-encrypted: only key rows change.
            #expect(try RawItemBlobs.secrets(dir.storeURL) == before)
            store.lock(forgettingFirstUnlock: true)
        }
        let store = try open(dir)
        #expect(throws: SecStoreError.self) { try store.unlock(passphrase: "old") }
        try store.unlock(passphrase: "new")
        for accessibility in Accessibility.allCases {
            #expect(try secret(store, accessibility.rawValue) == Data(accessibility.rawValue.utf8))
        }
        #expect(throws: SecStoreError.self) { try store.changePassphrase(from: "wrong", to: "x", limits: .minimumForTesting) }
        store.lock(forgettingFirstUnlock: true)
    }

    @Test func removalDeletesPasscodeOnlyItemsAndUnprotectsTheRest() throws {
        let dir = TemporaryDirectory()
        let store = try open(dir)
        try store.setPassphrase("pw", limits: .minimumForTesting)
        try store.add(.genericPassword(service: "svc", account: "akpu1", data: Data("1".utf8), accessibility: .whenPasscodeSetThisDeviceOnly))
        try store.add(.genericPassword(service: "svc", account: "akpu2", data: Data("2".utf8), accessibility: .whenPasscodeSetThisDeviceOnly))
        try store.add(.genericPassword(service: "svc", account: "ak", data: Data("3".utf8), accessibility: .whenUnlocked))
        #expect(throws: SecStoreError.self) { try store.removePassphrase("wrong") }
        #expect(try store.removePassphrase("pw") == 2)
        #expect(try store.lockState == .noPassphrase)
        let gone = try #require(throws: SecStoreError.self) { try secret(store, "akpu1") }
        #expect(gone.code == .itemNotFound)
        // Without a passphrase, whenUnlocked items are readable by any fresh handle.
        let fresh = try open(dir)
        #expect(try secret(fresh, "ak") == Data("3".utf8))
        let add = try #require(throws: SecStoreError.self) {
            try fresh.add(.genericPassword(service: "svc", account: "akpu3", data: Data(), accessibility: .whenPasscodeSetThisDeviceOnly))
        }
        #expect(add.code == .authenticationFailed)
    }

    @Test func anotherHandleSeesPassphraseRemovalWithoutReopening() throws {
        let dir = TemporaryDirectory()
        let first = try open(dir)
        try first.setPassphrase("pw", limits: .minimumForTesting)
        try first.add(.genericPassword(service: "svc", account: "ak", data: Data("v".utf8)))
        let second = try open(dir)
        #expect(try second.lockState == .locked)
        #expect(throws: SecStoreError.self) { try secret(second, "ak") }
        try first.removePassphrase("pw")
        #expect(try secret(second, "ak") == Data("v".utf8))
        #expect(try second.lockState == .noPassphrase)
    }

    @Test func storeMovedToAnotherDeviceKeyIsRefused() throws {
        let dir = TemporaryDirectory()
        do {
            let store = try open(dir)
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

import Foundation
import Logging
import Testing
@testable import SecStore

/// The store's own keyring, `secstore:<store id>`: every entry of a store is linked there, so
/// that `secstore lock` ends every unlock at once by invalidating it, including one still under
/// way in another process. (`SecstoreCLITests/KeyringLockRaceTests.swift` stops real `unlock`
/// and `lock` processes in each other's way.) In the running user's keyring, touching only the
/// entries of random store ids.
@Suite struct StoreKeyringTests {
    static var kernelKeyringWorks: Bool { ProcessLockTests.kernelKeyringWorks }

    /// Before: each entry was linked straight in the user keyring, so a lock could only remove
    /// them one by one. Now none is there; all nine of a shared unlock are in the store's keyring.
    @Test(.enabled(if: kernelKeyringWorks, "needs the kernel user keyring (add_key/keyctl)"))
    func aStoresEntriesAreLinkedInItsOwnKeyring() throws {
        let dir = TemporaryDirectory()
        let store = try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL,
                                                                     firstUnlockCache: .kernelKeyring))
        defer { store.lock(forgettingFirstUnlock: true) }
        try store.setPassphrase("pw", limits: .minimumForTesting)
        #expect(try store.unlock(passphrase: "pw", sharedFor: 600))

        let name = "secstore:" + Self.hex(store.storeID)
        let direct = try KernelKeyring.userKeys()
        #expect(!direct.contains { $0.description.hasPrefix(name + ":") }, "no entry straight in the user keyring")
        let keyring = try #require(direct.first { $0.type == "keyring" && $0.description == name })
        let inside = try KernelKeyring.userKeys { $0.serial == keyring.serial }.filter { $0.parent == keyring.serial }
        let listed = try FirstUnlockCache.keyringEntries().filter { $0.storeID == store.storeID }
        #expect(Set(inside.map(\.description)) == Set(listed.map { name + ":" + $0.name }))
        #expect(inside.count == 9, "ck, cku, five session keys, presence, location: \(inside.map(\.description))")

        store.lock(forgettingFirstUnlock: true)
        #expect(try !KernelKeyring.userKeys().contains { $0.description == name }, "lock removes the keyring itself")
    }

    /// The rule `secstore lock` relies on. Before: an attempt linked each entry into the user
    /// keyring, so after another handle's lock it went on sharing. Now it links every entry into
    /// the keyring it found at its first; once a lock removed that keyring, its next entry fails:
    /// it shares nothing more, says why (`meansLockedMeanwhile`), and what it had shared went
    /// with the keyring. A new attempt shares again.
    @Test(.enabled(if: kernelKeyringWorks, "needs the kernel user keyring (add_key/keyctl)"))
    func anAttemptALockOvertookSharesNothingMore() throws {
        let dir = TemporaryDirectory()
        let id = (0..<16).map { _ in UInt8.random(in: 0...255) }
        let sealingKey = try MasterSubkeys(of: SecureBytes.random(count: 32)).firstUnlockKey
        let unlocking = FirstUnlockStore(storeID: id, sealingKey: sealingKey, mode: .kernelKeyring, logger: Logger(label: "test"))
        let locking = FirstUnlockStore(storeID: id, sealingKey: sealingKey, mode: .kernelKeyring, logger: Logger(label: "test"))
        defer { locking.removeAll() }
        let classKey = try SecureBytes.random(count: KeyDerivation.keyByteCount)
        let expiry = Date(timeIntervalSinceNow: 600)
        let prefix = "secstore:" + Hex.string(id) + ":session:"

        unlocking.beginSharing(storeURL: dir.storeURL, deviceKeyURL: dir.deviceKeyURL)
        #expect(unlocking.publishSession(classKey, for: .whenUnlocked, until: expiry, epoch: 1))
        #expect(KernelKeyring.exists(description: prefix + "ak"))

        locking.removeAll()   // `secstore lock`, as in another process
        #expect(!unlocking.publishSession(classKey, for: .whenUnlockedThisDeviceOnly, until: expiry, epoch: 1))
        #expect(unlocking.refusal?.meansLockedMeanwhile == true, "\(String(describing: unlocking.refusal))")
        #expect(unlocking.backend == .processMemory)
        unlocking.withdrawSession()
        #expect(!KernelKeyring.exists(description: prefix + "ak") && !KernelKeyring.exists(description: prefix + "aku"))
        #expect(locking.loadSession(.whenUnlockedThisDeviceOnly, epoch: 1) == nil, "not even in this process's memory")

        unlocking.beginSharing(storeURL: dir.storeURL, deviceKeyURL: dir.deviceKeyURL)
        #expect(unlocking.publishSession(classKey, for: .whenUnlocked, until: expiry, epoch: 1))
        #expect(unlocking.refusal == nil)
        #expect(locking.loadSession(.whenUnlocked, epoch: 1) != nil)
    }

    @Test func aLockedMeanwhileRefusalSaysSo() {
        let refusal = KernelKeyring.Failure(errno: ENOKEY, keyringGone: true).refusal
        #expect(refusal.meansLockedMeanwhile && !refusal.meansUnavailable && !refusal.meansQuotaExceeded)
        #expect(refusal.description == "the store's keyring was removed or replaced meanwhile, by a `secstore lock` or by another unlock making it at the same moment (ENOKEY)")
        #expect(!KeyringRefusal(errno: ENOKEY).meansLockedMeanwhile)
    }

    private static func hex(_ id: UUID) -> String {
        withUnsafeBytes(of: id.uuid) { Hex.string($0) }
    }
}

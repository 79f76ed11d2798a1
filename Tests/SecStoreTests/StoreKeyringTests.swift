import Foundation
import Logging
import Synchronization
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
        let unlocking = Self.kernelStore(id, sealingKey), locking = Self.kernelStore(id, sealingKey)
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

    /// Entries an older SecStore put straight in the user keyring. Before: a stale one there
    /// was found before the current one in the store's keyring (a search looks at the user
    /// keyring's own keys first), so after an upgrade a class read as locked though it was
    /// unlocked; and it outlived every new unlock. Now an unlock's first entry moves such
    /// entries into the store's keyring, and a stale duplicate goes.
    @Test(.enabled(if: kernelKeyringWorks, "needs the kernel user keyring (add_key/keyctl)"))
    func entriesAnOlderSecStoreLeftInTheUserKeyringAreTakenIn() throws {
        let dir = TemporaryDirectory()
        let options = SecretStore.Options(access: .owner, deviceKeyURL: dir.deviceKeyURL, firstUnlockCache: .kernelKeyring)
        let store = try SecretStore(at: dir.storeURL, options: options)
        defer { store.lock(forgettingFirstUnlock: true) }
        try store.setPassphrase("pw", limits: .minimumForTesting)
        try store.add(.genericPassword(service: "s", account: "a", data: Data("v".utf8), accessGroup: "G",
                                       accessibility: .afterFirstUnlock))
        let prefix = "secstore:" + Self.hex(store.storeID) + ":"
        // A stale first-unlock entry of the class, straight in the user keyring, as an older
        // SecStore left it (its payload from another key: it cannot be opened).
        try KernelKeyring.add(description: prefix + Accessibility.afterFirstUnlock.rawValue, payload: Array(repeating: 7, count: 72))
        // And an older entry of a name the store's keyring will not hold.
        try KernelKeyring.add(description: prefix + "older-entry", payload: [1, 2, 3])

        try store.unlock(passphrase: "pw")
        let direct = try KernelKeyring.userKeys().filter { $0.parent == KernelKeyring.userKeyring }
        #expect(!direct.contains { $0.description.hasPrefix(prefix) }, "\(direct.map(\.description))")
        // Another process's handle reads the item through the first unlock now in the kernel.
        let other = try SecretStore(at: dir.storeURL, options: options)
        #expect(try other.items(matching: Query(service: "s", account: "a", returning: .data)).first?.data == Data("v".utf8))

        store.lock(forgettingFirstUnlock: true)
        #expect(!KernelKeyring.exists(description: prefix + "older-entry"), "moved into the store's keyring, gone with it")
    }

    /// A name held twice: in the store's keyring and, as an older SecStore (an old daemon still
    /// running, say) links it, straight in the user keyring. Before: removing an entry
    /// invalidated the first match only, so withdrawing a shared unlock (a passphrase change
    /// does) left the other copy, and the class stayed shared. Now every match goes.
    @Test(.enabled(if: kernelKeyringWorks, "needs the kernel user keyring (add_key/keyctl)"))
    func removingAnEntryRemovesEveryCopyOfItsName() throws {
        let dir = TemporaryDirectory()
        let id = (0..<16).map { _ in UInt8.random(in: 0...255) }
        let store = Self.kernelStore(id, try MasterSubkeys(of: SecureBytes.random(count: 32)).firstUnlockKey)
        defer { store.removeAll() }
        let name = "secstore:" + Hex.string(id) + ":session:ak"
        store.beginSharing(storeURL: dir.storeURL, deviceKeyURL: dir.deviceKeyURL)
        #expect(store.publishSession(try SecureBytes.random(count: KeyDerivation.keyByteCount), for: .whenUnlocked,
                                     until: Date(timeIntervalSinceNow: 600), epoch: 1))
        try KernelKeyring.add(description: name, payload: Array(repeating: 7, count: 72))
        #expect(try KernelKeyring.userKeys(descendingInto: { _ in true }).filter { $0.description == name }.count == 2)

        store.removeSession()
        #expect(try KernelKeyring.userKeys(descendingInto: { _ in true }).filter { $0.description == name }.isEmpty)
        #expect(!KernelKeyring.exists(description: name))
    }

    /// `secstore keyring prune` removes a store keyring it saw empty only if it still is:
    /// an unlock that has begun filling it meanwhile keeps it. (The CLI's
    /// `KeyringTests.pruneRemovesAStoreKeyringLeftEmpty` makes one the way a refused unlock does.)
    @Test(.enabled(if: kernelKeyringWorks, "needs the kernel user keyring (add_key/keyctl)"))
    func anEmptyStoreKeyringIsRemovedOnlyWhileItIsEmpty() throws {
        let id = UUID()
        let name = "secstore:" + Self.hex(id)
        let keyring = try KernelKeyring.keyring(named: name)
        defer { try? KernelKeyring.invalidate(serial: keyring) }
        #expect(try FirstUnlockCache.emptyStoreKeyrings().contains(id))

        try KernelKeyring.add(description: name + ":ck", payload: [1, 2, 3], into: keyring)
        #expect(try !FirstUnlockCache.emptyStoreKeyrings().contains(id))
        #expect(try FirstUnlockCache.removeEmptyStores([id]).stores.isEmpty, "an entry is in it now: kept")
        #expect(KernelKeyring.exists(description: name + ":ck"))

        KernelKeyring.remove(description: name + ":ck")
        #expect(try FirstUnlockCache.removeEmptyStores([id]) == .init(stores: [id], entries: 1))
        #expect(try !KernelKeyring.userKeys().contains { $0.description == name })
    }

    /// A store keyring whose only key has expired (the kernel unlinks an expired key only at
    /// its next garbage collection, `key_gc_delay` later, 5 minutes by default) holds no key
    /// `keyring list` can see: the survey and prune's second look must agree on it. They did
    /// not: the survey (no key it could describe) listed it as an empty keyring, and prune's
    /// second look (the keyring's raw list, expired keys included) kept it, reporting "Removed
    /// 0 entries of 1 store that held no key." while `list` still showed it.
    @Test(.enabled(if: kernelKeyringWorks, "needs the kernel user keyring (add_key/keyctl)"))
    func aStoreKeyringHoldingOnlyAnExpiredKeyIsListedAndPrunedAlike() throws {
        let id = UUID()
        let name = "secstore:" + Self.hex(id)
        let keyring = try KernelKeyring.keyring(named: name)
        defer { try? KernelKeyring.invalidate(serial: keyring) }
        try KernelKeyring.add(description: name + ":session:ak", payload: [1, 2, 3], timeout: 1, into: keyring)
        Thread.sleep(forTimeInterval: 2.2)

        let listed = try FirstUnlockCache.emptyStoreKeyrings().contains(id)
        let removed = try FirstUnlockCache.removeEmptyStores([id]).entries
        #expect(removed == (listed ? 1 : 0), "listed as empty: \(listed), removed: \(removed)")
    }

    /// A store whose keyring holds location records only (an unlock refused after recording
    /// where the store is) holds no key either: removed while that lasts, kept once a key is in
    /// it. Before, `keyring prune` removed such a store without looking again, and the key an
    /// unlock had put there since went with it.
    @Test(.enabled(if: kernelKeyringWorks, "needs the kernel user keyring (add_key/keyctl)"))
    func aStoreHoldingOnlyALocationRecordIsRemovedOnlyWhileItHoldsNoKey() throws {
        let id = UUID()
        let name = "secstore:" + Self.hex(id)
        let keyring = try KernelKeyring.keyring(named: name)
        defer { try? KernelKeyring.invalidate(serial: keyring) }
        try KernelKeyring.add(description: name + ":" + FirstUnlockCache.locationTag + "0123456789abcdef",
                              payload: Array("/nowhere/s.secstore\u{0}/nowhere/device.key".utf8), into: keyring)
        try KernelKeyring.add(description: name + ":ck", payload: [1, 2, 3], into: keyring)
        #expect(try FirstUnlockCache.removeEmptyStores([id]).stores.isEmpty, "a key is in it: kept")

        KernelKeyring.remove(description: name + ":ck")
        #expect(try FirstUnlockCache.removeEmptyStores([id]) == .init(stores: [id], entries: 1), "the record alone: removed")
        #expect(try !KernelKeyring.userKeys().contains { $0.description == name })
    }

    /// The race `keyring prune` had with an unlock: it looked at a store's keyring, found it
    /// empty, and invalidated it — two calls — and an unlock that linked its first key in
    /// between lost it with the keyring, having reported it shared. Here the unlock runs in
    /// another thread exactly between the two (the `beforeRemoving` seam). Before, it linked
    /// its key and said so, and the key was gone; now it waits for the keyring lock prune
    /// holds, then puts its key in a new keyring: shared, as it reports.
    @Test(.enabled(if: kernelKeyringWorks, "needs the kernel user keyring (add_key/keyctl)"))
    func anUnlockBetweenPrunesLookAndItsRemovalKeepsItsKey() throws {
        let dir = TemporaryDirectory()
        let id = UUID()
        let idBytes = withUnsafeBytes(of: id.uuid) { Array($0) }
        let name = "secstore:" + Self.hex(id)
        let sealingKey = try MasterSubkeys(of: SecureBytes.random(count: 32)).firstUnlockKey
        let unlocking = Self.kernelStore(idBytes, sealingKey)
        defer { unlocking.removeAll() }
        // Left empty, as an unlock killed right after making it leaves it.
        let keyring = try KernelKeyring.keyring(named: name)
        defer { try? KernelKeyring.invalidate(serial: keyring) }
        unlocking.beginSharing(storeURL: dir.storeURL, deviceKeyURL: dir.deviceKeyURL)
        let classKey = try SecureBytes.random(count: KeyDerivation.keyByteCount)

        let finished = Mutex(false), done = DispatchSemaphore(value: 0)
        let removal = try FirstUnlockCache.removeEmptyStores([id]) {
            Thread {
                unlocking.publish(classKey, for: .afterFirstUnlock)
                finished.withLock { $0 = true }
                done.signal()
            }.start()
            Self.waitUntil { finished.withLock { $0 } || Self.someoneWaitsForTheKeyringLock() }
        }
        done.wait()

        #expect(removal == .init(stores: [id], entries: 1), "prune found the keyring empty, and removed it")
        #expect(unlocking.refusal == nil && unlocking.backend == .kernelKeyring, "the unlock reports its key shared: \(String(describing: unlocking.refusal))")
        #expect(KernelKeyring.exists(description: name + ":ck"), "and it is")
        let reader = Self.kernelStore(idBytes, sealingKey)
        #expect(reader.load(.afterFirstUnlock) != nil, "another handle reads it")
    }

    @Test func aLockedMeanwhileRefusalSaysSo() {
        let refusal = KernelKeyring.Failure(errno: ENOKEY, keyringGone: true).refusal
        #expect(refusal.meansLockedMeanwhile && !refusal.meansUnavailable && !refusal.meansQuotaExceeded)
        #expect(refusal.description == "the store's keyring was removed or replaced meanwhile, by a `secstore lock` or by another unlock making it at the same moment (ENOKEY)")
        #expect(!KeyringRefusal(errno: ENOKEY).meansLockedMeanwhile)
    }

    /// A first-unlock store of store id `id` in the kernel keyring, as one process's handle has.
    private static func kernelStore(_ id: [UInt8], _ sealingKey: SecureBytes) -> FirstUnlockStore {
        FirstUnlockStore(storeID: id, sealingKey: sealingKey, mode: .kernelKeyring, logger: Logger(label: "test"))
    }

    /// Polls `condition` every millisecond, for 60 seconds at most.
    private static func waitUntil(_ condition: () -> Bool) {
        let deadline = Date(timeIntervalSinceNow: 60)
        while !condition() && Date() < deadline { usleep(1000) }
    }

    /// Whether `/proc/locks` shows a request waiting for the keyring lock (``KeyringLock``): a
    /// line `N: -> FLOCK … <dev>:<inode> …` of its file.
    private static func someoneWaitsForTheKeyringLock() -> Bool {
        var info = stat()
        guard stat(KeyringLock.path(), &info) == 0, let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return false }
        return locks.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.contains("->") && fields.contains("FLOCK") && fields.contains { $0.hasSuffix(":\(info.st_ino)") }
        }
    }

    private static func hex(_ id: UUID) -> String {
        withUnsafeBytes(of: id.uuid) { Hex.string($0) }
    }
}

import Foundation
import Testing
import Logging
@testable import SecStore

/// SecStore's entries in the real kernel user keyring: what a store puts there, that
/// `lock(forgettingFirstUnlock: true)` takes every one of them back, and how they are listed.
/// Each test touches only the entries of its own random store ids, so tests (and other
/// programs of the user) running at the same time are left alone. The quota tests, which need
/// a user of their own, are in `SecstoreCLITests/KeyringTests.swift`.
@Suite struct KeyringEntriesTests {
    static var kernelKeyringWorks: Bool { ProcessLockTests.kernelKeyringWorks }

    /// A store whose keys go to the kernel keyring, with a passphrase.
    private func kernelStore(_ dir: TemporaryDirectory) throws -> SecretStore {
        let store = try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL,
                                                                     firstUnlockCache: .kernelKeyring))
        try store.setPassphrase("pw", limits: .minimumForTesting)
        return store
    }

    private func entries(of storeID: UUID) throws -> [FirstUnlockCache.KeyringEntry] {
        try FirstUnlockCache.keyringEntries().filter { $0.storeID == storeID }
    }

    @Test(.enabled(if: kernelKeyringWorks, "needs the kernel user keyring (add_key/keyctl)"))
    func aSharedUnlockIsListedByKindWithItsLocation() throws {
        let dir = TemporaryDirectory()
        let store = try kernelStore(dir)
        defer { store.lock(forgettingFirstUnlock: true) }
        store.lock(forgettingFirstUnlock: true)
        #expect(try entries(of: store.storeID).isEmpty)

        #expect(try store.unlock(passphrase: "pw", sharedFor: 600))
        #expect(store.keyringRefusal == nil)
        #expect(store.firstUnlockBackend == .kernelKeyring)
        let listed = try entries(of: store.storeID)
        let byKind = Dictionary(grouping: listed, by: \.kind).mapValues { $0.map(\.name).sorted() }
        #expect(byKind[.firstUnlock] == ["ck", "cku"])
        #expect(byKind[.presence] == ["presence"])
        #expect(byKind[.sharedUnlock] == ["session:ak", "session:akpu", "session:aku", "session:ck", "session:cku"])
        let location = try #require(listed.first { $0.kind == .location })
        #expect(location.storeURL?.path == dir.storeURL.standardizedFileURL.path)
        #expect(location.deviceKeyURL?.path == dir.deviceKeyURL.standardizedFileURL.path)
        #expect(listed.filter { $0.kind == .location }.count == 1, "one record per store path, however often it unlocks")
        #expect(byKind[.other] == nil)
    }

    /// `lock(forgettingFirstUnlock: true)` (`secstore lock`) removes every entry named after the
    /// store — also one this version does not know — and nothing of any other store.
    @Test(.enabled(if: kernelKeyringWorks, "needs the kernel user keyring (add_key/keyctl)"))
    func lockRemovesEveryEntryOfTheStoreAndNoOther() throws {
        let dir = TemporaryDirectory()
        let store = try kernelStore(dir)
        defer { store.lock(forgettingFirstUnlock: true) }
        let otherID = UUID()
        let other = "secstore:" + Self.hex(otherID) + ":ck"
        try KernelKeyring.add(description: other, payload: [1, 2, 3])
        defer { KernelKeyring.remove(description: other) }

        #expect(try store.unlock(passphrase: "pw", sharedFor: 600))
        let future = "secstore:" + Self.hex(store.storeID) + ":written-by-a-newer-secstore"
        try KernelKeyring.add(description: future, payload: [0])
        #expect(try entries(of: store.storeID).contains { $0.kind == .other && $0.name == "written-by-a-newer-secstore" })

        // Another handle (as `secstore lock` is another process) locks.
        let locker = try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL,
                                                                      firstUnlockCache: .kernelKeyring))
        locker.lock(forgettingFirstUnlock: true)
        #expect(try entries(of: store.storeID).isEmpty)
        #expect(try entries(of: otherID).map(\.name) == ["ck"], "another store's entry stays")

        // The engine still works afterwards and publishes again at the next unlock.
        try store.unlock(passphrase: "pw")
        #expect(try Array(entries(of: store.storeID).map(\.name).sorted().prefix(2)) == ["ck", "cku"])
    }

    /// An entry written by a SecStore that kept no location record is listed as it is, with
    /// no location; removing a store's entries by id takes exactly those.
    @Test(.enabled(if: kernelKeyringWorks, "needs the kernel user keyring (add_key/keyctl)"))
    func entriesWithoutARecordAreListedAndRemovedByStore() throws {
        let gone = UUID(), kept = UUID()
        for (id, name) in [(gone, "ck"), (gone, "session:ak"), (kept, "cku")] {
            try KernelKeyring.add(description: "secstore:\(Self.hex(id)):\(name)", payload: [9])
        }
        defer { _ = try? FirstUnlockCache.removeKeyringEntries(ofStores: [gone, kept]) }
        // Not SecStore's (no store id): never listed, never removed.
        let foreign = "secstore:probe:\(UUID().uuidString)"
        try KernelKeyring.add(description: foreign, payload: [1])
        defer { KernelKeyring.remove(description: foreign) }

        let listed = try FirstUnlockCache.keyringEntries().filter { [gone, kept].contains($0.storeID) }
        #expect(Set(listed.map { "\($0.storeID == gone ? "gone" : "kept") \($0.name) \($0.kind)" })
                == ["gone ck firstUnlock", "gone session:ak sharedUnlock", "kept cku firstUnlock"])
        #expect(listed.allSatisfy { $0.storeURL == nil && $0.deviceKeyURL == nil })

        #expect(try FirstUnlockCache.removeKeyringEntries(ofStores: [gone]) == 2)
        #expect(try entries(of: gone).isEmpty)
        #expect(try entries(of: kept).count == 1)
        #expect((try? KernelKeyring.read(description: foreign)) == [1])
    }

    /// A new store is built under a temporary name and linked into place; the location it
    /// records is the final one (else the store would look gone once in place).
    @Test func locationOfAStoreBeingCreatedIsItsFinalPath() {
        let id = UUID().uuidString
        #expect(FirstUnlockStore.finalPath(of: "/home/u/.local/share/secstore/.default.secstore.new-\(id)")
                == "/home/u/.local/share/secstore/default.secstore")
        for untouched in ["/srv/app/secrets.secstore", "/srv/.hidden.secstore", "/srv/.x.new-not-a-uuid", "/srv/.new-\(id)"] {
            #expect(FirstUnlockStore.finalPath(of: untouched) == untouched)
        }
    }

    @Test func refusalsSayWhatHappened() {
        let quota = KeyringRefusal(errno: EDQUOT)
        #expect(quota.meansQuotaExceeded && !quota.meansUnavailable)
        #expect(quota.description == "the user's key quota is full (EDQUOT)")
        for errno in [EPERM, ENOSYS, EACCES] {
            #expect(KeyringRefusal(errno: errno).meansUnavailable)
        }
        #expect(KeyringRefusal(errno: EPERM).description == "keyrings are unavailable here (EPERM)")
        #expect(KeyringRefusal(errno: 4242).description.hasSuffix("(errno 4242)"))
    }

    /// `SECSTORE_KEYRING=off` style process-memory handles never touch the kernel, lock included.
    @Test func aProcessMemoryStoreNeverSharesOrReportsARefusal() throws {
        let dir = TemporaryDirectory()
        let store = try dir.openProcessLocalStore()
        try store.setPassphraseAsOwner("pw", limits: .minimumForTesting)
        try store.unlock(passphrase: "pw")
        #expect(store.firstUnlockBackend == .processMemory)
        #expect(store.keyringRefusal == nil)
        #expect(try !store.unlock(passphrase: "pw", sharedFor: 60))
        store.lock(forgettingFirstUnlock: true)
    }

    /// What is shared is sealed, then wiped where the caller holds it: the caller's buffer is
    /// the only plaintext copy. (`put` once copied its argument into a local and wiped that,
    /// leaving the caller's copy of a class key to be freed as it was.)
    @Test func sharingWipesTheCallersPlaintext() throws {
        let store = try Self.processMemoryStore(id: 7)
        var plain = [UInt8](repeating: 0xA5, count: 32)
        _ = store.put(.firstUnlock(.afterFirstUnlock), &plain, timeout: nil)
        #expect(plain.count == 32 && plain.allSatisfy { $0 == 0 }, "the caller's plaintext is wiped")
        defer { store.remove(.afterFirstUnlock) }
        // What was shared is the plaintext as it was before the wipe.
        #expect(store.load(.afterFirstUnlock)?.withUnsafeBytes { Array($0) } == [UInt8](repeating: 0xA5, count: 32))
    }

    /// A shared entry is authenticated, but only a key's length makes it a class key: a
    /// shorter one (another SecStore version's format, say) is no key, where it used to stop
    /// the process in key derivation's precondition.
    @Test func aSharedEntryOfAnotherLengthIsNoKey() throws {
        let store = try Self.processMemoryStore(id: 9)
        var short = [UInt8](repeating: 0x5A, count: 16)
        _ = store.put(.firstUnlock(.afterFirstUnlock), &short, timeout: nil)
        defer { store.remove(.afterFirstUnlock) }
        let loaded = store.load(.afterFirstUnlock)
        #expect(loaded == nil)
        // What reading through the vault does with a loaded key: derive the item keys.
        _ = try loaded.map { try ItemKeys(classKey: $0) }
    }

    /// A first-unlock store in this process's memory, for a store id of 16 bytes `id`.
    private static func processMemoryStore(id: UInt8) throws -> FirstUnlockStore {
        FirstUnlockStore(storeID: Array(repeating: id, count: 16), sealingKey: try MasterSubkeys(of: SecureBytes.random(count: 32)).firstUnlockKey,
                         mode: .processMemory, logger: Logger(label: "test"))
    }

    private static func hex(_ id: UUID) -> String {
        withUnsafeBytes(of: id.uuid) { Hex.string($0) }
    }
}

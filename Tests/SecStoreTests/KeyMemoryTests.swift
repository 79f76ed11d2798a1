import Foundation
import Testing
@testable import SecStore

/// Which keys share a guarded region, and that locked keys are gone: a region is wiped only
/// when its last key goes, so a class whose keys must go on `lock` (or when its row is
/// re-sealed under a passphrase) may not share one with a class that stays.
@Suite struct KeyMemoryTests {
    /// The item keys of every class a store without a passphrase opens.
    private func openedKeys(_ store: SecretStore) throws -> [Accessibility: ItemKeys] {
        let vault = store.engine.vault
        return try store.engine.database.read { db in
            var keys: [Accessibility: ItemKeys] = [:]
            for accessibility in KeyVault.initialClasses { keys[accessibility] = try vault.itemKeys(for: accessibility, in: db) }
            return keys
        }
    }

    @Test("a class that can be put behind a passphrase has a region of its own; the others share one")
    func passphraseClassesNeverShareARegion() throws {
        let harness = try StoreHarness(access: .owner)
        let keys = try openedKeys(harness.store)
        #expect(keys.count == KeyVault.initialClasses.count)
        for (accessibility, itemKeys) in keys {
            #expect(itemKeys.metadata.sharesRegion(with: itemKeys.secret), "a class's two keys go together")
            guard accessibility.isPassphraseProtected else { continue }
            for (other, otherKeys) in keys where other != accessibility {
                #expect(!itemKeys.metadata.sharesRegion(with: otherKeys.metadata), "\(accessibility) shares with \(other)")
                #expect(!itemKeys.secret.sharesRegion(with: otherKeys.secret), "\(accessibility) shares with \(other)")
            }
        }
        // The master key's subkeys live as long as the vault, in one region of their own.
        let subkeys = try MasterSubkeys(of: SecureBytes.random(count: KeyDerivation.keyByteCount))
        #expect(subkeys.classWrapKey.sharesRegion(with: subkeys.firstUnlockKey))
        let classWrapKey = harness.store.engine.vault.classWrapKey
        for (_, itemKeys) in keys { #expect(!itemKeys.metadata.sharesRegion(with: classWrapKey)) }
        let permanent = keys.filter { !$0.key.isPassphraseProtected }.map(\.value)
        #expect(permanent.count >= 2)
        #expect(permanent.dropFirst().allSatisfy { $0.metadata.sharesRegion(with: permanent[0].metadata) },
                "the classes no passphrase can lock share one region")
    }

    /// `lock` leaves no reference to a passphrase-protected class's keys, so their region is
    /// freed, and `sodium_free` wipes it. (Which bytes were wiped cannot be read back safely:
    /// the pages are unmapped.)
    @Test("after lock, a locked class's keys are released, their region freed and wiped")
    func lockReleasesTheKeys() throws {
        let harness = try StoreHarness(access: .owner)
        try harness.store.setPassphrase("pw", limits: .minimumForTesting)
        try harness.store.unlock(passphrase: "pw")
        weak var metadata: SecureBytes?
        weak var secret: SecureBytes?
        try harness.store.engine.database.read { db in
            let keys = try harness.store.engine.vault.itemKeys(for: .whenUnlocked, in: db)
            metadata = keys.metadata
            secret = keys.secret
        }
        #expect(metadata != nil && secret != nil, "the unlocked vault holds the class's keys")
        harness.store.lock()
        #expect(metadata == nil, "the metadata key outlived lock")
        #expect(secret == nil, "the secret key outlived lock")
    }

    /// A class key is unwrapped when first needed, not at open: a process that reads one item
    /// opens one class (one guarded allocation), and the classes no passphrase can lock
    /// together, as they share a region.
    @Test("an open unwraps no class key; a read opens its own class only")
    func classKeysAreOpenedWhenFirstNeeded() throws {
        let harness = try StoreHarness()
        try harness.store.add(.genericPassword(service: "s", account: "a", data: Data("v".utf8)))
        let fresh = try harness.open(as: harness.access)
        let vault = fresh.engine.vault
        let held = { vault.state.withLock { Set($0.keys.keys.compactMap(Accessibility.init(code:))) } }
        #expect(held().isEmpty)
        #expect(try fresh.secret("a", service: "s") == Data("v".utf8))
        #expect(held() == [.whenUnlocked])
        _ = try fresh.engine.database.read { db in try vault.itemKeys(for: .alwaysThisDeviceOnly, in: db) }
        #expect(held() == [.whenUnlocked, .always, .alwaysThisDeviceOnly])
        // verify's check of every class key row authenticates them without opening any.
        #expect(try vault.damagedClasses().isEmpty)
        #expect(held() == [.whenUnlocked, .always, .alwaysThisDeviceOnly])
    }
}

import Foundation
import Testing
@testable import SecStore

/// Which keys share a guarded region: a region is wiped only when its last key goes, so a
/// class whose keys must go on `lock` (or when its row is re-sealed under a passphrase) may not
/// share one with a class that stays.
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
        let permanent = keys.filter { !$0.key.isPassphraseProtected }.map(\.value)
        #expect(permanent.count >= 2)
        #expect(permanent.dropFirst().allSatisfy { $0.metadata.sharesRegion(with: permanent[0].metadata) },
                "the classes no passphrase can lock share one region")
    }
}

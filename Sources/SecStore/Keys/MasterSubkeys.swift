/// The master key's subkeys (``KeyVault``'s key tree), each with the purpose, id and context
/// that every existing store was made with, derived together into one guarded region.
///
/// They live exactly as long as the vault that holds them, so sharing a region costs nothing
/// of the rule that a region is wiped when its last key goes; an open makes one `sodium_malloc`
/// for them instead of five (docs/performance.md, "Open"). Class keys are not here: they must
/// go on `lock`, each class on its own (docs/decisions.md).
///
/// ```swift
/// let subkeys = try MasterSubkeys(of: masterKey)
/// let tag = subkeys.indexer.digest(message, byteCount: 16)
/// ```
struct MasterSubkeys {
    /// Blind-index tags: `kdf(master, 1, "SSINDEX_")`.
    let indexer: BlindIndexer
    /// Wraps every device-protected class key: `kdf(master, 2, "SSCLSWRP")`.
    let classWrapKey: SecureBytes
    /// Seals the keys put in the kernel keyring: `kdf(master, 3, "SSKRWRAP")`.
    let firstUnlockKey: SecureBytes
    /// Binds class key rows to the passphrase state: `kdf(master, 4, "SSKEYTBL")`.
    let keyTableBinder: BlindIndexer
    /// The keyed digest over all item rows: `kdf(master, 5, "SSROWDIG")`.
    let itemsDigestHasher: BlindIndexer

    init(of masterKey: SecureBytes) throws {
        let indexer = BlindIndexer.regionLayout.count
        let layout = BlindIndexer.regionLayout + [KeyDerivation.keyByteCount, KeyDerivation.keyByteCount]
            + BlindIndexer.regionLayout + BlindIndexer.regionLayout
        let classWrap = indexer, firstUnlock = indexer + 1, keyTable = indexer + 2, digest = keyTable + indexer
        let keys = try masterKey.withUnsafeBytes { master in
            try SecureBytes.group(layout) { buffers in
                BlindIndexer.prepare(buffers[0..<indexer], subkeyOf: master, id: 1, context: "SSINDEX_")
                KeyDerivation.derive(into: buffers[classWrap], from: master, id: 2, context: "SSCLSWRP")
                KeyDerivation.derive(into: buffers[firstUnlock], from: master, id: 3, context: "SSKRWRAP")
                BlindIndexer.prepare(buffers[keyTable..<digest], subkeyOf: master, id: 4, context: "SSKEYTBL")
                BlindIndexer.prepare(buffers[digest...], subkeyOf: master, id: 5, context: "SSROWDIG")
            }
        }
        self.indexer = BlindIndexer(prepared: keys[0..<indexer])
        classWrapKey = keys[classWrap]
        firstUnlockKey = keys[firstUnlock]
        keyTableBinder = BlindIndexer(prepared: keys[keyTable..<digest])
        itemsDigestHasher = BlindIndexer(prepared: keys[digest...])
    }
}

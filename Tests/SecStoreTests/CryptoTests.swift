import Foundation
import Testing
import CSodium
@testable import SecStore

/// The crypto layer's own guarantees, which the engine relies on.
@Suite struct AEADTests {
    let key: SecureBytes
    let associatedData = Array("bound to this place".utf8)

    init() throws { key = try SecureBytes.random(count: AEAD.keyByteCount) }

    /// A throwing initializer used to free the guarded memory, then `deinit` freed it again
    /// (SIGSEGV: Argon2id out of memory crashed the tool with exit 139).
    @Test func secureBytesFreesOnceWhenItsInitializerThrows() throws {
        struct Refused: Error {}
        for _ in 0..<100 {
            #expect(throws: Refused.self) { try SecureBytes(count: 32) { _ in throw Refused() } }
        }
        // The allocator is intact afterwards.
        let key = try SecureBytes.random(count: 32)
        #expect(key.count == 32)
    }

    @Test("Argon2id limits: one acceptable range for setting, storing and reading, with a maximum; weak ones are flagged")
    func passwordHashingLimits() {
        #expect(PasswordHashingLimits.moderate.isAcceptable && !PasswordHashingLimits.moderate.isWeak)
        #expect(PasswordHashingLimits.minimumForTesting.isAcceptable && PasswordHashingLimits.minimumForTesting.isWeak)
        #expect(PasswordHashingLimits.maximum.isAcceptable)
        #expect(!PasswordHashingLimits(operations: 1, memoryBytes: 64 << 30).isAcceptable)
        #expect(!PasswordHashingLimits(operations: UInt64(UInt32.max), memoryBytes: 8192).isAcceptable)
        #expect(!PasswordHashingLimits(operations: 0, memoryBytes: 1 << 20).isAcceptable)
    }

    @Test func sealThenOpenRoundTrips() throws {
        let sealed = AEAD.seal(Data("secret".utf8), key: key, associatedData: associatedData)
        #expect(sealed.count == AEAD.overhead + 6)
        #expect(try AEAD.open(sealed, key: key, associatedData: associatedData) == Data("secret".utf8))
        // Random nonces: the same plaintext never seals to the same bytes.
        #expect(AEAD.seal(Data("secret".utf8), key: key, associatedData: associatedData) != sealed)
    }

    /// `verify` relies on libsodium's decrypt checking the tag and stopping when given no
    /// output buffer; if a libsodium release ever changed that, this test fails.
    @Test func verifyDetectsTampering() throws {
        let sealed = AEAD.seal(Data(repeating: 7, count: 150), key: key, associatedData: associatedData)
        sealed.withUnsafeBytes { #expect(AEAD.verify($0, key: key, associatedData: associatedData)) }
        for position in [0, 23, 24, 100, sealed.count - 1] {  // nonce, ciphertext, tag
            var altered = sealed
            altered[position] ^= 0x01
            altered.withUnsafeBytes { #expect(!AEAD.verify($0, key: key, associatedData: associatedData), "byte \(position)") }
        }
        sealed.withUnsafeBytes { bytes in
            #expect(!AEAD.verify(bytes, key: key, associatedData: associatedData + [0]))
            #expect(!AEAD.verify(UnsafeRawBufferPointer(rebasing: bytes[..<20]), key: key, associatedData: associatedData))
        }
        let otherKey = try SecureBytes.random(count: AEAD.keyByteCount)
        sealed.withUnsafeBytes { #expect(!AEAD.verify($0, key: otherKey, associatedData: associatedData)) }
    }

    @Test func openRefusesAlteredBytesAndWrongContext() throws {
        let sealed = AEAD.seal(Data("secret".utf8), key: key, associatedData: associatedData)
        var altered = sealed
        altered[30] ^= 0x80
        #expect(throws: CryptoFailure.authenticationFailed) { try AEAD.open(altered, key: key, associatedData: associatedData) }
        #expect(throws: CryptoFailure.authenticationFailed) { try AEAD.open(sealed, key: key, associatedData: []) }
        #expect(throws: CryptoFailure.malformedCiphertext) { try AEAD.open(Data(count: 10), key: key, associatedData: associatedData) }
    }

    @Test func callerSuppliedNonceIsUsed() throws {
        let nonce = ArraySlice([UInt8](repeating: 9, count: AEAD.nonceByteCount))
        let sealed = AEAD.seal(Data("x".utf8), key: key, associatedData: associatedData, nonce: nonce)
        #expect(Array(sealed.prefix(AEAD.nonceByteCount)) == Array(nonce))
        #expect(try AEAD.open(sealed, key: key, associatedData: associatedData) == Data("x".utf8))
    }
}

@Suite struct KeyDerivationTests {
    @Test func subkeysDifferByIdAndContextAndAreStable() throws {
        let parent = try SecureBytes.random(count: KeyDerivation.keyByteCount)
        func bytes(_ key: SecureBytes) -> [UInt8] { key.withUnsafeBytes(Array.init) }
        let one = try KeyDerivation.subkey(of: parent, id: 1, context: "SSTEST01")
        #expect(bytes(one) == bytes(try KeyDerivation.subkey(of: parent, id: 1, context: "SSTEST01")))
        #expect(bytes(one) != bytes(try KeyDerivation.subkey(of: parent, id: 2, context: "SSTEST01")))
        #expect(bytes(one) != bytes(try KeyDerivation.subkey(of: parent, id: 1, context: "SSTEST02")))
        #expect(bytes(one) != bytes(parent))
    }

    @Test func blindIndexIsKeyedAndDeterministic() throws {
        let first = try BlindIndexer(key: SecureBytes.random(count: 32))
        let second = try BlindIndexer(key: SecureBytes.random(count: 32))
        let message = Array("service".utf8)
        #expect(first.digest(message, byteCount: 16) == first.digest(message, byteCount: 16))
        #expect(first.digest(message, byteCount: 16) != second.digest(message, byteCount: 16))
        #expect(first.digest(message, byteCount: 16) != first.digest(Array("servicf".utf8), byteCount: 16))
    }

    /// The prepared keyed states must give exactly one-shot keyed BLAKE2b: every tag in
    /// every existing store file was computed that way.
    @Test func blindIndexEqualsOneShotKeyedBLAKE2b() throws {
        let key = try SecureBytes.random(count: 32)
        let indexer = try BlindIndexer(key: key)
        for length in [0, 1, 63, 64, 127, 128, 129, 300] {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            for byteCount in [16, 24, 32] {
                var expected = [UInt8](repeating: 0, count: byteCount)
                key.withUnsafeBytes { keyBytes in
                    _ = crypto_generichash(&expected, byteCount, message, UInt64(message.count),
                                           keyBytes.baseAddress!.assumingMemoryBound(to: UInt8.self), keyBytes.count)
                }
                #expect(indexer.digest(message, byteCount: byteCount) == expected, "length \(length), \(byteCount) bytes")
            }
        }
    }

    /// A message written in pieces (``DigestWriter``: bytes one at a time, runs that fit the
    /// block buffer, runs that cross it or are longer than a block) must hash exactly as the
    /// whole message does: tags and row digests are written so, and every store's were
    /// computed over whole messages.
    @Test func aMessageWrittenInPiecesHashesAsAWholeOne() throws {
        let key = try SecureBytes.random(count: 32)
        let indexer = try BlindIndexer(key: key)
        let message = (0..<700).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 3) }
        for pieceLengths in [[1, 1, 1, 97, 28, 1, 300], [127, 1, 128, 129], [0, 5, 0, 400], [130], [64, 64, 64], [3, 250, 7, 1, 139]] {
            let total = pieceLengths.reduce(0, +)
            let whole = Array(message.prefix(total))
            for byteCount in [16, 32, 24] {
                let pieced = indexer.digest(byteCount: byteCount) { writer in
                    var offset = 0
                    for length in pieceLengths {
                        let piece = Array(whole[offset..<offset + length])
                        if length == 1 { writer.append(piece[0]) } else { writer.append(contentsOf: piece) }
                        offset += length
                    }
                }
                #expect(pieced == indexer.digest(whole, byteCount: byteCount), "pieces \(pieceLengths), \(byteCount) bytes")
            }
        }
    }

    /// Keys made in one guarded region (the master key's subkeys and indexers' states, an item
    /// class's two subkeys) must be exactly the keys made one by one: every existing store was
    /// sealed and tagged with those.
    @Test func groupedKeysEqualKeysMadeOneByOne() throws {
        let parent = try SecureBytes.random(count: 32)
        let subkeys = try MasterSubkeys(of: parent)
        let grouped = [(subkeys.indexer, 1 as UInt64, "SSINDEX_" as StaticString), (subkeys.keyTableBinder, 4, "SSKEYTBL"),
                       (subkeys.itemsDigestHasher, 5, "SSROWDIG")]
        for (indexer, id, context) in grouped {
            let single = try BlindIndexer(key: KeyDerivation.subkey(of: parent, id: id, context: context))
            for length in [0, 1, 64, 129] {
                let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 13) }
                for byteCount in [16, 24, 32] {
                    #expect(indexer.digest(message, byteCount: byteCount) == single.digest(message, byteCount: byteCount), "\(context)")
                }
            }
        }
        let classKey = try SecureBytes.random(count: 32)
        let itemKeys = try ItemKeys(classKey: classKey)
        let bytes = { (key: SecureBytes) in key.withUnsafeBytes { Array($0) } }
        #expect(bytes(itemKeys.metadata) == bytes(try KeyDerivation.subkey(of: classKey, id: 1, context: "SSITEMMD")))
        #expect(bytes(itemKeys.secret) == bytes(try KeyDerivation.subkey(of: classKey, id: 2, context: "SSITEMSC")))
        #expect(bytes(itemKeys.metadata) != bytes(itemKeys.secret))
    }

    /// Known answers, computed here with libsodium directly and the ids and contexts written
    /// out: a changed id, context or order in SecStore's derivations would change every key
    /// of every existing store.
    @Test func keyDerivationsMatchLibsodiumWithTheirIDsAndContexts() throws {
        let parentBytes = (0..<32).map { UInt8($0) }
        let parent = try parentBytes.withUnsafeBytes { try SecureBytes(copying: $0) }
        func kdf(_ id: UInt64, _ context: String, from parent: [UInt8]) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: 32)
            _ = crypto_kdf_derive_from_key(&out, 32, id, context, parent)
            return out
        }
        func keyed(_ message: [UInt8], key: [UInt8], _ count: Int) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: count)
            _ = crypto_generichash(&out, count, message, UInt64(message.count), key, key.count)
            return out
        }
        let bytes = { (key: SecureBytes) in key.withUnsafeBytes { Array($0) } }
        let itemKeys = try ItemKeys(classKey: parent)
        #expect(bytes(itemKeys.metadata) == kdf(1, "SSITEMMD", from: parentBytes))
        #expect(bytes(itemKeys.secret) == kdf(2, "SSITEMSC", from: parentBytes))
        let message = Array("secstore/tag/v1/known answer".utf8)
        let subkeys = try MasterSubkeys(of: parent)
        #expect(bytes(subkeys.classWrapKey) == kdf(2, "SSCLSWRP", from: parentBytes))
        #expect(bytes(subkeys.firstUnlockKey) == kdf(3, "SSKRWRAP", from: parentBytes))
        // The three indexers a store makes: blind-index tags, key-row bindings, the items digest.
        let indexers = [(subkeys.indexer, kdf(1, "SSINDEX_", from: parentBytes)),
                        (subkeys.keyTableBinder, kdf(4, "SSKEYTBL", from: parentBytes)),
                        (subkeys.itemsDigestHasher, kdf(5, "SSROWDIG", from: parentBytes))]
        for (indexer, key) in indexers {
            #expect(indexer.digest(message, byteCount: 16) == keyed(message, key: key, 16))
            #expect(indexer.digest(message, byteCount: 32) == keyed(message, key: key, 32))
        }
    }

    /// A group's keys are separate: each its own length and bytes, all alive as long as any is.
    @Test func aGroupHoldsSeparateKeys() throws {
        var keys: [SecureBytes]? = try SecureBytes.group([32, 5, 384]) { buffers in
            for (index, buffer) in buffers.enumerated() { buffer.initializeMemory(as: UInt8.self, repeating: UInt8(index + 1)) }
        }
        let last = keys![2]
        #expect(keys!.map(\.count) == [32, 5, 384])
        for (index, key) in keys!.enumerated() {
            #expect(key.withUnsafeBytes { $0.allSatisfy { $0 == UInt8(index + 1) } })
        }
        keys = nil
        // The region outlives the keys dropped before it.
        #expect(last.withUnsafeBytes { $0.allSatisfy { $0 == 3 } })
        struct Refused: Error {}
        #expect(throws: Refused.self) { try SecureBytes.group([16, 16]) { _ in throw Refused() } }
        #expect(throws: CryptoFailure.self) { try SecureBytes.group([16, 0]) { _ in } }
    }

    @Test func secureBytesNeverShowTheirContents() throws {
        let key = try SecureBytes.random(count: 32)
        #expect(key.description == "SecureBytes(32 bytes, redacted)")
        #expect(!"\(key)".contains(key.withUnsafeBytes { $0.map { String(format: "%02x", $0) }.joined() }))
    }
}

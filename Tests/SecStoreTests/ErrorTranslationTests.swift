import Foundation
@testable import SecStore
import Testing

/// Only `SecStoreError` leaves the public API: lower layers' errors are translated once.
@Suite("Error translation") struct ErrorTranslationTests {
    @Test("libsodium's failures become the documented kinds (guarded memory exhausted is errSecAllocate, not errSecNotAvailable)")
    func cryptoFailures() {
        #expect(SecStoreError.translating(CryptoFailure.outOfSecureMemory, path: "s").code == .outOfMemory)
        #expect(SecStoreError.translating(CryptoFailure.outOfSecureMemory, path: "s").status == -108)
        #expect(SecStoreError.translating(CryptoFailure.passwordHashingFailed(.moderate, budget: nil), path: "s").code == .outOfMemory)
        #expect(SecStoreError.translating(CryptoFailure.authenticationFailed, path: "s").code == .corruptData)
        #expect(SecStoreError.translating(CryptoFailure.libraryUnavailable, path: "s").code == .storeUnavailable)
    }

    @Test("SecStore's own errors pass through unchanged; anything else is storeUnavailable naming its type")
    func passThroughAndUnknown() {
        let own = SecStoreError(.duplicateItem, "dup")
        #expect(SecStoreError.translating(own, path: "s") == own)
        let foreign = SecStoreError.translating(CocoaError(.fileReadUnknown), path: "/x/y.secstore")
        #expect(foreign.code == .storeUnavailable)
        #expect(foreign.message.contains("/x/y.secstore"))
    }

    @Test("A damaged item's error names the item and the part, so verify never parses messages")
    func structuredCorruption() throws {
        let reference = try #require(PersistentReference(data: Data("genp".utf8) + Data(repeating: 7, count: 16)))
        let error = SecStoreError.corrupt(.secret, of: reference)
        #expect(error.code == .corruptData)
        #expect(error.item == reference)
        #expect(error.part == .secret)
    }
}

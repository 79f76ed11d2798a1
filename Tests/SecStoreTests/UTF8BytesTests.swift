import Foundation
import Testing
@testable import SecStore

/// Byte-for-byte text equality (``UTF8Bytes``), which group names, attribute names and the
/// schema check rely on, where Swift's `==` would merge canonically equivalent spellings.
struct UTF8BytesTests {
    @Test func canonicallyEquivalentSpellingsAreDifferentBytes() {
        #expect("\u{E9}" == "e\u{301}")   // what Swift's `==` says
        #expect(!UTF8Bytes.equal("\u{E9}", "e\u{301}"))
        #expect(!UTF8Bytes.equal("group-\u{E9}", "group-e\u{301}"))
    }

    @Test func equalBytesAreEqual() {
        #expect(UTF8Bytes.equal("", ""))
        #expect(UTF8Bytes.equal("secstore.sync", "secstore." + "sync"))
        #expect(!UTF8Bytes.equal("secstore.sync", "secstore.syn"))
        #expect(!UTF8Bytes.equal("", "a"))
        #expect(!UTF8Bytes.equal("Secstore.sync", "secstore.sync"))
    }

    @Test func textAgainstABuffer() {
        let bytes: [UInt8] = Array("e\u{301}".utf8)
        bytes.withUnsafeBytes { buffer in
            #expect(UTF8Bytes.equal("e\u{301}", buffer))
            #expect(!UTF8Bytes.equal("\u{E9}", buffer))
            #expect(!UTF8Bytes.equal("e", buffer))
        }
        #expect(UTF8Bytes.equal("", UnsafeRawBufferPointer(start: nil, count: 0)))
    }

    /// A string made from an `NSString`. (On Linux it is native UTF-8 like any other, so this
    /// does not reach the walk of a string without contiguous UTF-8, which only a lazily
    /// bridged string on Apple's platforms would take.)
    @Test func bridgedStrings() {
        let bridged = String(NSString(string: "caf\u{E9}"))
        #expect(UTF8Bytes.equal(bridged, "caf\u{E9}"))
        #expect(!UTF8Bytes.equal(bridged, "cafe\u{301}"))
    }
}

import Foundation

/// Text compared byte for byte: the one home of it. Swift's `==` on strings is Unicode
/// canonical equivalence (`"é"` and `"e\u{301}"` are equal), but group names, attribute
/// names and values, and the store's own schema are bytes: an item must get its own bytes
/// back, and two spellings of a name are two names.
///
/// ```swift
/// UTF8Bytes.equal("\u{E9}", "e\u{301}")     // false: different bytes
/// UTF8Bytes.equal(name, sqliteText)          // against a buffer SQLite returned
/// ```
package enum UTF8Bytes {
    /// Whether `one` and `other` have the same UTF-8 bytes.
    package static func equal(_ one: String, _ other: String) -> Bool {
        other.utf8.withContiguousStorageIfAvailable { equal(one, UnsafeRawBufferPointer($0)) }
            ?? one.utf8.elementsEqual(other.utf8)
    }

    /// Whether `text`'s UTF-8 bytes are `bytes`. With `memcmp` over the contiguous UTF-8 a
    /// native string already has (read in place: a mutable copy for `withUTF8` cost a retain
    /// and a release, on the read path's every decoded string); a bridged string's bytes are
    /// walked. A walk of the two `utf8` views byte by byte cost many times as much (the schema
    /// check at open compares 2.6 KB of definitions this way).
    @inline(__always)
    package static func equal(_ text: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { utf8 in
            utf8.count == bytes.count && (utf8.isEmpty || memcmp(utf8.baseAddress!, bytes.baseAddress!, utf8.count) == 0)
        } ?? text.utf8.elementsEqual(bytes)
    }
}

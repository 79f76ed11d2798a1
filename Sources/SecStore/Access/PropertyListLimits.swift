import Foundation

/// How large and how deep a property list SecStore reads as entitlements: checked before
/// Foundation's decoder sees the bytes.
///
/// Foundation's XML property-list scanner recurses once per `<array>` or `<dict>` level, so a
/// hostile or damaged file about 20,000 arrays deep (320 KB) overflowed the thread's stack
/// (SIGSEGV) instead of failing. Its OpenStep and binary readers stop such a file by themselves
/// (the binary one reads only the keys asked for). An entitlements file is a few kilobytes and
/// nests two levels (a dictionary of arrays of strings); the limits leave room for other keys.
///
/// ```swift
/// try PropertyListLimits.check(data, source: "App.entitlements")   // invalidEntitlements if not
/// ```
enum PropertyListLimits {
    /// Larger files are refused, unread when they are files (``checkSize(ofFileAt:)``).
    static let maximumByteCount = 1 << 20
    /// Deeper XML lists are refused: far beyond any entitlements file, far below a stack's reach.
    static let maximumDepth = 64

    /// Throws `invalidEntitlements` when `data` is over ``maximumByteCount`` or an XML list
    /// nested deeper than ``maximumDepth``.
    static func check(_ data: Data, source: String) throws {
        guard data.count <= maximumByteCount else { throw tooLarge(source) }
        guard xmlDepth(of: data, stoppingAbove: maximumDepth) <= maximumDepth else {
            throw SecStoreError(.invalidEntitlements, "\(source) has arrays or dictionaries nested more than \(maximumDepth) levels deep; an entitlements file needs two. Check that it is the right file.")
        }
    }

    /// Throws `invalidEntitlements` when the file at `url` (its target, for a link) is over
    /// ``maximumByteCount``, before anything reads it. A path that cannot be examined is left to
    /// the read, which says why.
    static func checkSize(ofFileAt url: URL) throws {
        var info = stat()
        if stat(url.path, &info) == 0, info.st_size > maximumByteCount { throw tooLarge(url.path) }
    }

    private static func tooLarge(_ source: String) -> SecStoreError {
        SecStoreError(.invalidEntitlements, "\(source) is larger than \(maximumByteCount / 1024) KiB; an entitlements file is a few kilobytes. Check that it is the right file (SECSTORE_ENTITLEMENTS names it).")
    }

    /// The deepest nesting of `<array>` and `<dict>` elements (self-closing ones do not count),
    /// counted no further than just past `limit`. Any text that is not an XML list counts 0.
    /// A tag spelled inside a comment counts too: that can only refuse a file, never let a
    /// deeper one through.
    static func xmlDepth(of data: Data, stoppingAbove limit: Int) -> Int {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Int in
            var depth = 0, deepest = 0, index = 0
            while index < bytes.count, deepest <= limit {
                defer { index += 1 }
                guard bytes[index] == UInt8(ascii: "<") else { continue }
                let closing = index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/")
                let nameStart = closing ? index + 2 : index + 1
                guard let nameEnd = containerName(in: bytes, at: nameStart) else { continue }
                if closing {
                    depth = max(0, depth - 1)
                    continue
                }
                // `<array/>` and `<dict />` open nothing.
                var end = nameEnd
                while end < bytes.count, bytes[end] != UInt8(ascii: ">") { end += 1 }
                if end < bytes.count, bytes[end - 1] == UInt8(ascii: "/") { continue }
                depth += 1
                deepest = max(deepest, depth)
            }
            return deepest
        }
    }

    /// The index just past `array` or `dict` at `start` when a tag's end follows it (`>`, `/`
    /// or white space), else nil.
    private static func containerName(in bytes: UnsafeRawBufferPointer, at start: Int) -> Int? {
        for name in [arrayName, dictName] where start + name.count < bytes.count {
            guard zip(name, bytes[start..<start + name.count]).allSatisfy({ $0 == $1 }) else { continue }
            switch bytes[start + name.count] {
            case UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                return start + name.count
            default:
                continue
            }
        }
        return nil
    }

    private static let arrayName = Array("array".utf8)
    private static let dictName = Array("dict".utf8)
}

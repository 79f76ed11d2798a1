import Foundation

/// Reads structured choices out of a fuzzer's bytes, like LLVM's `FuzzedDataProvider`: every
/// read consumes bytes from the front, and a read past the end gives zeros, so any input,
/// even an empty one, decodes to something and the same bytes always decode the same way.
public struct FuzzInput {
    private let bytes: [UInt8]
    private var offset = 0

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { offset >= bytes.count }

    /// How many bytes are left.
    public var remainingCount: Int { max(0, bytes.count - offset) }

    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// A number in `0..<count` (`count` ≥ 1), from one byte, or two when `count` > 256.
    public mutating func index(_ count: Int) -> Int {
        precondition(count >= 1)
        if count <= 256 { return Int(byte()) % count }
        return Int(integer(UInt16.self)) % count
    }

    public mutating func bool() -> Bool { byte() & 1 == 1 }

    /// A fixed-width integer, little-endian, from `MemoryLayout<T>.size` bytes.
    public mutating func integer<T: FixedWidthInteger>(_: T.Type = T.self) -> T {
        var value: T = 0
        for index in 0..<MemoryLayout<T>.size {
            value |= T(truncatingIfNeeded: byte()) << (8 * index)
        }
        return value
    }

    /// A double from eight bytes' bit pattern: any value, NaNs and infinities included.
    public mutating func double() -> Double { Double(bitPattern: integer(UInt64.self)) }

    /// Up to `maximum` bytes: a length byte, then that many bytes (fewer at the end).
    public mutating func bytes(maximum: Int) -> [UInt8] {
        let count = maximum <= 255 ? index(maximum + 1) : Int(integer(UInt16.self)) % (maximum + 1)
        return take(count)
    }

    /// Exactly `count` bytes, or fewer at the end of the input.
    public mutating func take(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, offset + max(0, count))
        defer { offset = max(offset, end) }
        return offset < end ? Array(bytes[offset..<end]) : []
    }

    /// A string of up to `maximum` bytes, decoded as UTF-8 with invalid sequences replaced.
    public mutating func string(maximum: Int) -> String {
        String(decoding: bytes(maximum: maximum), as: UTF8.self)
    }

    /// Every byte not read yet.
    public mutating func rest() -> [UInt8] { take(remainingCount) }

    /// One element of `choices` (not empty).
    public mutating func pick<T>(_ choices: [T]) -> T { choices[index(choices.count)] }
}

/// Little-endian bytes, for the seed writers.
enum FuzzBytes {
    static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
}

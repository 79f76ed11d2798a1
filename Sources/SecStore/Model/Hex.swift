/// Lowercase hexadecimal, as `secstore` prints references and Linux prints machine ids.
package enum Hex {
    /// The bytes of a string of hex digits, or `nil` when it is not one.
    ///
    /// ```swift
    /// Hex.bytes("51df0b4b")   // [0x51, 0xdf, 0x0b, 0x4b]
    /// ```
    package static func bytes(_ digits: some StringProtocol) -> [UInt8]? {
        let utf8 = Array(digits.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        for index in stride(from: 0, to: utf8.count, by: 2) {
            guard let high = value(of: utf8[index]), let low = value(of: utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `bytes` as lowercase hex digits, written into one buffer (one string per byte cost
    /// ~2 µs per persistent reference in `secstore list`).
    package static func string(_ bytes: some Sequence<UInt8>) -> String {
        var digits: [UInt8] = []
        digits.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            digits.append(alphabet[Int(byte >> 4)])
            digits.append(alphabet[Int(byte & 0x0F)])
        }
        return String(decoding: digits, as: UTF8.self)
    }

    private static let alphabet = Array("0123456789abcdef".utf8)
}

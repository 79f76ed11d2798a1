/// Lowercase hexadecimal, as `secstore` prints references and Linux prints machine ids.
@_spi(DeviceIdentity)
public enum Hex {
    /// The bytes of a string of hex digits, or `nil` when it is not one.
    ///
    /// ```swift
    /// Hex.bytes("51df0b4b")   // [0x51, 0xdf, 0x0b, 0x4b]
    /// ```
    public static func bytes(_ digits: some StringProtocol) -> [UInt8]? {
        guard digits.utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.utf8.count / 2)
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            guard let byte = UInt8(digits[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }

    /// `bytes` as lowercase hex digits.
    public static func string(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

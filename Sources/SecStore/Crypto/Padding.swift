internal import CSodium

/// Pads a plaintext before it is sealed, so a sealed blob's length tells only a bucket,
/// not the exact length of the secret or attributes inside (ISO/IEC 7816-4 padding,
/// `sodium_pad`).
///
/// Buckets follow the Padmé scheme: every length below 64 bytes becomes 64 (nearly every
/// password and token looks alike), and longer ones round up to a multiple of a power of two
/// that keeps the overhead under 12 % while leaking only O(log log n) bits of the length.
enum Padding {
    /// The smallest padded length.
    static let minimumLength = 64

    /// The length `length` bytes occupy once padded (always at least one byte more).
    static func paddedLength(_ length: Int) -> Int {
        let needed = length + 1                                    // the 0x80 marker
        let exponent = Int.bitWidth - 1 - needed.leadingZeroBitCount            // ⌊log2 L⌋
        let significantBits = Int.bitWidth - exponent.leadingZeroBitCount       // ⌊log2 E⌋ + 1
        let block = max(minimumLength, 1 << max(exponent - significantBits, 0))
        return (needed + block - 1) / block * block
    }

    /// `plaintext` padded, in a new buffer the caller wipes.
    static func pad(_ plaintext: UnsafeRawBufferPointer) -> [UInt8] {
        let padded = paddedLength(plaintext.count)
        var buffer = [UInt8](repeating: 0, count: padded)
        buffer.withUnsafeMutableBytes { output in
            if let base = plaintext.baseAddress { output.baseAddress!.copyMemory(from: base, byteCount: plaintext.count) }
            var written = 0
            // The block size is the padded length itself: one block, exactly `padded` bytes.
            _ = sodium_pad(&written, output.baseAddress!.assumingMemoryBound(to: UInt8.self), plaintext.count, padded, padded)
        }
        return buffer
    }

    /// The length of the plaintext inside a padded buffer, or `nil` when the padding is not
    /// one ``pad(_:)`` wrote (an authenticated blob never has that; the check is defence in depth).
    static func unpaddedLength(_ padded: UnsafeRawBufferPointer) -> Int? {
        guard let base = padded.baseAddress, padded.count > 0 else { return nil }
        var length = 0
        guard sodium_unpad(&length, base.assumingMemoryBound(to: UInt8.self), padded.count, padded.count) == 0 else {
            return nil
        }
        return length
    }
}

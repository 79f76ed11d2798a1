#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SecStore

/// Standard input, read with a cap: a credential is a few lines or one small JSON object, so
/// anything larger is refused before it is parsed, and nothing is stored from it.
///
/// ```swift
/// var input = try BoundedInput.read(from: STDIN_FILENO, stoppingAtBlankLine: true)
/// defer { BoundedInput.wipe(&input) }
/// ```
public enum BoundedInput {
    /// The most bytes a helper reads: 1 MiB.
    public static let maximumByteCount = 1 << 20

    /// Reads `descriptor` to its end — or, with `stoppingAtBlankLine`, to the first empty line,
    /// which ends a git credential — and returns the bytes.
    ///
    /// ```swift
    /// let json = try BoundedInput.read(from: STDIN_FILENO)
    /// ```
    ///
    /// - Throws: ``BridgeError`` ``BridgeError/Kind/inputTooLarge`` past `limit` bytes (the
    ///   rest is not read), ``BridgeError/Kind/malformedInput`` when reading fails.
    public static func read(from descriptor: Int32, limit: Int = maximumByteCount,
                            stoppingAtBlankLine: Bool = false) throws(BridgeError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        defer { wipe(&bytes) }
        var total = 0
        while total < bytes.count {
            let count = bytes.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress! + total, $0.count - total) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw BridgeError(.malformedInput, "cannot read standard input (errno \(errno))") }
            if count == 0 { break }
            let arrived = total
            total += count
            if stoppingAtBlankLine, let end = blankLineEnd(in: bytes, from: arrived, to: total) {
                total = end
                break
            }
        }
        guard total <= limit else { throw BridgeError(.inputTooLarge, "input larger than \(limit >> 10) KiB") }
        return Array(bytes[..<total])
    }

    /// Overwrites `bytes` with zeros, for buffers that held a secret.
    ///
    /// ```swift
    /// defer { BoundedInput.wipe(&input) }
    /// ```
    public static func wipe(_ bytes: inout [UInt8]) {
        // sodium_memzero, through SecStore: a plain memset of a buffer about to be freed is a
        // dead store the optimizer may remove.
        Wipe.bytes(&bytes)
    }

    /// The end of the first empty line that ends in `start..<end`: a `\n` that starts the
    /// input or follows `\n` or `\n\r`.
    private static func blankLineEnd(in bytes: [UInt8], from start: Int, to end: Int) -> Int? {
        for index in start..<end where bytes[index] == 0x0A {
            var before = index - 1
            if before >= 0, bytes[before] == 0x0D { before -= 1 }
            if before < 0 || bytes[before] == 0x0A { return index + 1 }
        }
        return nil
    }

    private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
        #else
        Darwin.read(descriptor, buffer, count)
        #endif
    }
}

import Foundation
internal import CSodium

/// Key material held in `sodium_malloc` memory: guard pages around it, locked out of swap
/// where the system allows, and wiped by `sodium_free` when the last reference goes away.
///
/// The bytes are written once, while the value is built, and only read afterwards; that
/// is what makes sharing one instance between threads safe.
///
/// Each `sodium_malloc` is several system calls (a mapping, guard pages, `mlock`, `madvise`)
/// and as many again to free: 15–25 µs a pair on the reference machine, more than everything
/// else an open does with a key. Keys made together therefore share one guarded region
/// (``group(_:initialize:)``): an item class's two subkeys, a blind indexer's key and hash
/// states. The region keeps every protection; only the guard pages between keys of one
/// group are gone (docs/decisions.md, "Keys made together share a guarded region").
package final class SecureBytes: @unchecked Sendable {
    package let count: Int
    private let base: UnsafeMutableRawPointer
    /// The allocation this key lives in, freed (and wiped) when its last key goes.
    private let region: SecureRegion

    /// Allocates `count` bytes and lets `initialize` fill them before anyone can read them.
    init(count: Int, initialize: (UnsafeMutableRawBufferPointer) throws -> Void) throws {
        guard count > 0 else { throw CryptoFailure.outOfSecureMemory }
        let region = try SecureRegion(byteCount: count)
        // If `initialize` throws, the region is released (wiped and freed) here, and no
        // SecureBytes ever pointed at it.
        try initialize(UnsafeMutableRawBufferPointer(start: region.base, count: count))
        self.count = count
        self.base = region.base
        self.region = region
    }

    private init(region: SecureRegion, offset: Int, count: Int) {
        self.region = region
        self.base = region.base + offset
        self.count = count
    }

    /// Keys of `counts` bytes in one guarded region, filled by `initialize` (given every
    /// key's buffer, in order) before anyone can read them.
    ///
    /// ```swift
    /// let pair = try SecureBytes.group([32, 32]) { keys in
    ///     randombytes_buf(keys[0].baseAddress!, 32)
    ///     randombytes_buf(keys[1].baseAddress!, 32)
    /// }
    /// ```
    static func group(_ counts: [Int], initialize: ([UnsafeMutableRawBufferPointer]) throws -> Void) throws -> [SecureBytes] {
        guard !counts.isEmpty, counts.allSatisfy({ $0 > 0 }) else { throw CryptoFailure.outOfSecureMemory }
        // Each key starts on a 16-byte boundary within the region.
        var offsets: [Int] = []
        var total = 0
        for count in counts {
            offsets.append(total)
            total += (count + 15) & ~15
        }
        let region = try SecureRegion(byteCount: total)
        try initialize(zip(offsets, counts).map { UnsafeMutableRawBufferPointer(start: region.base + $0, count: $1) })
        return zip(offsets, counts).map { SecureBytes(region: region, offset: $0, count: $1) }
    }

    /// Fresh random key material from the system's CSPRNG.
    package static func random(count: Int) throws -> SecureBytes {
        try SecureBytes(count: count) { buffer in
            randombytes_buf(buffer.baseAddress!, buffer.count)
        }
    }

    /// Copies `bytes` into guarded memory. The caller wipes its own copy.
    package convenience init(copying bytes: UnsafeRawBufferPointer) throws {
        try self.init(count: bytes.count) { buffer in
            buffer.copyMemory(from: bytes)
        }
    }

    package func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Whether this key and `other` live in one region (and are wiped together, when both go).
    func sharesRegion(with other: SecureBytes) -> Bool {
        region === other.region
    }
}

/// One `sodium_malloc` allocation, freed (`sodium_free` zeroes it first) when the last key
/// in it goes.
private final class SecureRegion: @unchecked Sendable {
    let base: UnsafeMutableRawPointer

    init(byteCount: Int) throws {
        try Sodium.ready()
        guard let pointer = sodium_malloc(byteCount) else { throw CryptoFailure.outOfSecureMemory }
        base = pointer
    }

    deinit {
        sodium_free(base)
    }
}

extension SecureBytes: CustomStringConvertible {
    /// Never shows the bytes.
    package var description: String { "SecureBytes(\(count) bytes, redacted)" }
}

/// Wipes transient plaintext (decoded metadata, unwrapped key bytes) once it has been used.
package enum Wipe {
    package static func bytes(_ array: inout [UInt8]) {
        array.withUnsafeMutableBytes { Wipe.buffer($0) }
    }

    /// Zeroes memory the caller owns (a copy of a secret about to be freed).
    package static func buffer(_ buffer: UnsafeMutableRawBufferPointer) {
        if let base = buffer.baseAddress { sodium_memzero(base, buffer.count) }
    }
}

extension Wipe {
    package static func data(_ data: inout Data) {
        data.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { sodium_memzero(base, buffer.count) }
        }
    }

    static func data(_ data: inout Data?) {
        guard data != nil else { return }
        Wipe.data(&data!)
    }
}

import Foundation
internal import CSodium

/// Key material held in `sodium_malloc` memory: guard pages around it, locked out of swap
/// where the system allows, and wiped by `sodium_free` when the last reference goes away.
///
/// The bytes are written once, while the value is built, and only read afterwards; that
/// is what makes sharing one instance between threads safe.
package final class SecureBytes: @unchecked Sendable {
    package let count: Int
    private let base: UnsafeMutableRawPointer

    /// Allocates `count` bytes and lets `initialize` fill them before anyone can read them.
    init(count: Int, initialize: (UnsafeMutableRawBufferPointer) throws -> Void) throws {
        try Sodium.ready()
        guard count > 0, let pointer = sodium_malloc(count) else {
            throw CryptoFailure.outOfSecureMemory
        }
        // Filled before the stored properties are set: if `initialize` throws, this
        // initializer frees the memory and the object never existed, so `deinit` cannot
        // free it a second time (it would run for a fully initialized object).
        do {
            try initialize(UnsafeMutableRawBufferPointer(start: pointer, count: count))
        } catch {
            sodium_free(pointer)
            throw error
        }
        self.count = count
        self.base = pointer
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

    deinit {
        // sodium_free zeroes the region before releasing it.
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

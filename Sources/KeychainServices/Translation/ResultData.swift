import Foundation
import SecStore

/// The `NSData` (Apple's `CFData`) the SecItem functions return for a secret, a persistent
/// reference or a data attribute: immutable, and `ContiguousBytes`, so that the caller's
/// `result as? Data` copies its bytes in one go.
///
/// On Linux that cast builds the `Data` with `Data.init(_: some Sequence<UInt8>)`, which takes
/// the bytes at once from a `ContiguousBytes` value but reads a plain `NSData` one byte at a
/// time through its collection interface (a `length` and an `enumerateBytes` call per byte):
/// about 26,000 instructions for a 32-byte secret, more than the rest of a
/// `SecItemCopyMatching` call. Apple's result is an instance of a private `CFData` class too;
/// code sees an `NSData` with the same bytes, equal and hashing as any other.
///
/// ```swift
/// let object: CFTypeRef = ResultData(Data("secret".utf8))
/// let data = object as? Data   // one copy
/// ```
final class ResultData: NSData, ContiguousBytes {
    private let storage: UnsafeMutableRawBufferPointer
    private let byteCount: Int

    init(_ data: Data) {
        // One byte at least: an empty buffer has no base address for `bytes` to return.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Swift.max(data.count, 1), alignment: 1)
        data.withUnsafeBytes { buffer.copyMemory(from: $0) }
        storage = buffer
        byteCount = data.count
        super.init()
    }

    /// Decoding (`NSKeyedUnarchiver`) makes the same immutable copy.
    required convenience init?(coder: NSCoder) {
        guard let data = NSData(coder: coder) else { return nil }
        self.init(Data(bytes: data.bytes, count: data.length))
    }

    deinit {
        // It may hold a secret (kSecReturnData): zeroed before the memory goes back.
        Wipe.buffer(storage)
        storage.deallocate()
    }

    override var length: Int { byteCount }

    override var bytes: UnsafeRawPointer { UnsafeRawPointer(storage.baseAddress!) }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: storage.baseAddress, count: byteCount))
    }
}

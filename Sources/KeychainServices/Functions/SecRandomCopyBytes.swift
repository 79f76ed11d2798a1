import Foundation
import SecStore

/// `SecRandomRef`: a random number generator. There is one, the system's.
public typealias SecRandomRef = OpaquePointer

/// `kSecRandomDefault`: the default generator (`nil`, as on Apple systems; a constant
/// `nil` pointer, safe to share).
nonisolated(unsafe) public let kSecRandomDefault: SecRandomRef? = nil

/// Fills `bytes` with `count` cryptographically secure random bytes
/// (Apple's `SecRandomCopyBytes`): libsodium's `randombytes_buf`, fed by getrandom(2).
///
/// ```swift
/// var key = [UInt8](repeating: 0, count: 32)
/// let status = SecRandomCopyBytes(kSecRandomDefault, key.count, &key)
/// guard status == errSecSuccess else { fatalError("no randomness") }
/// ```
///
/// - Parameters:
///   - rnd: the generator; pass `kSecRandomDefault` (any value means the system's).
///   - count: how many bytes to write.
///   - bytes: where to write them; at least `count` bytes.
/// - Returns: `errSecSuccess`; `errSecNotAvailable` when the system has no source of
///   randomness (the buffer is then untouched); `errSecParam` for a negative count.
@discardableResult
public func SecRandomCopyBytes(_ rnd: SecRandomRef?, _ count: Int, _ bytes: UnsafeMutableRawPointer) -> Int32 {
    guard count >= 0 else { return errSecParam }
    do {
        try RandomBytes.fill(UnsafeMutableRawBufferPointer(start: bytes, count: count))
        return errSecSuccess
    } catch {
        return SecItemCall.status(for: error)
    }
}

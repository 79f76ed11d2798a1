import Foundation
import SecStore

/// The message Apple's Security framework gives for `status`
/// (`SecCopyErrorMessageString`); a status it has no message for reads "OSStatus <n>".
///
/// ```swift
/// let status = SecItemAdd(attributes as CFDictionary, nil)
/// if status != errSecSuccess, let message = SecCopyErrorMessageString(status, nil) {
///     print("Keychain error \(status): \(message)")
///     // Keychain error -25299: The specified item already exists in the keychain.
/// }
/// ```
///
/// - Parameters:
///   - status: a result code of a SecItem function.
///   - reserved: pass `nil`, as on Apple systems.
/// - Returns: the message; never `nil` here, optional to match Apple's signature.
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    SecurityStatus.message(for: status)
}

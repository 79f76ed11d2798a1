import Foundation
import SecStore

/// Why a SecItem call fails before or instead of reaching the store: the status Apple's
/// Security framework returns in the same case, and the rule that was broken. The reason is
/// for debugging and tests; callers only ever see the status, as on Apple systems.
struct SecItemFailure: Error, CustomStringConvertible {
    let status: OSStatus
    let reason: String

    init(_ status: OSStatus, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    var description: String { "\(reason) [OSStatus \(status)]" }

    /// A dictionary key names an attribute that items of `itemClass` do not have.
    static func noSuchAttribute(_ key: String, _ itemClass: ItemClass) -> SecItemFailure {
        SecItemFailure(errSecNoSuchAttr, "\(itemClass) items have no attribute \"\(key)\"")
    }

    /// A value of the wrong type, or a key that is not allowed in this call.
    static func parameter(_ reason: String) -> SecItemFailure {
        SecItemFailure(errSecParam, reason)
    }
}

/// The `OSStatus` a SecItem function returns for an error thrown while it ran.
enum StatusMapping {
    static func status(for error: any Error) -> OSStatus {
        switch error {
        case let failure as SecItemFailure: failure.status
        case let error as SecStoreError: error.status
        // The engine throws only SecStoreError; anything else means the store could not do
        // its work, which Apple reports as errSecNotAvailable (its mapping of unexpected
        // SQLite errors).
        default: errSecNotAvailable
        }
    }
}

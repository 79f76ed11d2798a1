/// Apple's result codes (`SecBase.h`), all of them: the number, Apple's constant
/// name and the message `SecCopyErrorMessageString` gives. This table is the one place those
/// numbers and messages are written: ``SecStoreError/Code`` takes its statuses from it,
/// `KeychainServices` declares its `errSec…` constants and messages from it, and the
/// `secstore` tool names failures by the codes built on it.
///
/// ```swift
/// SecurityStatus.itemNotFound.value      // -25300
/// SecurityStatus.message(for: -25300)    // "The specified item could not be found in the keychain."
/// ```
package struct SecurityStatus: Sendable, Hashable {
    package let value: Int32
    /// Apple's constant name, such as `errSecItemNotFound`.
    package let name: String
    /// Apple's message, generated from the comments in `SecBase.h`.
    package let message: String

    init(_ value: Int32, _ name: String, _ message: String) {
        self.value = value
        self.name = name
        self.message = message
    }

    // The codes themselves, and `all`, are generated from Apple's header:
    // SecurityStatus+SecBase.swift (scripts/generate/status-table.py).

    private static let byValue: [Int32: SecurityStatus] = Dictionary(all.map { ($0.value, $0) }, uniquingKeysWith: { first, _ in first })

    /// The status with this number, if Apple declares it.
    package static func named(_ value: Int32) -> SecurityStatus? { byValue[value] }

    /// Apple's message for `value`; a status without one reads "OSStatus <n>", as on Apple systems.
    package static func message(for value: Int32) -> String {
        byValue[value]?.message ?? "OSStatus \(value)"
    }
}

import Foundation

// The constants are immutable NSString objects that nothing mutates, so sharing them between
// threads is safe; `nonisolated(unsafe)` says so, since Foundation does not mark NSString
// Sendable on Linux.

// Values of `kSecAttrAccessible` and `kSecAttrSynchronizable`, with Apple's strings. How each
// accessibility class maps onto SecStore's device key and passphrase is in docs/porting.md.

/// `kSecAttrAccessibleWhenUnlocked` (`"ak"`): readable while the store is unlocked. The default.
///
/// ```swift
/// let attributes: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
///                                  kSecAttrAccount as String: "alice",
///                                  kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked,
///                                  kSecValueData as String: Data("s3cr3t".utf8)]
/// ```
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlocked: CFString = "ak"
/// `kSecAttrAccessibleAfterFirstUnlock` (`"ck"`): readable after the first unlock since boot.
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlock: CFString = "ck"
/// `kSecAttrAccessibleAlways` (`"dk"`): deprecated by Apple; readable whenever the device key is.
nonisolated(unsafe) public let kSecAttrAccessibleAlways: CFString = "dk"
/// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly` (`"aku"`): as WhenUnlocked, never exported.
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku"
/// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly` (`"cku"`): as AfterFirstUnlock, never exported.
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
/// `kSecAttrAccessibleAlwaysThisDeviceOnly` (`"dku"`): as Always, never exported.
nonisolated(unsafe) public let kSecAttrAccessibleAlwaysThisDeviceOnly: CFString = "dku"
/// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly` (`"akpu"`): needs a passphrase on the
/// store; adding one to a store without a passphrase is `errSecAuthFailed`.
nonisolated(unsafe) public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = "akpu"

/// `kSecAttrSynchronizableAny` (`"syna"`): in a query, match synchronizable and
/// non-synchronizable items alike.
///
/// ```swift
/// let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
///                             kSecAttrSynchronizable as String: kSecAttrSynchronizableAny]
/// ```
nonisolated(unsafe) public let kSecAttrSynchronizableAny: CFString = "syna"

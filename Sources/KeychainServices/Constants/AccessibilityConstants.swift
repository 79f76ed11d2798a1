import Foundation

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
public let kSecAttrAccessibleWhenUnlocked: CFString = "ak"
/// `kSecAttrAccessibleAfterFirstUnlock` (`"ck"`): readable after the first unlock since boot.
public let kSecAttrAccessibleAfterFirstUnlock: CFString = "ck"
/// `kSecAttrAccessibleAlways` (`"dk"`): deprecated by Apple; readable whenever the device key is.
public let kSecAttrAccessibleAlways: CFString = "dk"
/// `kSecAttrAccessibleWhenUnlockedThisDeviceOnly` (`"aku"`): as WhenUnlocked, never exported.
public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku"
/// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly` (`"cku"`): as AfterFirstUnlock, never exported.
public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
/// `kSecAttrAccessibleAlwaysThisDeviceOnly` (`"dku"`): as Always, never exported.
public let kSecAttrAccessibleAlwaysThisDeviceOnly: CFString = "dku"
/// `kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly` (`"akpu"`): needs a passphrase on the
/// store; adding one to a store without a passphrase is `errSecAuthFailed`.
public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = "akpu"

/// `kSecAttrSynchronizableAny` (`"syna"`): in a query, match synchronizable and
/// non-synchronizable items alike.
///
/// ```swift
/// let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
///                             kSecAttrSynchronizable as String: kSecAttrSynchronizableAny]
/// ```
public let kSecAttrSynchronizableAny: CFString = "syna"

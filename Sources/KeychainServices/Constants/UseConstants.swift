import Foundation

// `kSecUse…` keys a query may carry, with Apple's strings. Linux has no authentication UI
// and one kind of keychain, so most of them are accepted and have nothing to change; the
// exact rules are in docs/porting.md.

/// `kSecUseDataProtectionKeychain` (`"nleg"`): accepted and ignored; SecStore is always the
/// data-protection keychain.
///
/// ```swift
/// let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
///                             kSecUseDataProtectionKeychain as String: true]
/// ```
public let kSecUseDataProtectionKeychain: CFString = "nleg"
/// `kSecUseOperationPrompt` (`"u_OpPrompt"`): a string; accepted and ignored (there is no UI).
public let kSecUseOperationPrompt: CFString = "u_OpPrompt"
/// `kSecUseNoAuthenticationUI` (`"u_NoAuthUI"`, deprecated by Apple): a boolean; accepted and ignored.
public let kSecUseNoAuthenticationUI: CFString = "u_NoAuthUI"
/// `kSecUseAuthenticationUI` (`"u_AuthUI"`): one of the three values below.
public let kSecUseAuthenticationUI: CFString = "u_AuthUI"
/// `kSecUseAuthenticationUIAllow` (`"u_AuthUIA"`): the default.
public let kSecUseAuthenticationUIAllow: CFString = "u_AuthUIA"
/// `kSecUseAuthenticationUIFail` (`"u_AuthUIF"`): fail instead of prompting; nothing prompts here.
public let kSecUseAuthenticationUIFail: CFString = "u_AuthUIF"
/// `kSecUseAuthenticationUISkip` (`"u_AuthUIS"`): `SecItemCopyMatching` only; `errSecParam` elsewhere.
public let kSecUseAuthenticationUISkip: CFString = "u_AuthUIS"
/// `kSecUseAuthenticationContext` (`"u_AuthCtx"`): an `LAContext` on Apple systems; accepted and ignored.
public let kSecUseAuthenticationContext: CFString = "u_AuthCtx"
/// `kSecUseItemList` (`"u_ItemList"`, deprecated by Apple): not supported (`errSecParam`).
public let kSecUseItemList: CFString = "u_ItemList"

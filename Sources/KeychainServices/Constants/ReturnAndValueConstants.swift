import Foundation

// Return keys (`r_…`, whose values must be booleans) and value keys (`v_…`), with Apple's
// strings. The shape of a result for each combination of return keys is in docs/porting.md.

/// `kSecReturnData` (`"r_Data"`): return the secret, as `Data`.
///
/// ```swift
/// let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
///                             kSecAttrAccount as String: "alice",
///                             kSecReturnData as String: kCFBooleanTrue!]
/// var result: CFTypeRef?
/// if SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess {
///     let secret = result as? Data
/// }
/// ```
public let kSecReturnData: CFString = "r_Data"
/// `kSecReturnAttributes` (`"r_Attributes"`): return the attributes, as a dictionary.
public let kSecReturnAttributes: CFString = "r_Attributes"
/// `kSecReturnRef` (`"r_Ref"`): passwords have no object form; as on iOS, alone it returns
/// no object, and combined with other return keys it returns the whole item: every
/// attribute, `kSecValueData` and `kSecClass`.
public let kSecReturnRef: CFString = "r_Ref"
/// `kSecReturnPersistentRef` (`"r_PersistentRef"`): return a persistent reference, as `Data`.
public let kSecReturnPersistentRef: CFString = "r_PersistentRef"

/// `kSecValueData` (`"v_Data"`): the secret, as `Data`.
public let kSecValueData: CFString = "v_Data"
/// `kSecValueRef` (`"v_Ref"`): keys, certificates and identities only; `errSecParam` here.
public let kSecValueRef: CFString = "v_Ref"
/// `kSecValuePersistentRef` (`"v_PersistentRef"`): names one item by its persistent reference.
///
/// ```swift
/// let query: [String: Any] = [kSecValuePersistentRef as String: reference,
///                             kSecReturnData as String: true]
/// ```
public let kSecValuePersistentRef: CFString = "v_PersistentRef"

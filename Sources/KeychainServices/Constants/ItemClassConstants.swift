import Foundation

// `kSecClass` and its values, with the strings Apple's Security framework uses
// (SecItemConstants.c), so dictionaries print and compare as they do on Apple systems.
// SecStore stores generic and internet passwords; the other classes are declared so that
// code naming them compiles, and are answered with `errSecUnimplemented`.

/// `kSecClass` (`"class"`): the key of an item's class in every SecItem dictionary.
///
/// ```swift
/// let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
///                             kSecAttrService as String: "api.example.com"]
/// ```
public let kSecClass: CFString = "class"

/// `kSecClassGenericPassword` (`"genp"`): a secret named by service and account.
public let kSecClassGenericPassword: CFString = "genp"
/// `kSecClassInternetPassword` (`"inet"`): a secret named by server, account, protocol, port, path, ….
public let kSecClassInternetPassword: CFString = "inet"
/// `kSecClassCertificate` (`"cert"`). Not stored by SecStore: calls return `errSecUnimplemented`.
public let kSecClassCertificate: CFString = "cert"
/// `kSecClassKey` (`"keys"`). Not stored by SecStore: calls return `errSecUnimplemented`.
public let kSecClassKey: CFString = "keys"
/// `kSecClassIdentity` (`"idnt"`). Not stored by SecStore: calls return `errSecUnimplemented`.
public let kSecClassIdentity: CFString = "idnt"

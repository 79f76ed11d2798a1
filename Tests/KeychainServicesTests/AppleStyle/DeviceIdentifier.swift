// Written as iOS apps write it: only the import differs from the Apple-platform form.
#if canImport(Security)
import Security
#else
import KeychainServices
#endif
import Foundation

/// The installation identifier pattern: read a UUID from the keychain, or create and store
/// one, so it survives reinstalls.
enum DeviceIdentifier {
    static let service = "com.example.app.identity"
    static let account = "device-id"

    static func readOrCreate() -> String? {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
            kSecReturnData as String: kCFBooleanTrue as Any,
            kSecMatchLimit as String: kSecMatchLimitOne,
        ]
        var dataTypeRef: AnyObject?
        let status: OSStatus = SecItemCopyMatching(query as CFDictionary, &dataTypeRef)
        if status == noErr, let data = dataTypeRef as? Data, let identifier = String(data: data, encoding: .utf8) {
            return identifier
        }

        let identifier = UUID().uuidString
        let item: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
        ]
        SecItemDelete(item as CFDictionary)
        var attributes = item
        attributes[kSecValueData as String] = identifier.data(using: .utf8)
        attributes[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        guard SecItemAdd(attributes as CFDictionary, nil) == errSecSuccess else { return nil }
        return identifier
    }
}

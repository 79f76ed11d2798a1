// Written as the classic Objective-C-era keychain wrappers are: only the import differs
// from the Apple-platform form.
#if canImport(Security)
import Security
#else
import KeychainServices
#endif
import Foundation

/// Saves, loads and deletes one secret per service. Saving deletes any previous value and
/// adds the new one, readable after the first unlock.
class KeychainService {
    class func save(service: String, data: Data) -> OSStatus {
        let query = [
            kSecClass as String: kSecClassGenericPassword as String,
            kSecAttrService as String: service,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock as String,
            kSecValueData as String: data,
        ] as [String: Any]
        SecItemDelete(query as CFDictionary)
        return SecItemAdd(query as CFDictionary, nil)
    }

    class func load(service: String) -> Data? {
        let query = NSMutableDictionary()
        query[kSecClass as String] = kSecClassGenericPassword
        query[kSecAttrService as String] = service
        query[kSecReturnData as String] = kCFBooleanTrue
        query[kSecMatchLimit as String] = kSecMatchLimitOne

        var dataTypeRef: AnyObject? = nil
        let status: OSStatus = SecItemCopyMatching(query as CFDictionary, &dataTypeRef)
        if status == noErr {
            return dataTypeRef as! Data?
        } else {
            return nil
        }
    }

    class func delete(service: String) -> OSStatus {
        let query = [
            String(kSecClass): kSecClassGenericPassword,
            String(kSecAttrService): service,
        ] as [String: Any]
        return SecItemDelete(query as CFDictionary)
    }

    class func saveString(_ string: String, service: String) -> Bool {
        guard let data = string.data(using: .utf8) else { return false }
        return save(service: service, data: data) == errSecSuccess
    }

    class func loadString(service: String) -> String? {
        guard let data = load(service: service) else { return nil }
        return String(data: data, encoding: .utf8)
    }
}

// Written as an app shares credentials with its extensions through an access group: only
// the import differs from the Apple-platform form.
#if canImport(Security)
import Security
#else
import KeychainServices
#endif
import Foundation

/// A failed keychain call, with Apple's message for its status.
struct KeychainError: Error, CustomStringConvertible {
    let status: OSStatus

    var description: String {
        let message = SecCopyErrorMessageString(status, nil) as String? ?? "unknown error"
        return "Keychain error \(status): \(message)"
    }
}

/// Login tokens per account, kept in a shared access group, with app metadata in
/// `kSecAttrGeneric` and a description users would see in a keychain browser.
struct SharedCredentialStore {
    let service: String
    let accessGroup: String?

    private func baseQuery(account: String? = nil) -> [CFString: Any] {
        var query: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrService: service]
        if let account { query[kSecAttrAccount] = account }
        if let accessGroup { query[kSecAttrAccessGroup] = accessGroup }
        return query
    }

    func save(token: String, account: String, metadata: Data) throws {
        let attributes: [CFString: Any] = [
            kSecValueData: Data(token.utf8),
            kSecAttrGeneric: metadata,
            kSecAttrDescription: "Login token",
        ]
        var status = SecItemUpdate(baseQuery(account: account) as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            var addition = baseQuery(account: account).merging(attributes) { $1 }
            addition[kSecAttrAccessible] = kSecAttrAccessibleAfterFirstUnlock
            status = SecItemAdd(addition as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw KeychainError(status: status) }
    }

    func read(account: String) throws -> (token: String, metadata: Data?, description: String?)? {
        var query = baseQuery(account: account)
        query[kSecReturnAttributes] = kCFBooleanTrue
        query[kSecReturnData] = kCFBooleanTrue
        query[kSecMatchLimit] = kSecMatchLimitOne

        var item: CFTypeRef?
        let status = withUnsafeMutablePointer(to: &item) {
            SecItemCopyMatching(query as CFDictionary, UnsafeMutablePointer($0))
        }
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess else { throw KeychainError(status: status) }
        guard let existing = item as? [String: Any],
              let data = existing[kSecValueData as String] as? Data,
              let token = String(data: data, encoding: .utf8)
        else { throw KeychainError(status: errSecDecode) }
        return (token, existing[kSecAttrGeneric as String] as? Data, existing[kSecAttrDescription as String] as? String)
    }

    func accounts() throws -> [String] {
        var query = baseQuery()
        query[kSecReturnAttributes] = true
        query[kSecMatchLimit] = kSecMatchLimitAll
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess, let items = result as? [[String: Any]] else { throw KeychainError(status: status) }
        return items.compactMap { $0[kSecAttrAccount as String] as? String }.sorted()
    }

    func accessGroup(ofAccount account: String) throws -> String? {
        var query = baseQuery(account: account)
        query[kSecReturnAttributes] = true
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        guard status == errSecSuccess, let attributes = result as? NSDictionary else { throw KeychainError(status: status) }
        return attributes[kSecAttrAccessGroup] as? String
    }

    func removeAll() throws {
        let status = SecItemDelete(baseQuery() as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError(status: status) }
    }
}

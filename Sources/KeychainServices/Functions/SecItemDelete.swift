import Foundation
import SecStore

/// Deletes every item of the default store that matches `query` (Apple's `SecItemDelete`).
///
/// ```swift
/// let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
///                             kSecAttrService as String: "api.example.com"]
/// let status = SecItemDelete(query as CFDictionary)   // every account of the service
/// guard status == errSecSuccess || status == errSecItemNotFound else { … }
/// ```
///
/// All matches go, in one transaction. A persistent reference (`kSecValuePersistentRef`)
/// may be combined with attributes, which must then match too. As on macOS, `kSecMatchLimit`
/// and return keys are ignored: every match goes (iOS answers `errSecParam`).
///
/// The status may be ignored without a warning, as with Apple's C function.
///
/// - Returns: `errSecSuccess`, `errSecItemNotFound` when nothing matches, or the reason
///   nothing was deleted.
@discardableResult
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    SecItemCall.run(.delete, query: query) { store in
        let request = try ItemDictionaryReader(operation: .delete).read(query)
        guard try store.perform(request).count > 0 else { throw SecStoreError.notFound }
        return nil
    }
}

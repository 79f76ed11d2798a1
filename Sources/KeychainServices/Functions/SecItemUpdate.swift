import Foundation
import SecStore

/// Changes every item of the default store that matches `query` (Apple's `SecItemUpdate`).
///
/// ```swift
/// let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
///                             kSecAttrService as String: "api.example.com",
///                             kSecAttrAccount as String: "alice"]
/// let changes: [String: Any] = [kSecValueData as String: Data("rotated".utf8)]
/// let status = SecItemUpdate(query as CFDictionary, changes as CFDictionary)
/// ```
///
/// All matches change in one transaction; the modification date becomes now. Changing a
/// primary-key attribute so that two items would share one is `errSecDuplicateItem`, and
/// nothing changes. As on macOS, `kSecMatchLimit` and return keys in the query are
/// ignored: every match changes (iOS answers `errSecParam`).
///
/// - Parameters:
///   - query: which items, as for `SecItemCopyMatching`.
///   - attributesToUpdate: attributes of the items' class and/or `kSecValueData`. Any other
///     key, `kSecClass` included, is `errSecNoSuchAttr`.
/// The status may be ignored without a warning, as with Apple's C function.
///
/// - Returns: `errSecSuccess`, `errSecItemNotFound` when nothing matches, or the reason
///   nothing changed.
@discardableResult
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    SecItemCall.run(.update, query: query) { store in
        var request = try ItemDictionaryReader(operation: .update).read(query)
        request.changes = try ItemChangesReader.read(attributesToUpdate)
        guard try store.perform(request).count > 0 else { throw SecStoreError.notFound }
        return nil
    }
}

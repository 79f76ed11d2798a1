import Foundation
import SecStore

/// Finds items in the default store (Apple's `SecItemCopyMatching`).
///
/// ```swift
/// let query: [String: Any] = [
///     kSecClass as String: kSecClassGenericPassword,
///     kSecAttrService as String: "api.example.com",
///     kSecAttrAccount as String: "alice",
///     kSecMatchLimit as String: kSecMatchLimitOne,
///     kSecReturnData as String: kCFBooleanTrue!,
/// ]
/// var result: CFTypeRef?
/// let status = SecItemCopyMatching(query as CFDictionary, &result)
/// if status == errSecSuccess, let data = result as? Data {
///     print(String(decoding: data, as: UTF8.self))
/// }
/// ```
///
/// Every attribute given must match. Only non-synchronizable items match unless the query
/// sets `kSecAttrSynchronizable`, and only items of the process's access groups. Matching
/// is exact unless `kSecMatchCaseInsensitive` is true. Without `kSecMatchLimit` the first
/// match is returned as a single object; with `kSecMatchLimitAll` or a number, an array.
/// `kSecReturnData` together with another return key also returns the attributes;
/// `kSecReturnRef` together with another return key returns the attributes, the secret and
/// `class`.
///
/// A secret in the result is held by an object that zeroes it when released; the call leaves
/// no other copy of it behind. What the caller copies out (`result as? Data`) is its own.
///
/// - Parameters:
///   - query: `kSecClass` (or `kSecValuePersistentRef`), attributes to match, match keys
///     and return keys.
///   - result: receives the result, or stays `nil` when the call fails or no return key is
///     set. May be `nil` to test whether an item exists.
/// The status may be ignored without a warning, as with Apple's C function.
///
/// - Returns: `errSecSuccess`, `errSecItemNotFound` when nothing matches, or the reason
///   the query failed.
@discardableResult
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    SecItemCall.run(.copyMatching, query: query, result: result) { store in
        var request = try ItemDictionaryReader(operation: .copyMatching).read(query)
        request.returns = request.returns.addingAttributesImpliedByData.addingWhatAReferenceImplies
        var found = try store.perform(request).items
        // The engine's copies of the secrets are this call's: the result holds its own
        // (``ResultData``, zeroed when released), and these are zeroed before they are freed.
        defer { found.wipeSecrets() }
        guard !found.isEmpty else { throw SecStoreError.notFound }
        return ResultShape.result(for: found, of: request)
    }
}

import Foundation
import SecStore

/// Adds an item to the default store (Apple's `SecItemAdd`).
///
/// ```swift
/// let attributes: [String: Any] = [
///     kSecClass as String: kSecClassGenericPassword,
///     kSecAttrService as String: "api.example.com",
///     kSecAttrAccount as String: "alice",
///     kSecValueData as String: Data("s3cr3t".utf8),
/// ]
/// let status = SecItemAdd(attributes as CFDictionary, nil)
/// if status == errSecDuplicateItem { /* update it instead */ }
/// ```
///
/// As on Apple systems: new items are `kSecAttrAccessibleWhenUnlocked`, not synchronizable,
/// in the first access group of the process's entitlements, with creation and modification
/// dates set now (given dates are ignored). An item whose primary key (for generic
/// passwords: service, account, access group, synchronizable) is taken is
/// `errSecDuplicateItem` and changes nothing. Match keys (`kSecMatch…`) are ignored.
///
/// - Parameters:
///   - attributes: `kSecClass`, the item's attributes, `kSecValueData`, and optional
///     `kSecReturn…` keys.
///   - result: receives what the return keys ask for (`Data` for `kSecReturnData` alone, a
///     dictionary for `kSecReturnAttributes`, …), or `nil`. May be `nil`.
/// The status may be ignored without a warning, as with Apple's C function.
///
/// - Returns: `errSecSuccess`, or the reason the item was not added.
@discardableResult
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    SecItemCall.run(.add, query: attributes, result: result) { store in
        var request = try ItemDictionaryReader(operation: .add).read(attributes)
        request.returns = request.returns.addingWhatAReferenceImplies
        let added = try store.perform(request).items
        return ResultShape.result(for: added, of: request)
    }
}

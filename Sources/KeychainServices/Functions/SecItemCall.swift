import Foundation
import SecStore

/// What every SecItem function does around its own work: clear the result, open the
/// default store, apply Apple's entitlement checks that come before any parsing, and turn
/// whatever was thrown into an `OSStatus`.
enum SecItemCall {
    static func run(_ operation: SecItemOperation, query: NSDictionary,
                    result: UnsafeMutablePointer<CFTypeRef?>? = nil,
                    _ body: (SecretStore) throws -> CFTypeRef?) -> OSStatus {
        // As on Apple systems, a failed call leaves the result nil.
        result?.pointee = nil
        do {
            let store = try SecItemDefaultStore.store()
            try checkEntitlements(of: store, for: operation, query: query)
            let object = try body(store)
            result?.pointee = object
            return errSecSuccess
        } catch {
            return StatusMapping.status(for: error)
        }
    }

    /// Apple's server refuses a caller without access groups before looking at the
    /// dictionary, and `SecItemUpdate` / `SecItemDelete` check an explicit access group
    /// before parsing too (reference §4.1), so a malformed update naming a foreign group is
    /// `errSecMissingEntitlement` while the same add is `errSecParam`.
    private static func checkEntitlements(of store: SecretStore, for operation: SecItemOperation, query: NSDictionary) throws {
        guard case .entitled(let entitlements) = store.options.access else { return }
        let groups = entitlements.accessGroups
        if groups.isEmpty {
            throw SecItemFailure(errSecMissingEntitlement, "the process has no keychain access groups and no application identifier")
        }
        guard operation == .update || operation == .delete,
              let value = query[NSString(string: "agrp")].flatMap(DictionaryValue.unwrapped),
              let group = DictionaryValue.string(value)
        else { return }
        // By bytes: group names compare exactly (Swift's String == would merge spellings).
        if !groups.contains(where: { $0.utf8.elementsEqual(group.utf8) }) {
            throw SecItemFailure(errSecMissingEntitlement, "the process is not entitled to the access group \"\(group)\"")
        }
    }
}

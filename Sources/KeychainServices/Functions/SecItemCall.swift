import Foundation
import SecStore

/// What every SecItem function does around its own work: clear the result, open the
/// default store, apply Apple's entitlement checks that come before any parsing, and turn
/// whatever was thrown into an `OSStatus`.
enum SecItemCall {
    static func run(_ operation: ItemRequest.Operation, query: NSDictionary,
                    result: UnsafeMutablePointer<CFTypeRef?>? = nil,
                    _ body: (SecretStore) throws -> CFTypeRef?) -> OSStatus {
        // As on Apple systems, a failed call leaves the result nil.
        result?.pointee = nil
        do {
            let store = try SecItemDefaultStore.store()
            try checkEntitlementsFirst(of: store, for: operation, query: query)
            let object = try body(store)
            result?.pointee = object
            return errSecSuccess
        } catch {
            return status(for: error)
        }
    }

    /// Apple's server refuses a caller without access groups before looking at the
    /// dictionary, and `SecItemUpdate` / `SecItemDelete` check an explicit access group
    /// before parsing too (reference §4.1), so a malformed update naming a foreign group is
    /// `errSecMissingEntitlement` while the same add is `errSecParam`. The order is the
    /// facade's; the rule itself is the engine's (`AccessRules`).
    private static func checkEntitlementsFirst(of store: SecretStore, for operation: ItemRequest.Operation,
                                               query: NSDictionary) throws {
        var group: String?
        if operation == .update || operation == .delete {
            group = query[NSString(string: Keys.accessGroup)].flatMap(DictionaryValue.unwrapped).flatMap(DictionaryValue.string)
        }
        try store.checkEntitled(toGroup: group)
    }

    /// The `OSStatus` of an error thrown while a call ran. The engine and the readers throw
    /// only `SecStoreError`; anything else means the store could not do its work, which
    /// Apple reports as `errSecNotAvailable` (its mapping of unexpected SQLite errors).
    static func status(for error: any Error) -> OSStatus {
        (error as? SecStoreError)?.status ?? errSecNotAvailable
    }
}

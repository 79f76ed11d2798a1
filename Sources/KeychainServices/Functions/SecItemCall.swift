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
            try checkExplicitGroupFirst(of: store, for: operation, query: query)
            let object: CFTypeRef?
            do {
                object = try body(store)
            } catch {
                try checkEntitledAfterFailure(of: store)
                throw error
            }
            result?.pointee = object
            return errSecSuccess
        } catch {
            return status(for: error)
        }
    }

    /// `SecItemUpdate` and `SecItemDelete` check an explicit access group before parsing
    /// (reference §4.1), so a malformed update naming a foreign group is
    /// `errSecMissingEntitlement` while the same add is `errSecParam`. The rule itself is the
    /// engine's (`AccessRules`); this is only its order.
    private static func checkExplicitGroupFirst(of store: SecretStore, for operation: ItemRequest.Operation,
                                                query: NSDictionary) throws {
        guard operation == .update || operation == .delete,
              let group = query[NSString(string: Keys.accessGroup)].flatMap(DictionaryValue.init)?.string
        else { return }
        try store.checkEntitled(toGroup: group)
    }

    /// Apple's server refuses a caller without access groups before looking at the
    /// dictionary, so that refusal is the answer whatever else went wrong. A request that was
    /// read reaches the engine, whose rules check the entitlement before anything else, so
    /// the check is made here only when the call failed: not twice on every call.
    private static func checkEntitledAfterFailure(of store: SecretStore) throws {
        try store.checkEntitled(toGroup: nil)
    }

    /// The `OSStatus` of an error thrown while a call ran. The engine and the readers throw
    /// only `SecStoreError`; anything else means the store could not do its work, which
    /// Apple reports as `errSecNotAvailable` (its mapping of unexpected SQLite errors).
    static func status(for error: any Error) -> OSStatus {
        (error as? SecStoreError)?.status ?? errSecNotAvailable
    }
}

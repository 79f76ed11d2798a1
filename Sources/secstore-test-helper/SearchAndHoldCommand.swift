import ArgumentParser
import Foundation
import KeychainServices
import SecStore

/// `search-and-hold --service S [--api secitem|typed]`: finds the secrets of every item of one
/// service and lets go of them as a careful caller does, then prints `found N` and waits to be
/// killed, so that a test can look for copies of the secrets left in this process's memory
/// (SecStoreTests' `SearchMemoryTests`). Prints no secret: its output buffers would hold it.
///
/// - `secitem`: `SecItemCopyMatching` with `kSecMatchLimitAll` and `kSecReturnData`, on the
///   store of `--store` (as ``SecItemDefaultStore``); the result objects are released.
/// - `typed`: ``SecretStore/items(matching:)``; the caller's own copies are zeroed before they
///   are released, as a caller that cares does.
struct SearchAndHoldCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search-and-hold",
        abstract: "Find and release the secrets of a service's items, print `found N`, then wait to be killed.")

    enum API: String, ExpressibleByArgument {
        case secitem, typed
    }

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "The items' service.")
    var service: String

    @Option(help: "secitem: SecItemCopyMatching; typed: SecretStore.items(matching:).")
    var api: API = .secitem

    func run() throws {
        let store = try storeOptions.openStore()
        let count = switch api {
        case .secitem: try searchThroughSecItem(store)
        case .typed: try searchThroughTypedAPI(store)
        }
        print("found \(count)")
        fflush(nil)
        while true { sleep(60) }
    }

    private func searchThroughSecItem(_ store: SecretStore) throws -> Int {
        SecItemDefaultStore.use(store)
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                    kSecAttrService as String: service,
                                    kSecMatchLimit as String: kSecMatchLimitAll,
                                    kSecReturnData as String: kCFBooleanTrue!]
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        guard status == errSecSuccess, let array = result as? NSArray else {
            throw ValidationError("SecItemCopyMatching: status \(status)")
        }
        return array.count
    }

    private func searchThroughTypedAPI(_ store: SecretStore) throws -> Int {
        var items = try store.items(matching: Query(service: service, limit: .all, returning: .data))
        for index in items.indices {
            let count = items[index].data?.count ?? 0
            items[index].data?.resetBytes(in: 0..<count)
        }
        return items.count
    }
}

import ArgumentParser
import Foundation
import KeychainServices

/// `secitem-write add|update|delete --service S --account A [--value V] [--synchronizable]`:
/// changes one generic password the way an unmodified program written for Apple's API does,
/// on the default store the environment names (`SECSTORE_PATH`, `SECSTORE_DEVICE_KEY`,
/// `SECSTORE_ENTITLEMENTS`). Prints `ok`, or `status <OSStatus>` and exits 1.
struct SecItemWriteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secitem-write",
        abstract: "Add, update or delete a generic password with SecItemAdd/Update/Delete on the default store the environment names.")

    enum Operation: String, ExpressibleByArgument { case add, update, delete }

    @Argument(help: "add, update or delete.")
    var operation: Operation

    @Option(help: "The item's service.")
    var service: String

    @Option(help: "The item's account.")
    var account: String

    @Option(help: "The secret (add, update).")
    var value = ""

    @Flag(help: "kSecAttrSynchronizable true (add), or any (update, delete).")
    var synchronizable = false

    func run() throws {
        var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                    kSecAttrService as String: service,
                                    kSecAttrAccount as String: account]
        let status: OSStatus
        switch operation {
        case .add:
            query[kSecValueData as String] = Data(value.utf8)
            query[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
            if synchronizable { query[kSecAttrSynchronizable as String] = kCFBooleanTrue! }
            status = SecItemAdd(query as CFDictionary, nil)
        case .update:
            if synchronizable { query[kSecAttrSynchronizable as String] = kSecAttrSynchronizableAny }
            status = SecItemUpdate(query as CFDictionary, [kSecValueData as String: Data(value.utf8)] as CFDictionary)
        case .delete:
            if synchronizable { query[kSecAttrSynchronizable as String] = kSecAttrSynchronizableAny }
            status = SecItemDelete(query as CFDictionary)
        }
        guard status == errSecSuccess else {
            print("status \(status)")
            Foundation.exit(1)
        }
        print("ok")
    }
}

import ArgumentParser
import Foundation
import KeychainServices

/// `secitem-read --service S --account A`: reads one generic password the way an unmodified
/// program written for Apple's API does: `SecItemCopyMatching` on the default store, which
/// the environment names (`SECSTORE_PATH`, `SECSTORE_DEVICE_KEY`, `SECSTORE_ENTITLEMENTS`).
/// Prints the secret, or `status <OSStatus>` and exits 1.
struct SecItemReadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secitem-read",
        abstract: "Read a generic password with SecItemCopyMatching from the default store the environment names.")

    @Option(help: "The item's service.")
    var service: String

    @Option(help: "The item's account.")
    var account: String

    func run() throws {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                    kSecAttrService as String: service,
                                    kSecAttrAccount as String: account,
                                    kSecReturnData as String: kCFBooleanTrue!]
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        guard status == errSecSuccess, let data = result as? Data else {
            print("status \(status)")
            Foundation.exit(1)
        }
        print(String(decoding: data, as: UTF8.self))
    }
}

import Foundation
import KeychainServices
import Testing

/// Every test that uses the process-wide default store runs inside this suite, which is
/// serialized: Swift Testing would otherwise run tests (and nested suites) in parallel, and
/// they would switch the one default store under each other.
@Suite(.serialized) struct DefaultStoreTests {}

/// A fresh default store for one test, chosen the way a deployment chooses it: a
/// temporary directory holds the store file, the device key and an entitlements property
/// list, named by `SECSTORE_PATH`, `SECSTORE_DEVICE_KEY` and `SECSTORE_ENTITLEMENTS`. The
/// directory is removed when the fixture is released.
///
/// The setup of the reference's conformance tests (§6): a client entitled to the groups
/// G1 and G2, G1 the default; an empty keychain.
final class KeychainFixture {
    static let g1 = "ABCDE12345.com.example.g1"
    static let g2 = "ABCDE12345.com.example.g2"
    static let applicationIdentifier = "ABCDE12345.com.example.app"

    let directory: URL

    var storeURL: URL { directory.appending(path: "data/keychain.secstore") }
    var deviceKeyURL: URL { directory.appending(path: "keys/device.key") }
    var entitlementsURL: URL { directory.appending(path: "App.entitlements") }

    /// The variables a process would be started with.
    var environment: [String: String] {
        ["SECSTORE_PATH": storeURL.path, "SECSTORE_DEVICE_KEY": deviceKeyURL.path,
         "SECSTORE_ENTITLEMENTS": entitlementsURL.path, "HOME": directory.path]
    }

    init(accessGroups: [String] = [g1, g2], applicationIdentifier: String? = applicationIdentifier) throws {
        directory = FileManager.default.temporaryDirectory
            .appending(path: "keychainservices-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try useEntitlements(accessGroups: accessGroups, applicationIdentifier: applicationIdentifier)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Writes the entitlements file and makes the next SecItem call reopen the store with
    /// it, as a new launch of the app with other entitlements would.
    func useEntitlements(accessGroups: [String], applicationIdentifier: String? = applicationIdentifier) throws {
        var plist: [String: Any] = ["keychain-access-groups": accessGroups]
        plist["application-identifier"] = applicationIdentifier
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
        try data.write(to: entitlementsURL)
        SecItemDefaultStore.reconfigure(environment: environment)
    }
}

// MARK: - Calls

/// The outcome of a SecItem call that can return an object.
struct CallResult {
    let status: OSStatus
    let object: CFTypeRef?

    var data: Data? { object as? Data }
    var dictionary: [String: Any]? { object as? [String: Any] }
    var dictionaries: [[String: Any]]? { object as? [[String: Any]] }
    var dataArray: [Data]? { object as? [Data] }
}

func add(_ attributes: [String: Any]) -> CallResult {
    var result: CFTypeRef?
    let status = SecItemAdd(attributes as CFDictionary, &result)
    return CallResult(status: status, object: result)
}

func copyMatching(_ query: [String: Any]) -> CallResult {
    var result: CFTypeRef?
    let status = SecItemCopyMatching(query as CFDictionary, &result)
    return CallResult(status: status, object: result)
}

func update(_ query: [String: Any], _ changes: [String: Any]) -> OSStatus {
    SecItemUpdate(query as CFDictionary, changes as CFDictionary)
}

func delete(_ query: [String: Any]) -> OSStatus {
    SecItemDelete(query as CFDictionary)
}

// MARK: - The reference's base dictionaries

extension Dictionary where Key == String, Value == Any {
    /// A = {class genp, svce "s", acct "a", v_Data "pw"}.
    static var itemA: [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "s",
         kSecAttrAccount as String: "a", kSecValueData as String: Data("pw".utf8)]
    }

    /// Q = {class genp, svce "s", acct "a"}.
    static var queryQ: [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "s", kSecAttrAccount as String: "a"]
    }

    /// I = {class inet, srvr "example.com", acct "u", port 443, ptcl "htps", atyp "dflt", v_Data "pw"}.
    static var itemI: [String: Any] {
        [kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: "example.com",
         kSecAttrAccount as String: "u", kSecAttrPort as String: 443, kSecAttrProtocol as String: kSecAttrProtocolHTTPS,
         kSecAttrAuthenticationType as String: kSecAttrAuthenticationTypeDefault, kSecValueData as String: Data("pw".utf8)]
    }

    /// These entries with `other`'s written over them.
    func with(_ other: [String: Any]) -> [String: Any] {
        merging(other) { _, new in new }
    }

    /// These entries without `keys`.
    func without(_ keys: CFString...) -> [String: Any] {
        var copy = self
        for key in keys { copy[key as String] = nil }
        return copy
    }
}

extension String {
    var utf8Data: Data { Data(utf8) }
}

import Foundation
import KeychainServices
import Testing

// The API used the way the popular Swift keychain wrappers use it (keychain-swift,
// KeychainAccess, SimpleKeychain, Valet), each pattern written fresh for this test. The file
// imports Foundation and KeychainServices only (and Testing), as a wrapper does once
// `import Security` is changed: if one of these lines stops compiling, ported code stops
// compiling. Its suite runs inside `DefaultStoreTests`, serialized with every other test of
// the process-wide default store.

/// A wrapper-style client: a last result code initialised from `noErr`, queries as
/// `[String: Any]` built from the constants, results read through `AnyObject?`.
final class PatternClient {
    var lastResultCode: OSStatus = noErr
    let service: String

    init(service: String) { self.service = service }

    func baseQuery() -> [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service]
    }

    @discardableResult
    func set(_ value: String, for account: String, access: SecAccessControl? = nil) -> Bool {
        var query = baseQuery()
        query[kSecAttrAccount as String] = account
        lastResultCode = SecItemDelete(query as CFDictionary)
        query[kSecValueData as String] = value.data(using: .utf8)!
        if let access {
            query[kSecAttrAccessControl as String] = access
        } else {
            query[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
        }
        lastResultCode = SecItemAdd(query as CFDictionary, nil)
        return lastResultCode == noErr
    }

    func get(_ account: String) -> String? {
        var query = baseQuery()
        query[kSecAttrAccount as String] = account
        query[kSecReturnData as String] = kCFBooleanTrue!
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: AnyObject?
        lastResultCode = withUnsafeMutablePointer(to: &result) { SecItemCopyMatching(query as CFDictionary, UnsafeMutablePointer($0)) }
        guard lastResultCode == noErr, let data = result as? Data else { return nil }
        return String(data: data, encoding: .utf8)
    }

    func allAccounts() -> [String] {
        var query = baseQuery()
        query[kSecReturnAttributes as String] = kCFBooleanTrue
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        var result: CFTypeRef?
        lastResultCode = SecItemCopyMatching(query as CFDictionary, &result)
        guard lastResultCode == errSecSuccess, let items = result as? [[String: Any]] else { return [] }
        return items.compactMap { $0[kSecAttrAccount as String] as? String }.sorted()
    }

    /// KeychainAccess's `removeAll()` off iOS: the class, the service and kSecMatchLimitAll.
    @discardableResult
    func removeAll() -> Bool {
        var query = baseQuery()
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        lastResultCode = SecItemDelete(query as CFDictionary)
        return lastResultCode == errSecSuccess || lastResultCode == errSecItemNotFound
    }
}

extension DefaultStoreTests {
    @Suite("Wrapper patterns") struct WrapperPatternTests {
        let directory: URL

        init() throws {
            directory = FileManager.default.temporaryDirectory.appending(path: "wrapper-patterns-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let entitlements = directory.appending(path: "app.entitlements")
            try PropertyListSerialization.data(fromPropertyList: ["keychain-access-groups": ["TEAM.com.example.wrapper"]],
                                               format: .xml, options: 0).write(to: entitlements)
            SecItemDefaultStore.reconfigure(environment: [
                "SECSTORE_PATH": directory.appending(path: "keychain.secstore").path,
                "SECSTORE_DEVICE_KEY": directory.appending(path: "device.key").path,
                "SECSTORE_ENTITLEMENTS": entitlements.path, "HOME": directory.path, "SECSTORE_KEYRING": "off",
            ])
        }

        @Test("Set, get, list and remove-all as a wrapper does, with lastResultCode initialised from noErr")
        func wrapperRoundTrip() {
            let client = PatternClient(service: "com.example.wrapper")
            #expect(client.lastResultCode == noErr)
            #expect(client.set("one", for: "alice"))
            #expect(client.set("two", for: "bob"))
            #expect(client.set("uno", for: "alice"), "set replaces")
            #expect(client.get("alice") == "uno")
            #expect(client.allAccounts() == ["alice", "bob"])
            #expect(client.removeAll())
            #expect(client.get("alice") == nil)
            #expect(client.lastResultCode == errSecItemNotFound)
            #expect(client.removeAll(), "removing from an empty service is not an error for the wrapper")
        }

        @Test("Identical queries compare equal: NSDictionary.isEqual(to:), AnyHashable, Set<AnyHashable>")
        func queryEquality() throws {
            func makeQuery() -> [String: Any] {
                [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "s",
                 kSecReturnData as String: kCFBooleanTrue!, kSecMatchLimit as String: kSecMatchLimitOne,
                 kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked]
            }
            #expect(NSDictionary(dictionary: makeQuery()).isEqual(to: makeQuery()))
            #expect(AnyHashable(kSecClassGenericPassword) == AnyHashable("genp"))
            #expect(AnyHashable(kSecAttrAccessibleWhenUnlocked as String) == AnyHashable(kSecAttrAccessibleWhenUnlocked))
            let hashable: [String: AnyHashable] = [kSecClass as String: kSecClassGenericPassword, kSecReturnData as String: true]
            #expect(hashable == [kSecClass as String: kSecClassGenericPassword as String, kSecReturnData as String: kCFBooleanTrue!])
            #expect(Set<AnyHashable>([kSecClassGenericPassword, kSecClassInternetPassword]).contains("genp"))
            #expect(String(kSecClass) == "class" && (kSecAttrAccount as CFString) == "acct")
        }

        @Test("[String: AnyHashable] queries holding a SecAccessControl made from CFOptionFlags, with an Unmanaged<CFError> out-parameter")
        func accessControlInHashableQuery() throws {
            var error: Unmanaged<CFError>?
            let flags = SecAccessControlCreateFlags(rawValue: CFOptionFlags(1 << 0))
            let access = try #require(SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleWhenUnlockedThisDeviceOnly as CFTypeRef,
                                                                      flags, &error))
            #expect(error == nil)
            let query: [String: AnyHashable] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccessControl as String: access]
            let again = try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .userPresence, nil))
            #expect(query == [kSecClass as String: kSecClassGenericPassword, kSecAttrAccessControl as String: again])

            // A bad protection: nil, and the error as a wrapper reads it.
            guard SecAccessControlCreateWithFlags(kCFAllocatorDefault, "bogus" as CFTypeRef, [], &error) == nil else {
                Issue.record("a bogus protection was accepted")
                return
            }
            let cfError = try #require(error?.takeRetainedValue())
            let swiftError = cfError as Error
            #expect((swiftError as NSError).code == Int(errSecParam))
            #expect(CFErrorGetCode(cfError) == CFIndex(errSecParam))
            #expect(CFErrorCopyUserInfo(cfError) != nil)
        }

        @Test("SecRandomCopyBytes fills a buffer with kSecRandomDefault")
        func randomBytes() {
            var first = [UInt8](repeating: 0, count: 32)
            var second = [UInt8](repeating: 0, count: 32)
            #expect(SecRandomCopyBytes(kSecRandomDefault, first.count, &first) == errSecSuccess)
            #expect(SecRandomCopyBytes(kSecRandomDefault, second.count, &second) == errSecSuccess)
            #expect(first != second && first != [UInt8](repeating: 0, count: 32))
            var data = Data(count: 16)
            let status = data.withUnsafeMutableBytes { SecRandomCopyBytes(kSecRandomDefault, 16, $0.baseAddress!) }
            #expect(status == errSecSuccess)
        }

        @Test("Every status a wrapper names has Apple's number and a message")
        func statusNames() {
            let named: [OSStatus] = [errSecSuccess, errSecUnimplemented, errSecDiskFull, errSecIO, errSecParam, errSecWrPerm,
                                     errSecAllocate, errSecUserCanceled, errSecBadReq, errSecInternalComponent,
                                     errSecNotAvailable, errSecReadOnly, errSecAuthFailed, errSecNoSuchKeychain,
                                     errSecInvalidKeychain, errSecDuplicateItem, errSecItemNotFound, errSecInteractionNotAllowed,
                                     errSecDecode, errSecMissingEntitlement]
            for status in named {
                let message = SecCopyErrorMessageString(status, nil) as String?
                #expect(message?.isEmpty == false, "\(status)")
            }
            #expect(SecCopyErrorMessageString(errSecItemNotFound, nil) as String? == "The specified item could not be found in the keychain.")
        }
    }
}

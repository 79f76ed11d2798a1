import Foundation
import KeychainServices

/// The Apple API side: `SecItemCopyMatching` on the process-wide default store
/// (`SecItemDefaultStore`), pointed at the size's store file as the app `bench.app`
/// (the items' access group) with the benchmark's device key, exactly as an application
/// configures it. The default store opens its own handle on the first call, beside the
/// benchmark's.
///
/// The query dictionaries are built before the timed loops (`[String: Any] as CFDictionary`),
/// as the baseline's keys are; each timed call reads its dictionary, returns a new result
/// object, and the loop casts it (`as? Data`, `as? NSDictionary`) as a caller does.
enum SecItemWorkload {
    /// Makes the default store the store at `storeURL`, closing any other.
    static func configure(storeURL: URL, deviceKeyURL: URL) {
        SecItemDefaultStore.reconfigure(.init(storeURL: storeURL, applicationIdentifier: StoreWorkload.applicationIdentifier,
                                              deviceKeyURL: deviceKeyURL))
    }

    /// Closes the default store's handle (the next SecItem call would open the
    /// environment's store, which the benchmark never makes).
    static func close() {
        SecItemDefaultStore.reconfigure(environment: [:])
    }

    /// Service + account, returning the secret.
    static func dataQuery(service: String, account: String) -> CFDictionary {
        [kSecClass as String: kSecClassGenericPassword,
         kSecAttrService as String: service,
         kSecAttrAccount as String: account,
         kSecReturnData as String: kCFBooleanTrue!] as CFDictionary
    }

    /// Service + account, returning the attributes and the secret in one dictionary.
    static func attributesAndDataQuery(service: String, account: String) -> CFDictionary {
        [kSecClass as String: kSecClassGenericPassword,
         kSecAttrService as String: service,
         kSecAttrAccount as String: account,
         kSecReturnAttributes as String: kCFBooleanTrue!,
         kSecReturnData as String: kCFBooleanTrue!] as CFDictionary
    }

    /// One item by `kSecValuePersistentRef`, returning the secret.
    static func persistentReferenceQuery(_ reference: Data) -> CFDictionary {
        [kSecClass as String: kSecClassGenericPassword,
         kSecValuePersistentRef as String: reference,
         kSecReturnData as String: kCFBooleanTrue!] as CFDictionary
    }

    /// Every item of `service`, with attributes (`kSecMatchLimitAll`).
    static func listQuery(service: String) -> CFDictionary {
        [kSecClass as String: kSecClassGenericPassword,
         kSecAttrService as String: service,
         kSecMatchLimit as String: kSecMatchLimitAll,
         kSecReturnAttributes as String: kCFBooleanTrue!] as CFDictionary
    }

    /// `SecItemCopyMatching` returning `Data`; the secret's first byte, for a checksum.
    @inline(never)  // one symbol per read side, so profilers can attribute each
    static func readData(_ query: CFDictionary) throws -> UInt8 {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query, &result)
        guard status == errSecSuccess, let data = result as? Data else {
            throw BenchmarkError("SecItemCopyMatching (data) failed: status \(status)")
        }
        return data.first ?? 0
    }

    /// `SecItemCopyMatching` returning a dictionary with the attributes and `v_Data`.
    @inline(never)
    static func readAttributesAndData(_ query: CFDictionary) throws -> UInt8 {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query, &result)
        guard status == errSecSuccess, let dictionary = result as? NSDictionary,
              let data = dictionary[kSecValueData as String] as? Data, dictionary[kSecAttrAccount as String] != nil
        else { throw BenchmarkError("SecItemCopyMatching (attributes + data) failed: status \(status)") }
        return data.first ?? 0
    }

    /// `SecItemCopyMatching` of an item that does not exist: `errSecItemNotFound`. Returns 1.
    @inline(never)
    static func readMiss(_ query: CFDictionary) throws -> UInt8 {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query, &result)
        guard status == errSecItemNotFound, result == nil else {
            throw BenchmarkError("SecItemCopyMatching of a missing item returned status \(status), not errSecItemNotFound")
        }
        return 1
    }

    /// `SecItemCopyMatching` with `kSecMatchLimitAll`: how many attribute dictionaries came back.
    @inline(never)
    static func list(_ query: CFDictionary) throws -> Int {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query, &result)
        guard status == errSecSuccess, let array = result as? NSArray else {
            throw BenchmarkError("SecItemCopyMatching (kSecMatchLimitAll) failed: status \(status)")
        }
        guard array.count == 0 || array[0] is NSDictionary else {
            throw BenchmarkError("SecItemCopyMatching (kSecMatchLimitAll) returned \(type(of: array[0])), not dictionaries")
        }
        return array.count
    }
}

import CoreFoundation
import Foundation
import KeychainServices
import Testing
// The workaround docs/porting.md gives for a file that imports CoreFoundation too: scoped
// imports of the names the file uses take precedence over CoreFoundation's own.
import typealias KeychainServices.CFDictionary
import typealias KeychainServices.CFString

extension DefaultStoreTests {
    @Suite("CoreFoundation imported beside KeychainServices") struct CoreFoundationImportTests {
        @Test("With scoped imports, CFString and CFDictionary are KeychainServices' and keychain code compiles")
        func scopedImportsResolveTheAmbiguity() {
            let key: CFString = kSecAttrService
            let query = [kSecClass as String: kSecClassGenericPassword, key as String: "s"] as CFDictionary
            #expect(query.count == 2)
            #expect(String(key) == "svce")
        }
    }
}

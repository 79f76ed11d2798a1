import Foundation
import KeychainServices
import Testing

extension DefaultStoreTests {
    /// The result shapes of reference §4.3's table that the numbered cases leave out.
    @Suite("Result shapes") struct ResultShapeTests {
        let keychain: KeychainFixture
        init() throws {
            keychain = try KeychainFixture()
            for account in ["a", "b", "c"] {
                #expect(add(.itemA.with([kSecAttrAccount as String: account])).status == errSecSuccess)
            }
        }

        static var service: [String: Any] { [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "s"] }

        @Test("No return keys with kSecMatchLimitAll: an empty array")
        func noReturnKeysAll() throws {
            let found = copyMatching(Self.service.with([kSecMatchLimit as String: kSecMatchLimitAll]))
            #expect(found.status == errSecSuccess)
            #expect(try #require(found.object as? NSArray).count == 0)
        }

        @Test("kSecReturnRef alone with kSecMatchLimitAll: an empty array (passwords have no refs)")
        func referenceAll() throws {
            let found = copyMatching(Self.service.with([kSecReturnRef as String: true, kSecMatchLimit as String: kSecMatchLimitAll]))
            #expect(found.status == errSecSuccess)
            #expect(try #require(found.object as? NSArray).count == 0)
        }

        /// Apple's server answers `kSecReturnRef` with another return key by decrypting the
        /// whole item (SecItemDb.c `handle_result`, SecItemDb.c `SecDbItemCopyResult` on add)
        /// and its client keeps `v_Data` when no object can be made (SecItem.m
        /// `SecItemResultCopyPrepared`): a password comes back as every attribute, `v_Data` and
        /// `class`, whatever the other key was.
        static let referenceDictionaryKeys: Set<String> = ["acct", "svce", "agrp", "pdmn", "sync", "cdat", "mdat", "class", "v_Data"]

        @Test("kSecReturnRef with another key returns the whole item: the attributes, v_Data and class")
        func referenceWithAttributes() throws {
            for other in [kSecReturnAttributes, kSecReturnData, kSecReturnPersistentRef] {
                let found = copyMatching(.queryQ.with([kSecReturnRef as String: true, other as String: true]))
                #expect(found.status == errSecSuccess)
                let dictionary = try #require(found.dictionary)
                var expected = Self.referenceDictionaryKeys
                if other == kSecReturnPersistentRef { expected.insert("v_PersistentRef") }
                #expect(Set(dictionary.keys) == expected, "\(other)")
                #expect(dictionary[kSecClass as String] as? String == "genp")
                #expect(dictionary[kSecAttrAccount as String] as? String == "a")
                #expect(dictionary[kSecValueData as String] as? Data == "pw".utf8Data, "\(other)")
            }
        }

        @Test("An add with kSecReturnRef and another key returns the whole item too")
        func addReferenceAndData() throws {
            for (index, other) in [kSecReturnAttributes, kSecReturnData, kSecReturnPersistentRef].enumerated() {
                let added = add(.itemA.with([kSecAttrAccount as String: "d\(index)", kSecReturnRef as String: true,
                                             other as String: true]))
                #expect(added.status == errSecSuccess)
                let dictionary = try #require(added.dictionary)
                var expected = Self.referenceDictionaryKeys
                if other == kSecReturnPersistentRef { expected.insert("v_PersistentRef") }
                #expect(Set(dictionary.keys) == expected, "\(other)")
                #expect(dictionary[kSecValueData as String] as? Data == "pw".utf8Data, "\(other)")
            }
        }

        @Test("A number limit returns at most that many, as an array")
        func numberLimit() throws {
            let two = copyMatching(Self.service.with([kSecReturnAttributes as String: true, kSecMatchLimit as String: 2]))
            #expect(two.status == errSecSuccess)
            #expect(try #require(two.dictionaries).count == 2)
            let ten = copyMatching(Self.service.with([kSecReturnData as String: true, kSecMatchLimit as String: NSNumber(value: 10)]))
            #expect(try #require(ten.dataArray).count == 3)
        }

        @Test("kSecReturnPersistentRef with kSecMatchLimitAll: an array of distinct references")
        func persistentReferencesAll() throws {
            let found = copyMatching(Self.service.with([kSecReturnPersistentRef as String: true,
                                                        kSecMatchLimit as String: kSecMatchLimitAll]))
            let references = try #require(found.dataArray)
            #expect(references.count == 3)
            #expect(Set(references).count == 3)
            #expect(references.allSatisfy { $0.count == 20 && $0.prefix(4) == "genp".utf8Data })
        }

        @Test("Results cast as Apple code casts them")
        func appleCasts() throws {
            var result: AnyObject?
            let status = withUnsafeMutablePointer(to: &result) {
                SecItemCopyMatching([String: Any].queryQ.with([kSecReturnAttributes as String: kCFBooleanTrue!]) as CFDictionary,
                                    UnsafeMutablePointer($0))
            }
            #expect(status == noErr)
            let dictionary = try #require(result as? NSDictionary)
            #expect(dictionary[kSecAttrAccount] as? String == "a")
            #expect((result as? [String: Any])?[String(kSecAttrService)] as? String == "s")
            #expect((result as? [String: AnyObject])?[kSecAttrAccessible as String] as? String == kSecAttrAccessibleWhenUnlocked as String)
        }

        @Test("An attribute dictionary: every attribute under Apple's key with its Foundation type, and v_Data")
        func attributeDictionary() throws {
            #expect(add([String: Any].itemA.with([kSecAttrAccount as String: "typed", kSecAttrGeneric as String: Data([7, 8]),
                                                  kSecAttrLabel as String: "label", kSecAttrIsInvisible as String: true])).status
                == errSecSuccess)
            let found = copyMatching([String: Any].queryQ.with([kSecAttrAccount as String: "typed", kSecReturnAttributes as String: true,
                                                                kSecReturnData as String: true, kSecReturnPersistentRef as String: true]))
            let dictionary = try #require(found.object as? NSDictionary)
            #expect(Set(dictionary.allKeys.compactMap { $0 as? String })
                == ["acct", "svce", "gena", "labl", "invi", "agrp", "pdmn", "sync", "cdat", "mdat", "v_Data", "v_PersistentRef"])
            #expect(dictionary[kSecAttrAccount as String] as? String == "typed")
            #expect(dictionary[kSecAttrGeneric as String] as? Data == Data([7, 8]))
            #expect(dictionary[kSecAttrIsInvisible as String] as? NSNumber == 1)
            #expect(dictionary[kSecAttrSynchronizable as String] as? NSNumber == 0)
            #expect(dictionary[kSecAttrAccessible as String] as? String == kSecAttrAccessibleWhenUnlocked as String)
            #expect(dictionary[kSecAttrCreationDate as String] is Date)
            #expect(dictionary[kSecValueData as String] as? Data == "pw".utf8Data)
            #expect((dictionary[kSecValuePersistentRef as String] as? Data)?.count == 20)
            for value in dictionary.allValues {
                #expect(value is NSString || value is NSNumber || value is NSDate || value is NSData, "\(type(of: value))")
            }
        }

        /// A listing's dictionaries share one object for equal values (docs/performance.md,
        /// fifteenth session); each must still hold its own item's value, to the byte.
        @Test("A listing's dictionaries hold each item's own values, byte for byte, as the item alone returns them")
        func listingValuesAreEachItemsOwn() throws {
            // Canonically equivalent labels with different bytes: Swift's `==` calls them equal.
            let labels = ["x1": "\u{e9}", "x2": "e\u{301}", "x3": "\u{e9}", "x4": "e\u{301}"]
            for (account, label) in labels.sorted(by: { $0.key < $1.key }) {
                #expect(add(.itemA.with([kSecAttrAccount as String: account, kSecAttrLabel as String: label,
                                         kSecAttrIsInvisible as String: account == "x2"])).status == errSecSuccess)
            }
            // One item's modification date apart from its creation date.
            #expect(update(.queryQ.with([kSecAttrAccount as String: "x3"]), [kSecAttrComment as String: "changed"]) == errSecSuccess)
            let found = copyMatching(Self.service.with([kSecReturnAttributes as String: true,
                                                        kSecMatchLimit as String: kSecMatchLimitAll]))
            let listed = try #require(found.object as? [NSDictionary])
            #expect(listed.count == 7)
            for dictionary in listed {
                let account = try #require(dictionary[kSecAttrAccount as String] as? String)
                let alone = try #require(copyMatching(Self.service.with([kSecAttrAccount as String: account,
                                                                         kSecReturnAttributes as String: true])).object as? NSDictionary)
                #expect(dictionary.isEqual(alone), "\(account)")
                for key in dictionary.allKeys {
                    guard let string = dictionary[key] as? String else { continue }
                    #expect(Array(string.utf8) == Array(((alone[key] as? String) ?? "").utf8), "\(account) \(key)")
                }
                if let label = labels[account] {
                    #expect(Array(((dictionary[kSecAttrLabel as String] as? String) ?? "").utf8) == Array(label.utf8), "\(account)")
                }
            }
        }

        @Test("A nil result pointer is allowed with return keys, on add and on copy")
        func nilResultPointer() {
            #expect(SecItemAdd([String: Any].itemA.with([kSecAttrAccount as String: "e",
                                                         kSecReturnAttributes as String: true]) as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemCopyMatching([String: Any].queryQ.with([kSecReturnData as String: true]) as CFDictionary, nil)
                == errSecSuccess)
        }

        @Test("A failed call clears a result that held an object")
        func failureClearsResult() {
            var result: CFTypeRef? = NSData()
            #expect(SecItemCopyMatching([String: Any].queryQ.with([kSecAttrAccount as String: "zz"]) as CFDictionary, &result)
                == errSecItemNotFound)
            #expect(result == nil)
        }

        @Test("Queries built as [CFString: Any] and NSMutableDictionary work as [String: Any] does")
        func otherDictionaryForms() throws {
            let cfKeys: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrService: "s", kSecAttrAccount: "b",
                                           kSecReturnData: kCFBooleanTrue as Any]
            var result: CFTypeRef?
            #expect(SecItemCopyMatching(cfKeys as CFDictionary, &result) == errSecSuccess)
            #expect(result as? Data == "pw".utf8Data)

            let mutable = NSMutableDictionary()
            mutable[kSecClass] = kSecClassGenericPassword
            mutable[kSecAttrAccount] = NSString(string: "c")
            mutable[kSecReturnAttributes] = kCFBooleanTrue
            #expect(SecItemCopyMatching(mutable, &result) == errSecSuccess)
            #expect((result as? [String: Any])?[kSecAttrAccount as String] as? String == "c")
        }
    }
}

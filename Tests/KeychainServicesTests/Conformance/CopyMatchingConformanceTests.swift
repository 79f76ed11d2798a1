import Foundation
import KeychainServices
import Testing

extension DefaultStoreTests {
    /// Reference §6, the cases about `SecItemCopyMatching`: result shapes for each
    /// combination of return keys and limits, persistent references, matching rules.
    @Suite("Reference §6: SecItemCopyMatching") struct CopyMatchingConformance {
        let keychain: KeychainFixture
        init() throws { keychain = try KeychainFixture() }

        /// Adds A and {genp, svce "s", acct "b"}: two items that {genp, svce "s"} matches.
        func addTwoAccounts() {
            #expect(add(.itemA).status == errSecSuccess)
            #expect(add(.itemA.with([kSecAttrAccount as String: "b"])).status == errSecSuccess)
        }

        static var serviceQuery: [String: Any] { [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "s"] }

        @Test("7. kSecReturnData returns the secret as Data")
        func returnData() {
            #expect(add(.itemA).status == errSecSuccess)
            let found = copyMatching(.queryQ.with([kSecReturnData as String: kCFBooleanTrue!]))
            #expect(found.status == errSecSuccess)
            #expect(found.object is NSData)
            #expect(found.data == "pw".utf8Data)
        }

        @Test("8. Nothing stored: errSecItemNotFound and the result stays nil")
        func nothingFound() {
            let found = copyMatching(.queryQ.with([kSecReturnData as String: true]))
            #expect(found.status == errSecItemNotFound)
            #expect(found.object == nil)
        }

        @Test("9. No return keys and a nil result pointer: an existence test")
        func existenceTest() {
            #expect(add(.itemA).status == errSecSuccess)
            #expect(SecItemCopyMatching([String: Any].queryQ as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemCopyMatching([String: Any].queryQ.with([kSecAttrAccount as String: "z"]) as CFDictionary, nil)
                == errSecItemNotFound)
        }

        @Test("10. Without kSecMatchLimit, two matches give one dictionary, not an array")
        func defaultLimitIsOne() throws {
            addTwoAccounts()
            let found = copyMatching(Self.serviceQuery.with([kSecReturnAttributes as String: true]))
            #expect(found.status == errSecSuccess)
            #expect(found.object is NSDictionary)
            #expect(!(found.object is NSArray))
            #expect(try #require(found.dictionary)[kSecAttrService as String] as? String == "s")
        }

        @Test("11. kSecMatchLimitAll gives an array of every match; the number 1 gives one object")
        func limitAllAndNumberOne() throws {
            addTwoAccounts()
            let all = copyMatching(Self.serviceQuery.with([kSecReturnAttributes as String: true,
                                                           kSecMatchLimit as String: kSecMatchLimitAll]))
            #expect(all.status == errSecSuccess)
            let items = try #require(all.dictionaries)
            #expect(Set(items.compactMap { $0[kSecAttrAccount as String] as? String }) == ["a", "b"])
            let one = copyMatching(Self.serviceQuery.with([kSecReturnAttributes as String: true,
                                                           kSecMatchLimit as String: NSNumber(value: 1)]))
            #expect(one.status == errSecSuccess)
            #expect(one.object is NSDictionary)
            #expect(one.dictionary != nil)
        }

        @Test("12. kSecReturnAttributes: Apple's keys and types, cdat == mdat, no v_Data, no class")
        func attributeDictionary() throws {
            #expect(add(.itemA).status == errSecSuccess)
            let found = copyMatching(.queryQ.with([kSecReturnAttributes as String: true]))
            #expect(found.status == errSecSuccess)
            let attributes = try #require(found.object as? NSDictionary)
            #expect(attributes[kSecAttrAccount as String] as? NSString == "a")
            #expect(attributes[kSecAttrService as String] as? NSString == "s")
            #expect(attributes[kSecAttrAccessGroup as String] as? NSString == KeychainFixture.g1 as NSString)
            #expect(attributes[kSecAttrAccessible as String] as? String == kSecAttrAccessibleWhenUnlocked as String)
            #expect(attributes[kSecAttrSynchronizable as String] as? NSNumber == NSNumber(value: 0))
            let created = try #require(attributes[kSecAttrCreationDate as String] as? NSDate)
            let modified = try #require(attributes[kSecAttrModificationDate as String] as? NSDate)
            #expect(created == modified)
            #expect(attributes[kSecValueData as String] == nil)
            #expect(attributes[kSecClass as String] == nil)
            #expect(Set(attributes.allKeys.compactMap { $0 as? String }) == ["acct", "svce", "agrp", "pdmn", "sync", "cdat", "mdat"])
        }

        @Test("13. kSecReturnAttributes with kSecReturnData: the attributes plus v_Data")
        func attributesAndData() throws {
            #expect(add(.itemA).status == errSecSuccess)
            let found = copyMatching(.queryQ.with([kSecReturnAttributes as String: true, kSecReturnData as String: true]))
            #expect(found.status == errSecSuccess)
            let dictionary = try #require(found.dictionary)
            #expect(dictionary[kSecValueData as String] as? Data == "pw".utf8Data)
            #expect(dictionary[kSecAttrAccount as String] as? String == "a")
            #expect(dictionary[kSecAttrAccessGroup as String] as? String == KeychainFixture.g1)
            #expect(dictionary[kSecClass as String] == nil)
        }

        @Test("14. kSecReturnPersistentRef: 20 bytes starting \"genp\"; the reference alone finds the item")
        func persistentReference() throws {
            #expect(add(.itemA).status == errSecSuccess)
            let found = copyMatching(.queryQ.with([kSecReturnPersistentRef as String: true]))
            #expect(found.status == errSecSuccess)
            let reference = try #require(found.data)
            #expect(reference.count == 20)
            #expect(reference.prefix(4) == "genp".utf8Data)
            let again = copyMatching([kSecValuePersistentRef as String: reference, kSecReturnData as String: true])
            #expect(again.status == errSecSuccess)
            #expect(again.data == "pw".utf8Data)
        }

        @Test("15. Data + PersistentRef: copy adds the attributes, add returns exactly v_Data and v_PersistentRef")
        func dataAndPersistentReference() throws {
            let returns: [String: Any] = [kSecReturnData as String: true, kSecReturnPersistentRef as String: true]
            let added = add(.itemA.with(returns))
            #expect(added.status == errSecSuccess)
            let addResult = try #require(added.dictionary)
            #expect(Set(addResult.keys) == ["v_Data", "v_PersistentRef"])
            #expect(addResult[kSecValueData as String] as? Data == "pw".utf8Data)
            let reference = try #require(addResult[kSecValuePersistentRef as String] as? Data)
            #expect(reference.count == 20)

            let found = copyMatching(.queryQ.with(returns))
            #expect(found.status == errSecSuccess)
            let copyResult = try #require(found.dictionary)
            #expect(copyResult[kSecValueData as String] as? Data == "pw".utf8Data)
            #expect(copyResult[kSecValuePersistentRef as String] as? Data == reference)
            #expect(copyResult[kSecAttrAccount as String] as? String == "a")
            #expect(copyResult[kSecAttrModificationDate as String] is Date)
        }

        @Test("44. Matching is exact without kSecMatchCaseInsensitive and ignores case with it (SecStore honours it)")
        func caseInsensitiveMatching() throws {
            #expect(add(.itemA).status == errSecSuccess)
            let upper = [String: Any].queryQ.with([kSecAttrAccount as String: "A", kSecReturnAttributes as String: true])
            let exact = copyMatching(upper)
            #expect(exact.status == errSecItemNotFound)
            #expect(exact.object == nil)
            let folded = copyMatching(upper.with([kSecMatchCaseInsensitive as String: kCFBooleanTrue!]))
            #expect(folded.status == errSecSuccess)
            #expect(try #require(folded.dictionary)[kSecAttrAccount as String] as? String == "a")
            #expect(copyMatching(upper.with([kSecMatchCaseInsensitive as String: false])).status == errSecItemNotFound)
        }

        @Test("45. Internet passwords: exact server, and kSecMatchHostOrSubdomainOfHost")
        func internetServerMatching() {
            #expect(add(.itemI).status == errSecSuccess)
            let byServer: [String: Any] = [kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: "example.com"]
            #expect(copyMatching(byServer).status == errSecSuccess)
            #expect(copyMatching(byServer.with([kSecAttrServer as String: "www.example.com"])).status == errSecItemNotFound)

            #expect(add(.itemI.with([kSecAttrServer as String: "www.example.com", kSecAttrAccount as String: "w"])).status
                == errSecSuccess)
            let byHost: [String: Any] = [kSecClass as String: kSecClassInternetPassword,
                                         kSecMatchHostOrSubdomainOfHost as String: "example.com",
                                         kSecMatchLimit as String: kSecMatchLimitAll,
                                         kSecReturnAttributes as String: true]
            let found = copyMatching(byHost)
            #expect(found.status == errSecSuccess)
            #expect(Set(found.dictionaries?.compactMap { $0[kSecAttrServer as String] as? String } ?? [])
                == ["example.com", "www.example.com"])
            let subdomainOnly = copyMatching(byHost.with([kSecMatchHostOrSubdomainOfHost as String: "www.example.com"]))
            #expect(subdomainOnly.dictionaries?.count == 1)
        }

        @Test("46. A server given as Data comes back as Data")
        func serverKeepsDataType() throws {
            #expect(add(.itemI.with([kSecAttrServer as String: "example.com".utf8Data])).status == errSecSuccess)
            let found = copyMatching([kSecClass as String: kSecClassInternetPassword, kSecAttrAccount as String: "u",
                                      kSecReturnAttributes as String: true])
            #expect(found.status == errSecSuccess)
            let server = try #require(found.dictionary?[kSecAttrServer as String])
            #expect(server is NSData || server is Data)
            #expect(server as? Data == "example.com".utf8Data)
        }

        @Test("47. The port \"443\" given as a string is the number 443")
        func portStringIsNumber() throws {
            #expect(add(.itemI.with([kSecAttrPort as String: "443"])).status == errSecSuccess)
            let found = copyMatching([kSecClass as String: kSecClassInternetPassword, kSecAttrPort as String: 443,
                                      kSecReturnAttributes as String: true])
            #expect(found.status == errSecSuccess)
            #expect(try #require(found.dictionary)[kSecAttrPort as String] as? Int == 443)
        }

        @Test("51. A persistent reference combined with an attribute is errSecParam")
        func persistentReferenceWithAttribute() throws {
            let reference = try #require(add(.itemA.with([kSecReturnPersistentRef as String: true])).data)
            let found = copyMatching([kSecValuePersistentRef as String: reference, kSecAttrAccount as String: "a",
                                      kSecReturnData as String: true])
            #expect(found.status == errSecParam)
            #expect(found.object == nil)
        }

        @Test("51. kSecAttrSynchronizableAny beside a persistent reference adds no attribute: the item is found")
        func persistentReferenceWithSynchronizableAny() throws {
            // SecDbQuery.c query_add_attribute_with_desc: "syna" is skipped, "so it isn't part
            // of the search", and the illegal-query check counts attributes only.
            let reference = try #require(add(.itemA.with([kSecAttrSynchronizable as String: true,
                                                          kSecReturnPersistentRef as String: true])).data)
            let found = copyMatching([kSecValuePersistentRef as String: reference, kSecReturnData as String: true,
                                      kSecAttrSynchronizable as String: kSecAttrSynchronizableAny])
            #expect(found.status == errSecSuccess)
            #expect(found.data == "pw".utf8Data)
            let synchronizable = copyMatching([kSecValuePersistentRef as String: reference, kSecReturnData as String: true,
                                               kSecAttrSynchronizable as String: true])
            #expect(synchronizable.status == errSecParam, "true or false is an attribute")
        }

        @Test("52. A returned attribute dictionary, plus class and kSecReturnData, finds its item")
        func attributesRoundTripAsQuery() throws {
            #expect(add(.itemA).status == errSecSuccess)
            var attributes = try #require(copyMatching(.queryQ.with([kSecReturnAttributes as String: true])).dictionary)
            attributes["sha1"] = nil
            attributes[kSecClass as String] = kSecClassGenericPassword
            attributes[kSecReturnData as String] = true
            let found = copyMatching(attributes)
            #expect(found.status == errSecSuccess)
            #expect(found.data == "pw".utf8Data)
        }

        @Test("53. kSecReturnData with kSecMatchLimitAll: an array of Data")
        func dataForEveryMatch() throws {
            addTwoAccounts()
            let found = copyMatching(Self.serviceQuery.with([kSecReturnData as String: true,
                                                             kSecMatchLimit as String: kSecMatchLimitAll]))
            #expect(found.status == errSecSuccess)
            #expect(found.object is NSArray)
            #expect(try #require(found.dataArray) == ["pw".utf8Data, "pw".utf8Data])
        }
    }
}

import Foundation
import KeychainServices
import Testing

extension DefaultStoreTests {
    /// Apple's dictionary rules beyond the numbered cases (reference §4.0–4.5), and the
    /// choices SecStore makes where Linux has nothing to match (docs/porting.md).
    @Suite("Dictionary rules") struct DictionaryRulesTests {
        let keychain: KeychainFixture
        init() throws { keychain = try KeychainFixture() }

        @Test("kSecAttrPersistentReference is not a dictionary key")
        func persistentReferenceAttribute() {
            #expect(add(.itemA).status == errSecSuccess)
            #expect(copyMatching(.queryQ.with([kSecAttrPersistentReference as String: Data(count: 20)])).status == errSecParam)
        }

        @Test("More than 128 keys is errSecParam, whatever the keys")
        func tooManyKeys() {
            var query = [String: Any].queryQ
            for index in 0..<126 { query["k\(index)"] = "x" }
            #expect(query.count == 129)
            #expect(copyMatching(query).status == errSecParam)
        }

        @Test("kSecUseDataProtectionKeychain and f-prefixed keys are ignored")
        func ignoredKeys() {
            #expect(add(.itemA.with([kSecUseDataProtectionKeychain as String: true])).status == errSecSuccess)
            #expect(copyMatching(.queryQ.with([kSecUseDataProtectionKeychain as String: true, "f_Anything": 1])).status
                == errSecSuccess)
        }

        @Test("Unsupported attributes: access control is errSecParam, sync view and token id are errSecNoSuchAttr")
        func unsupportedAttributes() {
            #expect(add(.itemA.with([kSecAttrAccessControl as String: "anything"])).status == errSecParam)
            #expect(add(.itemA.with([kSecAttrSyncViewHint as String: "view"])).status == errSecNoSuchAttr)
            #expect(add(.itemA.with([kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave])).status == errSecNoSuchAttr)
            #expect(copyMatching(.queryQ).status == errSecItemNotFound)
        }

        @Test("Certificates, keys and identities are errSecUnimplemented; AppleShare passwords errSecNoSuchClass")
        func unsupportedClasses() {
            for itemClass in [kSecClassCertificate, kSecClassKey, kSecClassIdentity] {
                #expect(add([kSecClass as String: itemClass, kSecValueData as String: Data()]).status == errSecUnimplemented)
                #expect(delete([kSecClass as String: itemClass]) == errSecUnimplemented)
                // A persistent reference Apple made for such an item: its class's letters, then 16 bytes.
                let reference = Data((itemClass as String).utf8) + Data(repeating: 7, count: 16)
                #expect(copyMatching([kSecValuePersistentRef as String: reference, kSecReturnData as String: true]).status
                        == errSecUnimplemented, "\(itemClass)")
                #expect(delete([kSecValuePersistentRef as String: reference]) == errSecUnimplemented, "\(itemClass)")
            }
            let unknown = Data("apls".utf8) + Data(repeating: 7, count: 16)
            #expect(copyMatching([kSecValuePersistentRef as String: unknown, kSecReturnData as String: true]).status == errSecParam)
            #expect(copyMatching([kSecClass as String: "apls"]).status == errSecNoSuchClass)
            #expect(copyMatching([kSecClass as String: 42]).status == errSecParam)
        }

        @Test("A key that is not a string: a number is errSecNoSuchAttr, anything else errSecParam")
        func nonStringKeys() {
            let numberKey = NSMutableDictionary(dictionary: [String: Any].queryQ)
            numberKey[NSNumber(value: 7)] = "x"
            #expect(SecItemCopyMatching(numberKey, nil) == errSecNoSuchAttr)
            let dateKey = NSMutableDictionary(dictionary: [String: Any].queryQ)
            dateKey[NSDate()] = "x"
            #expect(SecItemCopyMatching(dateKey, nil) == errSecParam)
        }

        @Test("A nil or NSNull value is errSecParam")
        func missingValues() {
            let nothing: Data? = nil
            #expect(add(.itemA.with([kSecAttrLabel as String: nothing as Any])).status == errSecParam)
            #expect(add(.itemA.with([kSecAttrLabel as String: NSNull()])).status == errSecParam)
            #expect(add(.itemA.with([kSecAttrLabel as String: Optional("label") as Any])).status == errSecSuccess)
        }

        @Test("Values of the wrong type are errSecParam")
        func wrongValueTypes() {
            #expect(add(.itemA.with([kSecAttrAccount as String: Date()])).status == errSecParam)
            #expect(add(.itemA.with([kSecAttrLabel as String: ["a", "b"]])).status == errSecParam)
            #expect(add(.itemI.with([kSecAttrPort as String: 443.5])).status == errSecParam)
            #expect(add(.itemA.with([kSecAttrCreationDate as String: "yesterday"])).status == errSecParam)
            #expect(add(.itemA.with([kSecAttrSynchronizable as String: "maybe"])).status == errSecParam)
            #expect(add(.itemA.with([kSecAttrAccessGroup as String: 7])).status == errSecParam)
        }

        @Test("Booleans and whole numbers are accepted where Apple takes numbers")
        func numericValues() throws {
            let item = [String: Any].itemI.with([kSecAttrPort as String: 8443.0, kSecAttrIsInvisible as String: true,
                                                 kSecAttrCreator as String: NSNumber(value: 0x6170_706C),
                                                 kSecReturnAttributes as String: true])
            let added = add(item)
            #expect(added.status == errSecSuccess)
            let attributes = try #require(added.dictionary)
            #expect(attributes[kSecAttrPort as String] as? Int == 8443)
            #expect(attributes[kSecAttrIsInvisible as String] as? Int == 1)
            #expect(attributes[kSecAttrCreator as String] as? Int == 0x6170_706C)
        }

        @Test("Value keys: kSecValueRef and a persistent reference on add are errSecParam; v_Data in a query only has to be Data")
        func valueKeys() {
            #expect(add(.itemA.with([kSecValueRef as String: "ref"])).status == errSecParam)
            #expect(add(.itemA.with([kSecValuePersistentRef as String: Data(count: 20)])).status == errSecParam)
            #expect(add(.itemA).status == errSecSuccess)
            #expect(copyMatching(.queryQ.with([kSecValueData as String: "other".utf8Data])).status == errSecSuccess)
            #expect(copyMatching(.queryQ.with([kSecValueData as String: "other"])).status == errSecParam)
            #expect(delete(.queryQ.with([kSecValueData as String: "other".utf8Data])) == errSecSuccess)
        }

        @Test("Persistent references: malformed is errSecParam, another class is errSecNoSuchClass, deleted is not found")
        func persistentReferenceErrors() throws {
            let reference = try #require(add(.itemA.with([kSecReturnPersistentRef as String: true])).data)
            #expect(copyMatching([kSecValuePersistentRef as String: Data("genp".utf8)]).status == errSecParam)
            #expect(copyMatching([kSecValuePersistentRef as String: "genp"]).status == errSecParam)
            #expect(copyMatching([kSecValuePersistentRef as String: reference, kSecClass as String: kSecClassInternetPassword]).status
                == errSecNoSuchClass)
            #expect(copyMatching([kSecValuePersistentRef as String: reference,
                                  kSecAttrSynchronizable as String: false]).status == errSecParam)
            #expect(delete([kSecValuePersistentRef as String: reference, kSecAttrAccount as String: "other"]) == errSecItemNotFound)
            #expect(delete([kSecValuePersistentRef as String: reference, kSecAttrAccount as String: "a"]) == errSecSuccess)
            #expect(copyMatching([kSecValuePersistentRef as String: reference]).status == errSecItemNotFound)
        }

        @Test("A persistent reference stays valid across updates")
        func persistentReferenceSurvivesUpdate() throws {
            let reference = try #require(add(.itemA.with([kSecReturnPersistentRef as String: true])).data)
            #expect(update(.queryQ, [kSecAttrAccount as String: "moved", kSecValueData as String: "new".utf8Data]) == errSecSuccess)
            let found = copyMatching([kSecValuePersistentRef as String: reference, kSecReturnData as String: true])
            #expect(found.data == "new".utf8Data)
        }

        @Test("kSecMatchLimit: anything but One, All or a positive number is errSecParam")
        func invalidLimits() {
            #expect(add(.itemA).status == errSecSuccess)
            for limit: Any in [0, -1, "m_LimitSome", true, 2.5] {
                #expect(copyMatching(.queryQ.with([kSecMatchLimit as String: limit])).status == errSecParam, "\(limit)")
            }
        }

        @Test("Match keys: certificate filters are errSecUnimplemented or ignored; host matching needs an internet password")
        func matchKeys() {
            #expect(add(.itemA).status == errSecSuccess)
            #expect(copyMatching(.queryQ.with([kSecMatchIssuers as String: [Data()]])).status == errSecUnimplemented)
            #expect(copyMatching(.queryQ.with([kSecMatchPolicy as String: "policy"])).status == errSecUnimplemented)
            #expect(copyMatching(.queryQ.with([kSecMatchHostOrSubdomainOfHost as String: "example.com"])).status == errSecUnimplemented)
            #expect(copyMatching(.queryQ.with([kSecMatchItemList as String: [Data()], kSecMatchTrustedOnly as String: true,
                                               kSecMatchValidOnDate as String: Date(), "m_Unknown": 1])).status == errSecSuccess)
            #expect(copyMatching(.queryQ.with([kSecMatchCaseInsensitive as String: "yes"])).status == errSecParam)
        }

        @Test("Update and delete honour filtering match keys (macOS): a case-insensitive query acts on the folded match")
        func matchKeysInUpdateAndDelete() {
            #expect(add(.itemA).status == errSecSuccess)
            let folded = [String: Any].queryQ.with([kSecAttrAccount as String: "A", kSecMatchCaseInsensitive as String: true])
            #expect(update(folded, [kSecAttrLabel as String: "l"]) == errSecSuccess)
            #expect(copyMatching(.queryQ.with([kSecReturnAttributes as String: true])).dictionary?[kSecAttrLabel as String] as? String == "l")
            #expect(update(folded.with([kSecMatchCaseInsensitive as String: "yes"]), [kSecAttrLabel as String: "m"]) == errSecParam)
            #expect(delete(folded) == errSecSuccess)
            #expect(copyMatching(.queryQ).status == errSecItemNotFound)
        }

        @Test("Use keys: prompts and contexts are accepted; Skip only in SecItemCopyMatching; item lists are errSecParam")
        func useKeys() {
            #expect(add(.itemA.with([kSecUseAuthenticationUI as String: kSecUseAuthenticationUIAllow])).status == errSecSuccess)
            let prompted = [String: Any].queryQ.with([kSecUseOperationPrompt as String: "Sign in",
                                                      kSecUseAuthenticationContext as String: NSObject(),
                                                      kSecUseNoAuthenticationUI as String: true])
            #expect(copyMatching(prompted).status == errSecSuccess)
            let skip = [String: Any].queryQ.with([kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip])
            #expect(copyMatching(skip).status == errSecSuccess)
            #expect(update(skip, [kSecAttrLabel as String: "l"]) == errSecParam)
            #expect(delete(skip) == errSecParam)
            #expect(copyMatching(.queryQ.with([kSecUseAuthenticationUI as String: "u_AuthUIX"])).status == errSecParam)
            #expect(copyMatching(.queryQ.with([kSecUseOperationPrompt as String: 1])).status == errSecParam)
            #expect(copyMatching(.queryQ.with([kSecUseItemList as String: [Data()]])).status == errSecParam)
        }

        @Test("Return keys in a delete are checked and ignored")
        func returnKeysInDelete() {
            #expect(add(.itemA).status == errSecSuccess)
            #expect(delete(.queryQ.with([kSecReturnData as String: 1])) == errSecParam)
            #expect(delete(.queryQ.with([kSecReturnData as String: true])) == errSecSuccess)
        }

        @Test("kSecAttrSynchronizableAny on add makes a non-synchronizable item; an update cannot set it")
        func synchronizableAny() throws {
            let added = add(.itemA.with([kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
                                         kSecReturnAttributes as String: true]))
            #expect(added.status == errSecSuccess)
            #expect(try #require(added.dictionary)[kSecAttrSynchronizable as String] as? Int == 0)
            #expect(update(.queryQ, [kSecAttrSynchronizable as String: kSecAttrSynchronizableAny]) == errSecParam)
            #expect(update(.queryQ, [kSecAttrSynchronizable as String: true]) == errSecSuccess)
            #expect(copyMatching(.queryQ).status == errSecItemNotFound)
            #expect(copyMatching(.queryQ.with([kSecAttrSynchronizable as String: kCFBooleanTrue!])).status == errSecSuccess)
        }

        @Test("Attributes to update: an empty dictionary only touches mdat; nleg and musr are ignored")
        func quietUpdates() throws {
            #expect(add(.itemA).status == errSecSuccess)
            let query = [String: Any].queryQ.with([kSecReturnAttributes as String: true])
            let before = try #require(copyMatching(query).dictionary)
            #expect(update(.queryQ, [:]) == errSecSuccess)
            #expect(update(.queryQ, [kSecUseDataProtectionKeychain as String: true, "musr": Data()]) == errSecSuccess)
            let after = try #require(copyMatching(query).dictionary)
            #expect(try #require(after[kSecAttrModificationDate as String] as? Date)
                > (try #require(before[kSecAttrModificationDate as String] as? Date)))
            #expect(after[kSecAttrCreationDate as String] as? Date == before[kSecAttrCreationDate as String] as? Date)
            #expect(update(.queryQ, [kSecAttrServer as String: "x"]) == errSecNoSuchAttr)
            #expect(update(.queryQ, [kSecAttrAccessControl as String: "x"]) == errSecParam)
            #expect(update(.queryQ, [kSecValueData as String: NSNull()]) == errSecParam)
        }

        @Test("A string and data with the same bytes are one value of a blob attribute")
        func stringAndDataMatch() {
            #expect(add(.itemA).status == errSecSuccess)
            #expect(copyMatching(.queryQ.with([kSecAttrAccount as String: "a".utf8Data])).status == errSecSuccess)
            #expect(add(.itemA.with([kSecAttrAccount as String: "a".utf8Data])).status == errSecDuplicateItem)
        }
    }
}

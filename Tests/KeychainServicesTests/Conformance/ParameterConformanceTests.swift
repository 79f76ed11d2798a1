import Foundation
import KeychainServices
import Testing

extension DefaultStoreTests {
    /// Reference §6, the cases about malformed dictionaries: missing or unknown class,
    /// attributes of another class, values of the wrong type, unknown keys.
    @Suite("Reference §6: malformed dictionaries") struct ParameterConformance {
        let keychain: KeychainFixture
        init() throws { keychain = try KeychainFixture() }

        @Test("19. No kSecClass is errSecParam in all four functions")
        func missingClass() {
            let noClass = [String: Any].itemA.without(kSecClass)
            let added = add(noClass)
            #expect(added.status == errSecParam)
            #expect(added.object == nil)
            #expect(add(.itemA).status == errSecSuccess)
            let query = [String: Any].queryQ.without(kSecClass)
            #expect(copyMatching(query).status == errSecParam)
            #expect(update(query, [kSecValueData as String: "x".utf8Data]) == errSecParam)
            #expect(delete(query) == errSecParam)
            #expect(copyMatching(.queryQ).status == errSecSuccess, "nothing was changed or deleted")
        }

        @Test("20. An unknown class is errSecNoSuchClass")
        func unknownClass() {
            let nope = [String: Any].itemA.with([kSecClass as String: "nope"])
            #expect(add(nope).status == errSecNoSuchClass)
            #expect(copyMatching(nope.without(kSecValueData)).status == errSecNoSuchClass)
            #expect(delete(nope.without(kSecValueData)) == errSecNoSuchClass)
        }

        @Test("21. An attribute of another class is errSecNoSuchAttr")
        func attributeOfAnotherClass() {
            let withServer: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrServer as String: "x"]
            #expect(add(withServer).status == errSecNoSuchAttr)
            let withTag: [String: Any] = [kSecClass as String: kSecClassGenericPassword, "atag": "tag".utf8Data]
            #expect(copyMatching(withTag).status == errSecNoSuchAttr)
            let inetWithService: [String: Any] = [kSecClass as String: kSecClassInternetPassword, kSecAttrService as String: "s"]
            #expect(copyMatching(inetWithService).status == errSecNoSuchAttr)
        }

        @Test("22. kSecValueData as a String is errSecParam, on add and on update")
        func dataAsString() {
            #expect(add(.itemA.with([kSecValueData as String: "pw"])).status == errSecParam)
            #expect(add(.itemA).status == errSecSuccess)
            #expect(update(.queryQ, [kSecValueData as String: "pw2"]) == errSecParam)
            #expect(copyMatching(.queryQ.with([kSecReturnData as String: true])).data == "pw".utf8Data)
        }

        @Test("23. A return key given the number 1 instead of a boolean is errSecParam")
        func returnKeyAsNumber() {
            #expect(add(.itemA).status == errSecSuccess)
            let found = copyMatching(.queryQ.with([kSecReturnData as String: NSNumber(value: 1)]))
            #expect(found.status == errSecParam)
            #expect(found.object == nil)
            #expect(copyMatching(.queryQ.with([kSecReturnData as String: 1])).status == errSecParam)
            #expect(copyMatching(.queryQ.with([kSecReturnData as String: true])).status == errSecSuccess)
        }

        @Test("24. Unknown keys are errSecParam")
        func unknownKeys() {
            #expect(add(.itemA).status == errSecSuccess)
            for key in ["u_Foo", "r_Foo", "zz_key"] {
                #expect(copyMatching(.queryQ.with([key: true])).status == errSecParam, "\(key)")
            }
        }

        @Test("25. An unknown accessibility value is errSecParam")
        func unknownAccessibility() {
            #expect(add(.itemA.with([kSecAttrAccessible as String: "xx"])).status == errSecParam)
            #expect(copyMatching(.queryQ).status == errSecItemNotFound)
        }
    }
}

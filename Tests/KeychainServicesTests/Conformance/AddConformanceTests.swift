import Foundation
import KeychainServices
import Testing

extension DefaultStoreTests {
    /// Reference §6, the cases about `SecItemAdd`: duplicates and the primary key, return
    /// keys on add, defaults.
    @Suite("Reference §6: SecItemAdd") struct AddConformance {
        let keychain: KeychainFixture
        init() throws { keychain = try KeychainFixture() }

        @Test("1. Add A returns no object; adding A again is errSecDuplicateItem")
        func addThenDuplicate() {
            let first = add(.itemA)
            #expect(first.status == errSecSuccess)
            #expect(first.object == nil)
            let second = add(.itemA)
            #expect(second.status == errSecDuplicateItem)
            #expect(second.object == nil)
        }

        @Test("2. Attributes outside the primary key do not make a new item")
        func nonPrimaryKeyAttributesCollide() {
            #expect(add(.itemA).status == errSecSuccess)
            let variations: [(CFString, Any)] = [
                (kSecAttrLabel, "other label"), (kSecAttrGeneric, "other".utf8Data),
                (kSecAttrDescription, "other description"), (kSecAttrAccessible, kSecAttrAccessibleAfterFirstUnlock),
            ]
            for (key, value) in variations {
                #expect(add(.itemA.with([key as String: value])).status == errSecDuplicateItem, "\(key)")
            }
        }

        @Test("3. Another account is another item")
        func otherAccountIsNewItem() {
            #expect(add(.itemA).status == errSecSuccess)
            let other: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "s",
                                        kSecAttrAccount as String: "b"]
            #expect(add(other).status == errSecSuccess)
        }

        @Test("4. The access group is part of the primary key")
        func accessGroupIsPrimaryKey() {
            #expect(add(.itemA).status == errSecSuccess)
            #expect(add(.itemA.with([kSecAttrAccessGroup as String: KeychainFixture.g2])).status == errSecSuccess)
        }

        @Test("5. sync is part of the primary key; queries see synchronizable items only when asked")
        func synchronizableIsPrimaryKey() throws {
            #expect(add(.itemA).status == errSecSuccess)
            #expect(add(.itemA.with([kSecAttrSynchronizable as String: kCFBooleanTrue!])).status == errSecSuccess)
            let query = [String: Any].queryQ.with([kSecReturnAttributes as String: true,
                                                   kSecMatchLimit as String: kSecMatchLimitAll])
            let plain = copyMatching(query)
            #expect(plain.status == errSecSuccess)
            let plainItems = try #require(plain.dictionaries)
            #expect(plainItems.count == 1)
            #expect(plainItems.first?[kSecAttrSynchronizable as String] as? Int == 0)
            let any = copyMatching(query.with([kSecAttrSynchronizable as String: kSecAttrSynchronizableAny]))
            #expect(any.status == errSecSuccess)
            let anyItems = try #require(any.dictionaries)
            #expect(anyItems.count == 2)
            #expect(Set(anyItems.compactMap { $0[kSecAttrSynchronizable as String] as? Int }) == [0, 1])
        }

        @Test("6. An omitted account is the empty account: adding twice collides")
        func omittedAccountCollides() throws {
            let serviceOnly: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "s"]
            #expect(add(serviceOnly).status == errSecSuccess)
            #expect(add(serviceOnly).status == errSecDuplicateItem)
            let found = copyMatching(serviceOnly.with([kSecReturnAttributes as String: true]))
            #expect(try #require(found.dictionary)[kSecAttrAccount as String] as? String == "")
        }

        @Test("16. Return keys on add: attributes give a dictionary, data alone gives the secret")
        func returnKeysOnAdd() throws {
            let withAttributes = add(.itemA.with([kSecReturnAttributes as String: true]))
            #expect(withAttributes.status == errSecSuccess)
            let attributes = try #require(withAttributes.dictionary)
            #expect(attributes[kSecAttrAccount as String] as? String == "a")
            #expect(attributes[kSecAttrService as String] as? String == "s")
            #expect(attributes[kSecValueData as String] == nil)
            #expect(attributes[kSecClass as String] == nil)

            let withData = add(.itemA.with([kSecAttrAccount as String: "b", kSecReturnData as String: true]))
            #expect(withData.status == errSecSuccess)
            #expect(withData.object is NSData)
            #expect(withData.data == "pw".utf8Data)
        }

        @Test("17. kSecReturnRef on a password returns success and no object, on add and on copy")
        func returnRefGivesNoObject() {
            let added = add(.itemA.with([kSecReturnRef as String: true]))
            #expect(added.status == errSecSuccess)
            #expect(added.object == nil)
            let found = copyMatching(.queryQ.with([kSecReturnRef as String: true]))
            #expect(found.status == errSecSuccess)
            #expect(found.object == nil)
        }

        @Test("18. An item added without kSecValueData returns empty data")
        func itemWithoutData() {
            let noData: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "t"]
            #expect(add(noData).status == errSecSuccess)
            let found = copyMatching(noData.with([kSecReturnData as String: true]))
            #expect(found.status == errSecSuccess)
            #expect(found.object is NSData)
            #expect(found.data == Data())
        }

        @Test("49. WhenPasscodeSetThisDeviceOnly on a store without a passphrase is errSecAuthFailed")
        func passcodeOnlyWithoutPassphrase() {
            let result = add(.itemA.with([kSecAttrAccessible as String: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly]))
            #expect(result.status == errSecAuthFailed)
            #expect(result.object == nil)
            #expect(copyMatching(.queryQ).status == errSecItemNotFound)
        }

        @Test("50. A creation date given to an add is replaced by the time of the add")
        func suppliedCreationDateIgnored() throws {
            let before = Date()
            let ancient = Date(timeIntervalSinceReferenceDate: 0)
            let result = add(.itemA.with([kSecAttrCreationDate as String: ancient, kSecReturnAttributes as String: true]))
            #expect(result.status == errSecSuccess)
            let attributes = try #require(result.dictionary)
            let created = try #require(attributes[kSecAttrCreationDate as String] as? Date)
            #expect(created >= before.addingTimeInterval(-1))
            #expect(created <= Date())
            #expect(attributes[kSecAttrModificationDate as String] as? Date == created)
        }

        @Test("54. An add carrying kSecMatchLimit ignores it and stores the item (macOS behaviour, by decision)")
        func addIgnoresMatchKeys() {
            let addition = [String: Any].queryQ.with([kSecMatchLimit as String: kSecMatchLimitOne,
                                                      kSecValueData as String: "pw".utf8Data])
            #expect(add(addition).status == errSecSuccess)
            let found = copyMatching(.queryQ.with([kSecReturnData as String: true]))
            #expect(found.status == errSecSuccess)
            #expect(found.data == "pw".utf8Data)
        }
    }
}

import Foundation
import KeychainServices
import Testing

extension DefaultStoreTests {
    /// Reference §6, the cases about `SecItemUpdate`.
    @Suite("Reference §6: SecItemUpdate") struct UpdateConformance {
        let keychain: KeychainFixture
        init() throws { keychain = try KeychainFixture() }

        func attributes(_ query: [String: Any]) throws -> [String: Any] {
            try #require(copyMatching(query.with([kSecReturnAttributes as String: true])).dictionary)
        }

        @Test("26. Updating the secret: new data, later mdat, same cdat")
        func updateData() throws {
            #expect(add(.itemA).status == errSecSuccess)
            let before = try attributes(.queryQ)
            #expect(update(.queryQ, [kSecValueData as String: "pw2".utf8Data]) == errSecSuccess)
            #expect(copyMatching(.queryQ.with([kSecReturnData as String: true])).data == "pw2".utf8Data)
            let after = try attributes(.queryQ)
            let createdBefore = try #require(before[kSecAttrCreationDate as String] as? Date)
            let modifiedBefore = try #require(before[kSecAttrModificationDate as String] as? Date)
            #expect(after[kSecAttrCreationDate as String] as? Date == createdBefore)
            #expect(try #require(after[kSecAttrModificationDate as String] as? Date) > modifiedBefore)
        }

        @Test("27. Updating when nothing matches is errSecItemNotFound")
        func updateNothing() {
            #expect(update(.queryQ, [kSecValueData as String: "pw2".utf8Data]) == errSecItemNotFound)
        }

        @Test("28. An update that would duplicate a primary key is errSecDuplicateItem and changes nothing")
        func updateCollision() {
            #expect(add(.itemA).status == errSecSuccess)
            #expect(add(.itemA.with([kSecAttrAccount as String: "b", kSecValueData as String: "b".utf8Data])).status == errSecSuccess)
            let status = update(.queryQ, [kSecAttrAccount as String: "b", kSecValueData as String: "changed".utf8Data])
            #expect(status == errSecDuplicateItem)
            #expect(copyMatching(.queryQ.with([kSecReturnData as String: true])).data == "pw".utf8Data)
            let b = [String: Any].queryQ.with([kSecAttrAccount as String: "b", kSecReturnData as String: true])
            #expect(copyMatching(b).data == "b".utf8Data)
        }

        @Test("29. Changing the account moves the item")
        func moveItem() {
            #expect(add(.itemA).status == errSecSuccess)
            #expect(update(.queryQ, [kSecAttrAccount as String: "c"]) == errSecSuccess)
            #expect(copyMatching(.queryQ).status == errSecItemNotFound)
            let moved = copyMatching(.queryQ.with([kSecAttrAccount as String: "c", kSecReturnData as String: true]))
            #expect(moved.status == errSecSuccess)
            #expect(moved.data == "pw".utf8Data)
            #expect(update(.queryQ, [kSecAttrAccount as String: "c"]) == errSecItemNotFound)
        }

        @Test("30. Return keys in an update's query are ignored, as on macOS: the update happens and returns nothing")
        func returnKeysInUpdate() {
            #expect(add(.itemA).status == errSecSuccess)
            for (index, key) in [kSecReturnAttributes, kSecReturnData, kSecReturnRef, kSecReturnPersistentRef].enumerated() {
                #expect(update(.queryQ.with([key as String: true]), [kSecAttrLabel as String: "l\(index)"]) == errSecSuccess, "\(key)")
                let label = copyMatching(.queryQ.with([kSecReturnAttributes as String: true])).dictionary?[kSecAttrLabel as String]
                #expect(label as? String == "l\(index)", "\(key)")
            }
        }

        @Test("31. kSecMatchLimit in an update's query is ignored, as on macOS: every match changes", arguments: ["one", "all"])
        func limitInUpdate(limitName: String) {
            let limit = limitName == "one" ? kSecMatchLimitOne : kSecMatchLimitAll
            for account in ["a", "b", "c"] {
                #expect(add(.itemA.with([kSecAttrAccount as String: account])).status == errSecSuccess)
            }
            let service: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "s"]
            #expect(update(service.with([kSecMatchLimit as String: limit]), [kSecValueData as String: "new".utf8Data]) == errSecSuccess)
            for account in ["a", "b", "c"] {
                let read = copyMatching(service.with([kSecAttrAccount as String: account, kSecReturnData as String: true]))
                #expect(read.data == "new".utf8Data, "\(account)")
            }
            // A malformed limit is still a bad parameter, and changes nothing.
            #expect(update(service.with([kSecMatchLimit as String: "lots"]), [kSecValueData as String: "x".utf8Data]) == errSecParam)
            #expect(copyMatching(.queryQ.with([kSecReturnData as String: true])).data == "new".utf8Data)
        }

        @Test("31b. A filtering match key keeps its meaning in an update: only what it names changes")
        func caseInsensitiveFilterInUpdate() {
            #expect(add(.itemA.with([kSecAttrAccount as String: "Alice"])).status == errSecSuccess)
            #expect(add(.itemA.with([kSecAttrAccount as String: "bob"])).status == errSecSuccess)
            let alice: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "s",
                                        kSecAttrAccount as String: "alice", kSecMatchCaseInsensitive as String: true]
            #expect(update(alice, [kSecValueData as String: "new".utf8Data]) == errSecSuccess)
            let bob = copyMatching(.queryQ.with([kSecAttrAccount as String: "bob", kSecReturnData as String: true]))
            #expect(bob.data == "pw".utf8Data)
        }

        @Test("32. kSecClass or a return key among the attributes to update is errSecNoSuchAttr")
        func forbiddenKeysInChanges() {
            #expect(add(.itemA).status == errSecSuccess)
            #expect(update(.queryQ, [kSecClass as String: kSecClassGenericPassword]) == errSecNoSuchAttr)
            #expect(update(.queryQ, [kSecReturnData as String: true]) == errSecNoSuchAttr)
        }

        @Test("33. Moving an item to a group the process is not entitled to is errSecMissingEntitlement")
        func updateToForeignGroup() throws {
            #expect(add(.itemA).status == errSecSuccess)
            #expect(update(.queryQ, [kSecAttrAccessGroup as String: "NotMine"]) == errSecMissingEntitlement)
            #expect(try attributes(.queryQ)[kSecAttrAccessGroup as String] as? String == KeychainFixture.g1)
        }
    }
}

import Foundation
import KeychainServices
import SecStore
import Synchronization
import Testing

extension DefaultStoreTests {
    /// The SecItem functions may be called from many threads at once, as on Apple systems.
    @Suite("Concurrency") struct ConcurrencyTests {
        let keychain: KeychainFixture
        init() throws { keychain = try KeychainFixture() }

        @Test("Concurrent first calls open one store, and every call succeeds")
        func concurrentFirstUse() throws {
            let statuses = Mutex<[OSStatus]>([])
            DispatchQueue.concurrentPerform(iterations: 16) { index in
                let status = SecItemAdd([String: Any].itemA.with([kSecAttrAccount as String: "thread-\(index)"]) as CFDictionary, nil)
                statuses.withLock { $0.append(status) }
            }
            #expect(statuses.withLock { $0 } == Array(repeating: errSecSuccess, count: 16))
            let all = copyMatching([kSecClass as String: kSecClassGenericPassword, kSecMatchLimit as String: kSecMatchLimitAll,
                                    kSecReturnAttributes as String: true])
            #expect(all.dictionaries?.count == 16)
        }

        @Test("Adds, reads, updates and deletes from many threads keep every item consistent")
        func mixedWorkload() throws {
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { worker in
                for round in 0..<10 {
                    let account = "w\(worker)-\(round)"
                    let item = [String: Any].itemA.with([kSecAttrAccount as String: account,
                                                         kSecValueData as String: Data(account.utf8)])
                    let query = [String: Any].queryQ.with([kSecAttrAccount as String: account])
                    var outcome: [String] = []
                    if SecItemAdd(item as CFDictionary, nil) != errSecSuccess { outcome.append("add \(account)") }
                    var result: CFTypeRef?
                    let read = SecItemCopyMatching(query.with([kSecReturnData as String: true]) as CFDictionary, &result)
                    if read != errSecSuccess || result as? Data != Data(account.utf8) { outcome.append("read \(account)") }
                    let changes = [kSecValueData as String: Data("updated".utf8)] as CFDictionary
                    if SecItemUpdate(query as CFDictionary, changes) != errSecSuccess { outcome.append("update \(account)") }
                    if round.isMultiple(of: 2), SecItemDelete(query as CFDictionary) != errSecSuccess {
                        outcome.append("delete \(account)")
                    }
                    if !outcome.isEmpty { failures.withLock { $0 += outcome } }
                }
            }
            #expect(failures.withLock { $0 } == [])
            let remaining = copyMatching([kSecClass as String: kSecClassGenericPassword, kSecMatchLimit as String: kSecMatchLimitAll,
                                          kSecReturnData as String: true])
            #expect(remaining.dataArray == Array(repeating: "updated".utf8Data, count: 40))
        }

        @Test("Racing adds of one item: exactly one succeeds, the others see errSecDuplicateItem")
        func racingAdds() {
            let statuses = Mutex<[OSStatus]>([])
            DispatchQueue.concurrentPerform(iterations: 12) { _ in
                let status = SecItemAdd([String: Any].itemA as CFDictionary, nil)
                statuses.withLock { $0.append(status) }
            }
            let all = statuses.withLock { $0 }
            #expect(all.filter { $0 == errSecSuccess }.count == 1)
            #expect(all.filter { $0 == errSecDuplicateItem }.count == 11)
        }
    }
}

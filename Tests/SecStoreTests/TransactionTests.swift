import Foundation
import Testing
import SecStore

/// `store.write { }`: several operations in one transaction, all or nothing.
@Suite struct TransactionTests {
    struct Abort: Error {}

    /// A throw inside the closure rolls back every add, update and delete made in it.
    @Test(arguments: Handle.allCases)
    func throwRollsBackEverything(handle: Handle) throws {
        let harness = try StoreHarness()
        try harness.store.add(Sample.a())
        try harness.store.add(.genericPassword(service: "s", account: "b", data: "pw-b".utf8Data))
        let before = try UpdateDeleteTests.snapshot(harness.store)

        #expect(throws: Abort.self) {
            try harness.store.write { transaction in
                for index in 0..<30 {
                    try transaction.add(.genericPassword(service: "bulk", account: "\(index)", data: Data([UInt8(index)])))
                }
                try transaction.update(matching: Sample.q(), with: ItemChanges(attributes: [.label: "changed"], data: "new".utf8Data))
                try transaction.delete(matching: Query(service: "s", account: "b"))
                // The transaction sees its own writes.
                #expect(try transaction.items(matching: Sample.genp([.service: "bulk"])).count == 30)
                #expect(try transaction.items(matching: Sample.q(returning: .data)).first?.data == "new".utf8Data)
                throw Abort()
            }
        }
        try harness.settle(handle)
        #expect(try UpdateDeleteTests.snapshot(harness.store) == before)
        #expect(try harness.store.count(Sample.genp([.service: "bulk"])) == 0)
        #expect(try RawStoreFile(url: harness.directory.storeURL).items().count == 2)
    }

    /// An engine error inside the closure (a duplicate) also undoes the earlier operations.
    @Test func failingOperationRollsBackEarlierOnes() throws {
        let harness = try StoreHarness()
        let error = expectError(.duplicateItem) {
            try harness.store.write { transaction in
                try transaction.add(.genericPassword(service: "bulk", account: "first"))
                try transaction.add(Sample.a())
                try transaction.add(Sample.a())
            }
        }
        #expect(error?.status == OSStatusValue.duplicateItem)
        #expect(try harness.store.count(Sample.genp([:])) == 0)
    }

    /// A committed transaction keeps everything, and its result is returned.
    @Test(arguments: Handle.allCases)
    func commitKeepsEverything(handle: Handle) throws {
        let harness = try StoreHarness()
        let added = try harness.store.write { transaction in
            try (0..<200).map { index in
                try transaction.add(.genericPassword(service: "bulk", account: "\(index)", data: Data("secret \(index)".utf8)),
                                    returning: .persistentReference)
            }
        }
        #expect(Set(added.compactMap(\.persistentReference)).count == 200)
        try harness.settle(handle)
        let found = try harness.store.items(matching: Sample.genp([.service: "bulk"], returning: [.attributes, .data]))
        #expect(found.count == 200)
        #expect(found.allSatisfy { $0.data == Data("secret \($0.attributes.account!)".utf8) })
    }

    /// Other readers do not see a transaction's writes before it commits.
    @Test func uncommittedWritesAreInvisibleToOtherReaders() throws {
        let harness = try StoreHarness()
        let store: SecretStore = harness.store
        try store.write { transaction in
            try transaction.add(Sample.a())
            let seen = ReadOnAnotherThread { try store.count(Sample.q()) }
            #expect(try seen.result.get() == 0)
        }
        #expect(try store.count(Sample.q()) == 1)
    }

    /// A store method that writes, called inside the closure of the same store's `write` on
    /// the closure's thread: each would need the writer connection the transaction holds.
    enum NestedWrite: String, CaseIterable, CustomTestStringConvertible {
        case add, update, delete, write, setPassphrase
        var testDescription: String { rawValue }

        func run(on store: SecretStore) throws {
            switch self {
            case .add: try store.add(.genericPassword(service: "s", account: "nested", accessGroup: TestEntitlements.g1))
            case .update: try store.update(matching: Sample.q(), with: ItemChanges(data: "changed".utf8Data))
            case .delete: try store.delete(matching: Sample.q())
            case .write: _ = try store.write { try $0.add(.genericPassword(service: "s", account: "nested", accessGroup: TestEntitlements.g1)) }
            case .setPassphrase: try store.setPassphrase("nested", limits: .minimumForTesting)
            }
        }
    }

    /// Swift's `Mutex` is not recursive: before the writer knew its holder, such a call stopped
    /// the process ("Recursive call to lock Mutex"). It is refused instead, the transaction goes
    /// on, and what it wrote commits.
    @Test(arguments: NestedWrite.allCases)
    func storeWriteInsideItsOwnTransactionIsRefused(_ nested: NestedWrite) throws {
        // Owner access, which setting the passphrase needs (docs/access-groups.md).
        let harness = try StoreHarness(access: .owner)
        let store: SecretStore = harness.store
        try store.add(Sample.a(accessGroup: TestEntitlements.g1))
        let error = try store.write { transaction in
            try transaction.add(.genericPassword(service: "s", account: "outer", accessGroup: TestEntitlements.g1))
            return expectError(.invalidParameter) { try nested.run(on: store) }
        }
        #expect(error?.message.contains("transaction") == true)
        #expect(try store.count(Sample.genp([.account: "outer"])) == 1)
        #expect(try store.count(Sample.genp([.account: "nested"])) == 0)
        #expect(try store.items(matching: Sample.q(returning: .data)).first?.data == Sample.a().data)
        // The writer is free again afterwards, for the store's own methods as before.
        try nested.run(on: store)
    }

    /// A transaction kept past its closure, or handed to another thread while the closure runs:
    /// its connection is the writer's, used only by the closure's thread. GRDB stopped the
    /// process there ("Database was not used on the correct thread"); the transaction's
    /// methods now throw `invalidParameter`, and nothing is written through it.
    @Test func transactionUsedOutsideItsClosureIsRefused() throws {
        let harness = try StoreHarness()
        let store: SecretStore = harness.store
        var kept: StoreTransaction?
        let fromAnotherThread = try store.write { transaction in
            kept = transaction
            try transaction.add(.genericPassword(service: "s", account: "inside"))
            nonisolated(unsafe) let handedOver = transaction
            return ReadOnAnotherThread { try handedOver.add(.genericPassword(service: "s", account: "other thread")) }.result
        }
        #expect(throws: SecStoreError.self) { try fromAnotherThread.get() }
        if case .failure(let error as SecStoreError) = fromAnotherThread { #expect(error.code == .invalidParameter) }
        let transaction = try #require(kept)
        let error = expectError(.invalidParameter) { try transaction.add(.genericPassword(service: "s", account: "after")) }
        #expect(error?.message.contains("outside the closure") == true)
        expectError(.invalidParameter) { try transaction.items(matching: Query(service: "s", account: "inside")) }
        expectError(.invalidParameter) { try transaction.delete(matching: Query(service: "s", account: "inside")) }
        #expect(try store.items(matching: Sample.genp([.service: "s"])).compactMap(\.attributes.account) == ["inside"])
    }

    /// Another handle on the same file is another connection: from inside the closure its
    /// write waits for the transaction's SQLite lock and gives up after its busy timeout.
    @Test func anotherHandlesWriteInsideATransactionTimesOut() throws {
        let directory = TemporaryDirectory()
        let store = try directory.openStore()
        let other = try SecretStore(at: directory.storeURL, options: .init(access: .entitled(TestEntitlements.app),
                                                                           deviceKeyURL: directory.deviceKeyURL, busyTimeout: 0.2))
        try store.write { transaction in
            try transaction.add(.genericPassword(service: "s", account: "outer"))
            expectError(.storeBusy) { try other.add(.genericPassword(service: "s", account: "other")) }
        }
        #expect(try other.items(matching: Query(service: "s", account: "outer")).count == 1)
        #expect(throws: SecStoreError.self) { try other.items(matching: Query(service: "s", account: "other")) }
    }
}

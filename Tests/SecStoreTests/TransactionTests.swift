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
}

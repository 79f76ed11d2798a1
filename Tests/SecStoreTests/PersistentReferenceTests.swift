import Foundation
import Testing
import SecStore

/// Persistent references (reference §4.7; §6 cases 14, 37, 51).
@Suite struct PersistentReferenceTests {
    /// A reference survives updates of the secret, of non-key and of key attributes, and
    /// reopening the store.
    @Test(arguments: Handle.allCases)
    func referenceIsStableAcrossUpdates(handle: Handle) throws {
        let harness = try StoreHarness()
        let reference = try #require(try harness.store.add(Sample.a(), returning: .persistentReference).persistentReference)
        try harness.store.update(matching: Sample.q(), with: ItemChanges(data: "pw2".utf8Data))
        try harness.store.update(matching: Sample.q(), with: ItemChanges(attributes: [.label: "L", .accessible: "dk"]))
        try harness.store.update(matching: Sample.q(), with: ItemChanges(attributes: [.account: "moved"]))
        try harness.settle(handle)

        let byQuery = try harness.store.items(matching: Query(service: "s", account: "moved", returning: .persistentReference))
        #expect(byQuery.first?.persistentReference == reference)
        let byReference = try #require(try harness.store.items(matching: Query(persistentReference: reference, returning: [.attributes, .data])).first)
        #expect(byReference.data == "pw2".utf8Data)
        #expect(byReference.attributes.account == "moved")
        #expect(byReference.attributes.label == "L")
    }

    /// §6.14: a lookup by reference needs no class, for either class.
    @Test func lookupWithoutClass() throws {
        let harness = try StoreHarness()
        let genp = try #require(try harness.store.add(Sample.a(), returning: .persistentReference).persistentReference)
        let inet = try #require(try harness.store.add(Sample.i(), returning: .persistentReference).persistentReference)
        #expect(inet.data.prefix(4) == "inet".utf8Data)
        #expect(genp != inet)
        for (reference, itemClass) in [(genp, ItemClass.genericPassword), (inet, .internetPassword)] {
            let found = try harness.store.items(matching: Query(itemClass: nil, persistentReference: reference, returning: [.attributes, .data]))
            #expect(found.count == 1)
            #expect(found.first?.itemClass == itemClass)
            #expect(found.first?.data == "pw".utf8Data)
        }
    }

    /// §4.7, §6.37: a reference to a deleted item is errSecItemNotFound; delete by reference.
    @Test(arguments: Handle.allCases)
    func staleReferenceIsItemNotFound(handle: Handle) throws {
        let harness = try StoreHarness()
        let reference = try #require(try harness.store.add(Sample.a(), returning: .persistentReference).persistentReference)
        try harness.store.add(.genericPassword(service: "s", account: "b"))
        #expect(try harness.store.delete(matching: Query(persistentReference: reference)) == 1)
        try harness.settle(handle)
        expectError(.itemNotFound) { try harness.store.items(matching: Query(persistentReference: reference, returning: .data)) }
        expectError(.itemNotFound) { try harness.store.delete(matching: Query(persistentReference: reference)) }
        expectError(.itemNotFound) { try harness.store.update(matching: Query(persistentReference: reference), with: ItemChanges(data: Data([1]))) }
        #expect(try harness.store.count(Sample.genp([:])) == 1)
    }

    /// A reference's row id can be reused after a delete; the reference must still find
    /// nothing, and must not touch the new item that now has that row id.
    @Test func referenceToDeletedItemDoesNotReachTheItemReusingItsRowID() throws {
        let harness = try StoreHarness()
        let old = try #require(try harness.store.add(Sample.a(), returning: .persistentReference).persistentReference)
        try harness.store.delete(matching: Query(persistentReference: old))
        let new = try #require(try harness.store.add(.genericPassword(service: "s", account: "reuser", data: Data("new".utf8)),
                                                     returning: .persistentReference).persistentReference)
        #expect(Array(new.data.dropFirst(4).prefix(8)) == Array(old.data.dropFirst(4).prefix(8)), "the row id is reused")
        #expect(new != old)
        expectError(.itemNotFound) { try harness.store.items(matching: Query(persistentReference: old, returning: .data)) }
        expectError(.itemNotFound) { try harness.store.update(matching: Query(persistentReference: old), with: ItemChanges(data: Data([1]))) }
        expectError(.itemNotFound) { try harness.store.delete(matching: Query(persistentReference: old)) }
        #expect(try harness.store.items(matching: Query(persistentReference: new, returning: .data)).first?.data == Data("new".utf8))
    }

    /// §4.7: a lookup by reference skips the default sync filter.
    @Test func referenceFindsSynchronizableItems() throws {
        let harness = try StoreHarness()
        let reference = try #require(try harness.store.add(Sample.a(synchronizable: true), returning: .persistentReference).persistentReference)
        let found = try harness.store.items(matching: Query(persistentReference: reference, returning: .data))
        #expect(found.map(\.data) == ["pw".utf8Data])
    }

    /// §6.51: a search may not combine a reference with attributes; §4.4: a reference whose
    /// class contradicts the query's class is errSecNoSuchClass; §4.5: delete ANDs them.
    @Test func referenceCombinedWithOtherFilters() throws {
        let harness = try StoreHarness()
        let reference = try #require(try harness.store.add(Sample.a(), returning: .persistentReference).persistentReference)
        let combined = Query(itemClass: .genericPassword, attributes: [.account: "a"], persistentReference: reference)
        let error = expectError(.invalidParameter) { try harness.store.items(matching: combined) }
        #expect(error?.status == OSStatusValue.param)
        let wrongClass = Query(itemClass: .internetPassword, persistentReference: reference)
        let classError = expectError(.noSuchClass) { try harness.store.items(matching: wrongClass) }
        #expect(classError?.status == OSStatusValue.noSuchClass)

        let mismatched = Query(itemClass: .genericPassword, attributes: [.account: "b"], persistentReference: reference)
        expectError(.itemNotFound) { try harness.store.delete(matching: mismatched) }
        #expect(try harness.store.delete(matching: combined) == 1)
    }

    /// The 20-byte form round-trips, and malformed bytes are no reference.
    @Test func dataRoundTrip() throws {
        let harness = try StoreHarness()
        let reference = try #require(try harness.store.add(Sample.a(), returning: .persistentReference).persistentReference)
        #expect(PersistentReference(data: reference.data) == reference)
        #expect(PersistentReference(hexString: reference.hexString) == reference)
        #expect(PersistentReference(data: reference.data.dropLast()) == nil)
        #expect(PersistentReference(data: "nope".utf8Data + reference.data.dropFirst(4)) == nil)
    }
}

import Foundation
import Testing
import SecStore

/// Creation and modification dates (reference §3 "Dates"; §6 cases 12, 26, 50).
@Suite struct DateTests {
    /// §6.12: an add sets cdat and mdat to the same "now".
    @Test func addSetsCreationEqualToModification() throws {
        let harness = try StoreHarness()
        let before = Date()
        let added = try harness.store.add(Sample.a(), returning: .attributes)
        let after = Date()
        let created = try #require(added.attributes.creationDate)
        #expect(added.attributes.modificationDate == created)
        #expect(created >= before && created <= after)
    }

    /// §6.50: dates the caller gives on add are ignored.
    @Test(arguments: Handle.allCases)
    func callerSuppliedDatesAreIgnoredOnAdd(handle: Handle) throws {
        let harness = try StoreHarness()
        let ancient = Date(timeIntervalSinceReferenceDate: 0)
        var item = Sample.a()
        item.attributes[.creationDate] = .date(ancient)
        item.attributes[.modificationDate] = .date(ancient)
        let before = Date()
        try harness.store.add(item)
        try harness.settle(handle)
        let found = try #require(try harness.store.items(matching: Sample.q()).first)
        let created = try #require(found.attributes.creationDate)
        #expect(created >= before)
        #expect(found.attributes.modificationDate == created)
    }

    /// §6.26: update moves mdat strictly forward and keeps cdat, even when the caller
    /// tries to set them, and even for updates in quick succession.
    @Test(arguments: Handle.allCases)
    func updateBumpsModificationAndKeepsCreation(handle: Handle) throws {
        let harness = try StoreHarness()
        let added = try harness.store.add(Sample.a(), returning: .attributes)
        let created = try #require(added.attributes.creationDate)
        var previous = created
        for round in 0..<3 {
            let changes: Attributes = [.label: .string("round \(round)"), .creationDate: .date(.distantFuture),
                                       .modificationDate: .date(.distantPast)]
            try harness.store.update(matching: Sample.q(), with: ItemChanges(attributes: changes, data: Data([UInt8(round)])))
            try harness.settle(handle)
            let found = try #require(try harness.store.items(matching: Sample.q()).first)
            #expect(found.attributes.creationDate == created)
            let modified = try #require(found.attributes.modificationDate)
            #expect(modified > previous)
            #expect(modified < Date.distantFuture)
            previous = modified
        }
    }

    /// §4.4: an update with no changes is accepted and only bumps mdat.
    @Test func emptyUpdateOnlyBumpsModification() throws {
        let harness = try StoreHarness()
        let added = try #require(try harness.store.add(Sample.a(), returning: [.attributes]).attributes.modificationDate)
        #expect(try harness.store.update(matching: Sample.q(), with: ItemChanges()) == 1)
        let found = try #require(try harness.store.items(matching: Sample.q(returning: [.attributes, .data])).first)
        #expect(try #require(found.attributes.modificationDate) > added)
        #expect(found.data == "pw".utf8Data)
        #expect(ReturnShapeTests.withoutDates(found.attributes).count == 5)
    }
}

/// A sync version's microseconds, from a date: a store written before `StorableDates` may hold
/// one far outside 1970–9999, which stopped the program in the conversion (found by a helper
/// session's audit).
@Suite struct SyncVersionDateTests {
    @Test(arguments: [
        (1_700_000_000.000_001, Int64(1_700_000_000_000_001)),
        (1e300, Int64.max),
        (-1e300, Int64.min),
        (.infinity, Int64.max),
        (.nan, Int64.min),
    ] as [(Double, Int64)])
    func microsecondsNeverStopTheProgram(_ seconds: Double, _ expected: Int64) {
        #expect(SyncVersion.microseconds(Date(timeIntervalSince1970: seconds)) == expected)
    }

    @Test func storableDatesAreNineteenSeventyToNineNineNineNine() {
        #expect(StorableDates.contains(Date(timeIntervalSince1970: 0)))
        #expect(StorableDates.contains(Date(timeIntervalSince1970: 253_402_300_799)))
        #expect(!StorableDates.contains(Date(timeIntervalSince1970: 253_402_300_800)))
        #expect(!StorableDates.contains(Date(timeIntervalSince1970: -1)))
        #expect(!StorableDates.contains(Date(timeIntervalSince1970: .nan)))
    }
}

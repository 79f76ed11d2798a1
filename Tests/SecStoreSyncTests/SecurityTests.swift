import Foundation
import Testing
import SecStore
import SecStoreTestSupport
import Etcd
@testable import SecStoreSync

/// What etcd's operator sees, and what a record changed in etcd does to the devices.
@Suite struct SecurityTests {
    @Test func etcdHoldsNoSecretAndNoAttributeValue() async throws {
        let circle = try await TestCircle.make(2, on: try await SharedCluster.cluster)
        let a = circle.devices[0]
        var attributes: Attributes = [.service: "svc-needle-7391", .account: "acct-needle-4410",
                                      .accessGroup: .string(SyncDevice.group), .label: "label-needle-1187"]
        attributes.isSynchronizable = true
        attributes.custom = ["custom-name-needle": "custom-value-needle-5532"]
        try a.store.add(Item(itemClass: .genericPassword, attributes: attributes, data: Data("secret-needle-9026".utf8)))
        try await circle.converge()
        #expect(try circle.devices[1].contents()["svc-needle-7391/acct-needle-4410"] == "secret-needle-9026")
        let needles = ["secret-needle", "svc-needle", "acct-needle", "label-needle", "custom-name-needle", "custom-value-needle",
                       SyncDevice.group, "com.example"]
        let everything = try await circle.etcdContents()
        #expect(!everything.isEmpty)
        for (key, value) in everything {
            for needle in needles {
                #expect(!Self.contains(key, needle) && !Self.contains(value, needle), "\(needle) in etcd at \(String(decoding: key, as: UTF8.self))")
            }
        }
    }

    static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let bytes = Array(needle.utf8)
        guard haystack.count >= bytes.count else { return false }
        return (0...(haystack.count - bytes.count)).contains { Array(haystack[$0..<$0 + bytes.count]) == bytes }
    }

    /// Records flipped, moved, replayed or written without the circle key are refused on
    /// every device and never change an item.
    @Test func alteredMovedReplayedAndForeignRecordsAreRefusedEverywhere() async throws {
        let cluster = try await SharedCluster.cluster
        let circle = try await TestCircle.make(3, on: cluster)
        let (a, b, c) = (circle.devices[0], circle.devices[1], circle.devices[2])
        try a.add("target", "v1")
        try a.add("other", "o1")
        try a.add("third", "t1")
        try await circle.converge()
        let client = try EtcdClient(endpoints: cluster.clientURLs)
        let records = try await client.range(prefix: Array("\(circle.prefix)/rec/".utf8)).keyValues
        #expect(records.count == 3)
        let oldValues = Dictionary(uniqueKeysWithValues: records.map { ($0.key, $0.value) })
        try a.update("target", "v2")
        try a.update("other", "o2")
        try await circle.converge()
        let expected = ["api/target": "v2", "api/other": "o2", "api/third": "t1"]

        var changed: [[UInt8]] = [], unchanged: [[UInt8]] = []
        for record in records {
            let now = try await client.range(key: record.key).keyValues[0].value
            if now == oldValues[record.key] { unchanged.append(record.key) } else { changed.append(record.key) }
        }
        #expect(changed.count == 2 && unchanged.count == 1)
        // Flipped: one bit of the sealed part.
        var flipped = try await client.range(key: unchanged[0]).keyValues[0].value
        flipped[flipped.count - 20] ^= 0x01
        _ = try await client.put(key: unchanged[0], value: flipped)
        // Moved: one record's value put at another's key.
        _ = try await client.put(key: changed[1], value: oldValues[unchanged[0]]!)
        // Replayed: the older version of a record, back at its own key.
        _ = try await client.put(key: changed[0], value: oldValues[changed[0]]!)
        // Injected: a record sealed by a circle of its own (no member's key).
        var injectedKey = Array("\(circle.prefix)/rec/".utf8)
        injectedKey += Array(Hex.string(try SecureRandom.bytes(32)).utf8)
        _ = try await client.put(key: injectedKey, value: Array("SSR1".utf8) + [0, 0, 0, 1] + (try SecureRandom.bytes(80)))

        for device in [a, b, c] {
            let report = try await device.syncNow()
            #expect(report.refused == 4, "\(report.refusals)")
            #expect(report.applied == 0)
            #expect(try device.contents() == expected)
            #expect(try device.verifyIsClean())
        }
    }

    /// A circle member seals a record well formed but extreme: version `Int64.max`, or an item
    /// dated 1e300 seconds. Before, the receiving device applied it, and its next edit of the
    /// item stopped the program when the push computed the next version (an `Int64` overflow,
    /// or a date that no `Int64` of microseconds holds), on every pass after, since the edit
    /// stayed queued. Found by a helper session's audit. Both are refused on arrival now.
    @Test(arguments: [(Int64.max, nil), (Int64(-1), nil), (Int64(1), Date(timeIntervalSince1970: 1e300)), (Int64(1), Date(timeIntervalSince1970: -1))])
    func recordsOutsideTheStorableDatesAreRefused(modified: Int64, dates: Date?) async throws {
        let circle = try await TestCircle.make(2, on: try await SharedCluster.cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        try a.add("target", "v1")
        try await circle.converge()
        // Sealed with the circle's keys, as a member (or one that leaked its keys) can.
        let keys = try #require(await (try a.syncEngine).currentKeys)
        var attributes: Attributes = [.service: "api", .account: "target", .accessGroup: .string(SyncDevice.group),
                                      .synchronizable: .bool(true), .accessible: .string("ak")]
        if let dates {
            attributes[.modificationDate] = .date(dates)
            attributes[.creationDate] = .date(dates)
        }
        let later = dates == nil ? modified : Int64(Date().timeIntervalSince1970 * 1_000_000) + 10_000_000
        try await circle.putForgedRecord(SyncedItem(itemClass: .genericPassword, attributes: attributes, secret: Data("forged".utf8)),
                                         modified: later, keys: keys)

        let report = try await b.syncNow()
        #expect(report.applied == 0)
        #expect(report.refused == 1, "\(report.refusals)")
        #expect(try b.contents() == ["api/target": "v1"])
        // B's own edit of the item: the pass that pushes it meets the refused record in etcd
        // (a newer revision than B knows), refuses it again, and ends normally, the edit kept
        // here and queued. Before, this pass stopped the program (and, once records were
        // refused, a conflict's record that this store cannot keep threw out of the whole
        // pass: `applyCurrent` now refuses it as a pull does).
        try b.update("target", "edited on B")
        let push = try await b.syncNow()
        #expect(push.pushed == 0)
        #expect(push.refused >= 1, "\(push.refusals)")
        #expect(try b.contents() == ["api/target": "edited on B"])
        try b.add("other", "o1")
        #expect(try await b.syncNow().pushed == 1, "the other changes still go out")
    }

    /// A member seals a synchronizable item of the reserved group `secstore.sync`, where sync
    /// keeps its own settings and keys (as non-synchronizable items) and where no import, tool
    /// or backup writes. Before, it was applied: an item planted where nothing but sync's own
    /// entries may be. Now it is refused as unstorable, and the group holds what it held.
    @Test func aRecordOfTheReservedSyncGroupIsRefused() async throws {
        let circle = try await TestCircle.make(2, on: try await SharedCluster.cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        try a.add("target", "v1")
        try await circle.converge()
        let reserved = ImportRules.syncGroup
        let before = try b.store.find(Query(itemClass: .genericPassword, attributes: [.accessGroup: .string(reserved)],
                                            synchronizable: .any, limit: .all, returning: [.attributes])).count
        let keys = try #require(await (try a.syncEngine).currentKeys)
        let attributes: Attributes = [.service: "secstore.sync", .account: "planted", .accessGroup: .string(reserved),
                                      .synchronizable: .bool(true), .accessible: .string("ak")]
        try await circle.putForgedRecord(SyncedItem(itemClass: .genericPassword, attributes: attributes, secret: Data("planted".utf8)),
                                         modified: Int64(Date().timeIntervalSince1970 * 1_000_000), keys: keys)

        let report = try await b.syncNow()
        #expect(report.applied == 0)
        #expect(report.refused == 1, "\(report.refusals)")
        let after = try b.store.find(Query(itemClass: .genericPassword, attributes: [.accessGroup: .string(reserved)],
                                           synchronizable: .any, limit: .all, returning: [.attributes]))
        #expect(after.count == before, "nothing planted in \(reserved): \(after.map(\.attributes.account))")
        #expect(try b.contents() == ["api/target": "v1"])

        // Nor does a device send one: a synchronizable item of the group, made through the
        // library (the tool refuses to), stays on its device.
        try a.store.add(Item(itemClass: .genericPassword, attributes: [.service: "secstore.sync", .account: "local",
                                                                       .accessGroup: .string(reserved), .synchronizable: .bool(true),
                                                                       .accessible: .string("ak")], data: Data("x".utf8)))
        #expect(try await a.syncNow().pushed == 0)
    }

    /// A member seals a record at the last storable version. Before, it was applied, and
    /// every later edit or deletion of the item got a version past it, which every device
    /// refused as malformed: the item froze, silently (a helper session's audit,
    /// `aRecordAtTheLastStorableVersionFreezesTheItem`). Now a version more than a day ahead
    /// of the receiving device's clock is refused on arrival, and edits go on.
    @Test func aRecordFarAheadOfTheClockIsRefusedAndEditsGoOn() async throws {
        let circle = try await TestCircle.make(2, on: try await SharedCluster.cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        try a.add("target", "v1")
        try await circle.converge()
        let keys = try #require(await (try a.syncEngine).currentKeys)
        let item = SyncedItem(itemClass: .genericPassword,
                              attributes: [.service: "api", .account: "target", .accessGroup: .string(SyncDevice.group),
                                           .synchronizable: .bool(true), .accessible: .string("ak")],
                              secret: Data("from-a-member".utf8))
        try await circle.putForgedRecord(item, modified: StorableDates.microseconds.upperBound, keys: keys)
        for device in [a, b] {
            let report = try await device.syncNow()
            #expect(report.refused == 1 && report.applied == 0, "\(report.refusals)")
            #expect(try device.contents() == ["api/target": "v1"])
        }
        try b.update("target", "edited-on-b")
        try await circle.converge()
        #expect(try a.contents() == ["api/target": "edited-on-b"])
        try a.delete("target")
        try await circle.converge()
        #expect(try b.contents() == [:])
    }

    /// After `sync remove`, the removed device's keys open nothing written from then on.
    @Test func aRemovedDeviceCannotReadWhatIsWrittenAfter() async throws {
        let cluster = try await SharedCluster.cluster
        let circle = try await TestCircle.make(3, on: cluster)
        let (a, b, c) = (circle.devices[0], circle.devices[1], circle.devices[2])
        try a.add("before", "known-to-all")
        try await circle.converge()
        let removedID = await (try c.syncEngine).deviceID
        _ = try await a.syncEngine.remove(device: String(removedID.prefix(8)))
        try a.add("after", "secret-after-removal")
        try a.update("before", "changed-after-removal")
        try await a.syncNow()
        try await b.syncNow()
        #expect(try b.contents() == ["api/before": "changed-after-removal", "api/after": "secret-after-removal"])
        // It finds the circle at an epoch it holds no grant for, and stops saying so.
        await #expect(throws: SyncError.rotatedOut(epoch: 2)) { try await c.syncNow() }
        #expect(try c.contents() == ["api/before": "known-to-all"])
        // Its keys open none of the records now in etcd.
        let removedKeys = await (try c.syncEngine).keys
        let client = try EtcdClient(endpoints: cluster.clientURLs)
        for kv in try await client.range(prefix: Array("\(circle.prefix)/rec/".utf8)).keyValues {
            let tag = Hex.bytes(String(decoding: kv.key.suffix(64), as: UTF8.self))!
            for keys in removedKeys.values {
                #expect(throws: SyncRefusal.self) { try SyncRecord.open(kv.value, tag: tag, keys: keys) }
            }
        }
        let status = await (try c.syncEngine).status()
        #expect(status.isMember == false)
        // What it writes from now on is refused: it pushes nothing, and a record it puts in
        // etcd directly, sealed under its old keys, is refused by every member.
        try c.add("from-the-removed", "evil")
        await #expect(throws: SyncError.rotatedOut(epoch: 2)) { try await c.syncNow() }
        let oldKeys = try #require(removedKeys.values.first)
        try await circle.putForgedRecord(SyncedItem(itemClass: .genericPassword,
                                                    attributes: [.service: "api", .account: "before", .accessGroup: .string(SyncDevice.group),
                                                                 .synchronizable: .bool(true), .accessible: .string("ak")],
                                                    secret: Data("forged".utf8)),
                                         modified: .max / 2, keys: oldKeys)
        for device in [a, b] {
            let report = try await device.syncNow()
            #expect(report.refused >= 1 && report.applied == 0, "\(report)")
            #expect(try device.contents()["api/before"] == "changed-after-removal")
            #expect(try device.contents()["api/from-the-removed"] == nil)
        }
    }
}

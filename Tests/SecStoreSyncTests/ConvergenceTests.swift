import Foundation
import Testing
import SecStore
import SecStoreTestSupport
@testable import SecStoreSync

/// Items added, updated and deleted on any device reach every other, over a real 3-member
/// etcd cluster; only what Apple syncs travels.
@Suite struct ConvergenceTests {
    @Test func addsUpdatesAndDeletesFromAnyDeviceReachEveryDevice() async throws {
        let circle = try await TestCircle.make(3, on: try await SharedCluster.cluster)
        let (a, b, c) = (circle.devices[0], circle.devices[1], circle.devices[2])
        try a.add("alice", "from-a")
        try b.add("bob", "from-b")
        try await circle.converge()
        for device in circle.devices {
            #expect(try device.contents() == ["api/alice": "from-a", "api/bob": "from-b"])
        }
        try c.update("alice", "edited-on-c")
        try a.delete("bob")
        try await circle.converge()
        for device in circle.devices {
            #expect(try device.contents() == ["api/alice": "edited-on-c"])
            #expect(try device.verifyIsClean())
        }
    }

    @Test func onlySynchronizableItemsOfClassesThatLeaveTheDeviceTravel() async throws {
        let circle = try await TestCircle.make(2, on: try await SharedCluster.cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        try a.add("synced", "1")
        try a.add("local", "2", synchronizable: false)
        try a.add("pinned", "3", accessibility: .afterFirstUnlockThisDeviceOnly)
        try await circle.converge()
        #expect(try b.contents() == ["api/synced": "1"])
        // An item that stops syncing leaves the other devices (a tombstone), and stays here.
        var changes = ItemChanges()
        changes.attributes[.synchronizable] = .bool(false)
        _ = try a.store.update(matching: Query(itemClass: .genericPassword, attributes: [.account: "synced"], synchronizable: .yes),
                               with: changes)
        try await circle.converge()
        #expect(try b.contents() == [:])
        #expect(try a.contents()["api/synced (local)"] == "1")
    }

    @Test func aThousandItemsConverge() async throws {
        let circle = try await TestCircle.make(2, on: try await SharedCluster.cluster)
        try circle.devices[0].store.write { transaction in
            for index in 0..<1000 {
                var attributes: Attributes = [.service: "bulk", .account: .string("account-\(index)"), .accessGroup: .string(SyncDevice.group)]
                attributes.isSynchronizable = true
                try transaction.add(Item(itemClass: .genericPassword, attributes: attributes, data: Data("secret-\(index)".utf8)))
            }
        }
        try await circle.converge()
        let contents = try circle.devices[1].contents()
        #expect(contents.count == 1000)
        #expect(contents["bulk/account-999"] == "secret-999")
    }

    /// One pass pushes the whole journal, however long (a pass once stopped after 8,192).
    @Test func onePassPushesMoreThanEightThousandChanges() async throws {
        let circle = try await TestCircle.make(1, on: try await SharedCluster.cluster)
        let a = circle.devices[0]
        try a.store.write { transaction in
            for index in 0..<8_300 {
                var attributes: Attributes = [.service: "bulk", .account: .string("account-\(index)"), .accessGroup: .string(SyncDevice.group)]
                attributes.isSynchronizable = true
                try transaction.add(Item(itemClass: .genericPassword, attributes: attributes, data: Data("s".utf8)))
            }
        }
        let report = try await a.syncNow()
        #expect(report.pushed == 8_300)
        #expect(await (try a.syncEngine).status().pending == 0)
    }

    /// A device that was away while others wrote catches up from its last revision, even
    /// after etcd compacted its history (deletions travel as tombstones, not as history).
    @Test func aDeviceAwayWhileOthersWroteCatchesUpAfterCompaction() async throws {
        let cluster = try await SharedCluster.cluster
        let circle = try await TestCircle.make(2, on: cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        try a.add("kept", "1")
        try a.add("gone", "2")
        try await circle.converge()
        try a.update("kept", "1-updated")
        try a.delete("gone")
        for index in 0..<20 { try a.add("more-\(index)", "\(index)") }
        let report = try await a.syncNow()
        let compacted = try cluster.etcdctl(["compact", String(report.revision)], members: [0])
        #expect(compacted.status == 0, "\(compacted)")
        try await b.syncNow()
        let contents = try b.contents()
        #expect(contents.count == 21)
        #expect(contents["api/kept"] == "1-updated")
        #expect(contents["api/gone"] == nil)
    }

    /// DeviceIdentity's identifier is `…ThisDeviceOnly` by default: it never syncs.
    @Test func aDeviceIdentifierStaysOnItsDevice() async throws {
        let circle = try await TestCircle.make(2, on: try await SharedCluster.cluster)
        var attributes: Attributes = [.service: "com.example.identity", .account: "device-id", .accessGroup: .string(SyncDevice.group)]
        attributes.accessibility = .afterFirstUnlockThisDeviceOnly
        attributes.isSynchronizable = false
        try circle.devices[0].store.add(Item(itemClass: .genericPassword, attributes: attributes, data: Data(UUID().uuidString.utf8)))
        try await circle.converge()
        #expect(try circle.devices[1].contents().isEmpty)
    }
}

/// Tombstones leave etcd after the retention window; a device away longer than that learns
/// the deletions it missed by reconciling with the records etcd still holds.
@Suite struct TombstoneRetentionTests {
    @Test func purgedTombstonesReachADeviceAwayLongerThanTheRetention() async throws {
        let circle = try await TestCircle.make(2, on: try await SharedCluster.cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        try a.add("deleted-while-away", "x")
        try a.add("kept", "y")
        try await circle.converge()
        try a.delete("deleted-while-away")
        try await a.syncNow()
        await (try a.syncEngine).setTombstoneRetention(.zero)
        let purging = try await a.syncNow()
        #expect(purging.purged == 1)
        #expect(try await circle.etcdContents().filter { String(decoding: $0.key, as: UTF8.self).contains("/rec/") }.count == 1)
        // b was away: it never saw the tombstone, and now there is none to see.
        await (try b.syncEngine).setTombstoneRetention(.zero)
        let report = try await b.syncNow()
        #expect(report.reconciled == 1)
        #expect(try b.contents() == ["api/kept": "y"])
        #expect(try a.contents() == b.contents())
    }
}

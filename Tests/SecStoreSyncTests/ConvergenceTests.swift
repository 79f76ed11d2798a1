import Foundation
import Testing
import SecStore
import SecStoreTestSupport
import DeviceIdentity
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
        try circle.devices[0].addBulk(1000)
        try await circle.converge()
        let contents = try circle.devices[1].contents()
        #expect(contents.count == 1000)
        #expect(contents["bulk/account-999"] == "secret-999")
    }

    /// One pass pushes the whole journal, however long (a pass once stopped after 8,192).
    @Test func onePassPushesMoreThanEightThousandChanges() async throws {
        let circle = try await TestCircle.make(1, on: try await SharedCluster.cluster)
        let a = circle.devices[0]
        try a.addBulk(8_300)
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

    /// DeviceIdentity's identifier is `…ThisDeviceOnly` by default: it never syncs, though
    /// the store syncs everything else.
    @Test func aDeviceIdentifierStaysOnItsDevice() async throws {
        let circle = try await TestCircle.make(2, on: try await SharedCluster.cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        let scope = DeviceIdentity.Options(scope: .vendor(accessGroup: SyncDevice.group))
        let identifier = try DeviceIdentity(store: a.store, options: scope).identifier()
        try a.add("synced", "1")
        try await circle.converge()
        #expect(try b.contents() == ["api/synced": "1"])
        let everything = try b.store.find(Query(itemClass: .genericPassword, synchronizable: .any, limit: .all, returning: .data))
        #expect(!everything.contains { $0.data == Data(identifier.uuid.uuidString.utf8) || $0.data == withUnsafeBytes(of: identifier.uuid.uuid) { Data($0) } })
        #expect(try DeviceIdentity(store: b.store, options: scope).identifier().uuid != identifier.uuid)
    }
}

/// DeviceIdentity with `synchronizable`: the caller asked, so the identifier follows the owner.
@Suite struct SynchronizableIdentityTests {
    @Test func aSynchronizableIdentifierIsTheSameOnEveryDevice() async throws {
        let circle = try await TestCircle.make(2, on: try await SharedCluster.cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        let options = DeviceIdentity.Options(scope: .vendor(accessGroup: SyncDevice.group), accessibility: .afterFirstUnlock,
                                             synchronizable: true)
        let first = try DeviceIdentity(store: a.store, options: options).identifier()
        try await circle.converge()
        let second = try DeviceIdentity(store: b.store, options: options).identifier()
        #expect(second.uuid == first.uuid)
        #expect(second.provenance == .store)
        var pinned = options
        pinned.accessibility = .afterFirstUnlockThisDeviceOnly
        #expect(throws: SecStoreError.self) { try DeviceIdentity(store: a.store, options: pinned).reset() }
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

/// Defects the review of the first cut found, each with the test that shows it.
@Suite struct SyncRegressionTests {
    /// Items deleted (by another handle, as another process would) between a push's
    /// compare-and-swap and its commit: their tombstones still go out, and no device keeps
    /// them; also when a new item takes a deleted item's row id meanwhile.
    @Test func deletesDuringAPushAreNotLost() async throws {
        let circle = try await TestCircle.make(2, on: try await SharedCluster.cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        for index in 0..<3 { try a.add("item-\(index)", "v") }
        let other = try SecretStore(at: a.directory.storeURL,
                                    options: SecretStore.Options(access: .owner, deviceKeyURL: a.directory.deviceKeyURL))
        let engine = try a.syncEngine
        await engine.setInterlude {
            await engine.setInterlude(nil)
            for index in 0..<3 {
                _ = try other.delete(matching: Query(itemClass: .genericPassword, attributes: [.account: .string("item-\(index)")],
                                                     synchronizable: .yes))
            }
            // The first deleted row's id is free again (it is the highest): a local item takes it.
            let attributes: Attributes = [.service: "api", .account: "newcomer", .accessGroup: .string(SyncDevice.group)]
            try other.add(Item(itemClass: .genericPassword, attributes: attributes, data: Data("n".utf8)))
        }
        try await a.syncNow()
        try await circle.converge()
        #expect(try a.contents() == ["api/newcomer (local)": "n"])
        #expect(try b.contents().isEmpty)
    }

    /// A primary key whose tombstone was purged can be used again (its push compared against
    /// the purged revision and failed forever).
    @Test func anItemCanBeCreatedAgainAfterItsTombstoneWasPurged() async throws {
        let circle = try await TestCircle.make(2, on: try await SharedCluster.cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        try a.add("phoenix", "first")
        try await circle.converge()
        try a.delete("phoenix")
        await (try a.syncEngine).setTombstoneRetention(.zero)
        try await a.syncNow()
        #expect(try await a.syncNow().purged == 1)
        try a.add("phoenix", "second")
        let report = try await a.syncNow()
        #expect(report.pushed == 1 && report.failed == 0)
        try await circle.converge()
        #expect(try b.contents() == ["api/phoenix": "second"])
        #expect(await (try a.syncEngine).status().pending == 0)
        // b, which never purged it, no longer counts the gone tombstone as one to purge, and
        // can create the key again too.
        try a.delete("phoenix")
        try await a.syncNow()
        try await b.syncNow()
        _ = try await a.syncNow()   // purges
        await (try b.syncEngine).setTombstoneRetention(.zero)
        try await b.syncNow()
        #expect(try b.store.syncRead { try $0.tombstones(recordedBefore: .max, limit: 10) }.isEmpty)
        try b.add("phoenix", "third")
        #expect(try await b.syncNow().pushed == 1)
        try await a.syncNow()
        #expect(try a.contents() == ["api/phoenix": "third"])
    }

    /// A tombstone pushed late (its deletion older than the window) stays a whole window from
    /// when it reached etcd: it was purged in the same pass, and nobody learned the delete.
    @Test func aLateTombstoneStaysAWholeWindow() async throws {
        let circle = try await TestCircle.make(2, on: try await SharedCluster.cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        try a.add("old-news", "x")
        try await circle.converge()
        try a.delete("old-news")
        await (try a.syncEngine).setTombstoneRetention(.seconds(2))
        try await Task.sleep(for: .seconds(3))
        let report = try await a.syncNow()
        #expect(report.pushed == 1 && report.purged == 0)
        try await b.syncNow()
        #expect(try b.contents().isEmpty)
    }

    /// Values beyond etcd's request limit: a batch is cut by size, and one change too large
    /// for etcd fails alone, reported and left queued, while the others go.
    @Test func largeItemsArePushedAndOneTooLargeForEtcdFailsAlone() async throws {
        let circle = try await TestCircle.make(2, on: try await SharedCluster.cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        let medium = String(repeating: "m", count: 30_000)
        for index in 0..<70 { try a.add("medium-\(index)", medium) }
        try a.add("huge", String(repeating: "h", count: 2_000_000))
        let report = try await a.syncNow()
        #expect(report.pushed == 70)
        #expect(report.failed == 1)
        #expect(await (try a.syncEngine).status().pending == 1)
        try await b.syncNow()
        #expect(try b.contents().count == 70)
    }

    /// A local rename that collides with another device's new item: the renamed item becomes
    /// a conflict copy, and its old name is deleted everywhere (it stayed linked to the old
    /// record, which another device's edit then wrote over the copy).
    @Test func aRenameThatLosesAConcurrentCreateLeavesItsOldNameDeleted() async throws {
        let circle = try await TestCircle.make(2, on: try await SharedCluster.cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        try a.add("old", "a-value")
        try await circle.converge()
        var rename = ItemChanges()
        rename.attributes.account = "new"
        _ = try a.store.update(matching: Query(itemClass: .genericPassword, attributes: [.account: "old"], synchronizable: .yes),
                               with: rename)
        try b.add("new", "b-value")
        try await b.syncNow()
        try await a.syncNow()
        try await circle.converge()
        #expect(try b.contents() == ["api/new": "b-value"])
        #expect(try a.contents() == ["api/new": "b-value", "api/new (local)": "a-value"])
    }
}

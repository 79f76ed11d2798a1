import Foundation
import Testing
import SecStore
import SecStoreTestSupport
@testable import SecStoreSync

/// An item its owner takes out of sync stays on this device, whatever arrives for it before
/// the tombstone is pushed (docs/sync.md, "What syncs").
@Suite struct LeavingSyncTests {
    /// B takes item x out of sync with a local-only secret; A's later edit of x is pulled
    /// before B pushes. Before, the record still named B's item until the push, so A's record
    /// replaced it and the local-only secret was lost (found by a helper session's audit,
    /// `aConcurrentRemoteEditOverwritesAnItemJustTakenOutOfSync`). Now the record is detached
    /// in the update's own transaction: A's record becomes a synchronizable item beside it.
    @Test func aRemoteEditNeverOverwritesAnItemTakenOutOfSync() async throws {
        let circle = try await TestCircle.make(2, on: try await SharedCluster.cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        try a.add("x", "shared-v1")
        try await circle.converge()
        var changes = ItemChanges(data: Data("local-only-on-b".utf8))
        changes.attributes[.synchronizable] = .bool(false)
        _ = try b.store.update(matching: Query(itemClass: .genericPassword, attributes: [.account: "x"], synchronizable: .yes), with: changes)
        try await Self.editLater(on: a)
        let pass = try await b.syncNow()
        #expect(pass.applied == 1, "\(pass)")
        #expect(try b.contents() == ["api/x (local)": "local-only-on-b", "api/x": "from-a"])
        try await circle.converge()
        #expect(try a.contents() == ["api/x": "from-a"])
        #expect(try b.contents() == ["api/x (local)": "local-only-on-b", "api/x": "from-a"])
    }

    /// The same through the accessibility: a `…ThisDeviceOnly` item never syncs. Its primary
    /// key is the synced one's, so A's record keeps it as a conflict copy (no longer
    /// synchronizable, its secret kept) rather than replacing it.
    @Test func aRemoteEditNeverOverwritesAnItemMadeThisDeviceOnly() async throws {
        let circle = try await TestCircle.make(2, on: try await SharedCluster.cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        try a.add("x", "shared-v1")
        try await circle.converge()
        var changes = ItemChanges(data: Data("local-only-on-b".utf8))
        changes.attributes.accessibility = .afterFirstUnlockThisDeviceOnly
        _ = try b.store.update(matching: Query(itemClass: .genericPassword, attributes: [.account: "x"], synchronizable: .yes), with: changes)
        try await Self.editLater(on: a)
        try await b.syncNow()
        #expect(try b.contents() == ["api/x (local)": "local-only-on-b", "api/x": "from-a"])
        try await circle.converge()
        #expect(try a.contents() == ["api/x": "from-a"])
    }

    /// Taken out of sync after A's edit: B's tombstone is the later change and wins; B keeps
    /// its local item, A loses the synced one.
    @Test func aLaterRemovalFromSyncStillPushesItsTombstone() async throws {
        let circle = try await TestCircle.make(2, on: try await SharedCluster.cluster)
        let (a, b) = (circle.devices[0], circle.devices[1])
        try a.add("x", "shared-v1")
        try await circle.converge()
        try a.update("x", "from-a")
        try await a.syncNow()
        try await Task.sleep(for: .milliseconds(20))
        var changes = ItemChanges(data: Data("local-only-on-b".utf8))
        changes.attributes[.synchronizable] = .bool(false)
        _ = try b.store.update(matching: Query(itemClass: .genericPassword, attributes: [.account: "x"], synchronizable: .yes), with: changes)
        let pass = try await b.syncNow()
        #expect(pass.pushed == 1, "\(pass)")
        try await circle.converge()
        #expect(try a.contents() == [:])
        #expect(try b.contents() == ["api/x (local)": "local-only-on-b"])
    }

    /// A later edit on `device` (its clock moves on first), pushed.
    static func editLater(on device: SyncDevice) async throws {
        try await Task.sleep(for: .milliseconds(20))
        try device.update("x", "from-a")
        try await device.syncNow()
    }
}

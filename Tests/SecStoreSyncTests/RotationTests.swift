import Foundation
import Testing
import SecStore
import SecStoreTestSupport
import Etcd
@testable import SecStoreSync

/// What a device removed from the circle can still do with the etcd write access it had as a
/// member, against a member that has not pulled the rotation yet (docs/sync.md, "Remove").
/// Each was an attack that worked (a helper session's audit, `AuditRotationTests`); each test
/// asserts it now fails.
@Suite struct RotationTests {
    /// A record sealed by the removed device under `keys`.
    static func forged(_ account: String, _ secret: String, keys: CircleKeys, modified: Int64) -> (SyncRecord, [UInt8]) {
        let item = SyncedItem(itemClass: .genericPassword,
                              attributes: [.service: "api", .account: .string(account), .accessGroup: .string(SyncDevice.group),
                                           .synchronizable: .bool(true), .accessible: .string("ak")],
                              secret: Data(secret.utf8))
        let record = SyncRecord(version: SyncVersion(modified: modified, device: Array(repeating: 7, count: 16)), item: item,
                                groupID: keys.groupID(SyncDevice.group))
        return (record, keys.tag(for: item))
    }

    /// Three members, A removes C: the circle, C's epoch-1 keys, B's id, and an etcd client
    /// with the access C kept.
    struct Removal {
        let circle: TestCircle
        let a: SyncDevice, b: SyncDevice, c: SyncDevice
        let layout: EtcdLayout
        let oldKeys: CircleKeys
        let bID: [UInt8]
        let client: EtcdClient

        static func make() async throws -> Removal {
            let cluster = try await SharedCluster.cluster
            let circle = try await TestCircle.make(3, on: cluster)
            let (a, b, c) = (circle.devices[0], circle.devices[1], circle.devices[2])
            try a.add("before", "known-to-all")
            try await circle.converge()
            let oldKeys = try #require(await (try c.syncEngine).currentKeys)
            let bID = try #require(Hex.bytes(await (try b.syncEngine).deviceID))
            let removedID = await (try c.syncEngine).deviceID
            _ = try await a.syncEngine.remove(device: String(removedID.prefix(8)))
            return Removal(circle: circle, a: a, b: b, c: c, layout: EtcdLayout(prefix: circle.prefix), oldKeys: oldKeys, bID: bID,
                           client: try EtcdClient(endpoints: cluster.clientURLs))
        }

        /// The secrets of every record in etcd that `keys` open.
        func secretsOpened(with keys: CircleKeys) async throws -> [String] {
            var opened: [String] = []
            for kv in try await client.range(prefix: layout.records).keyValues {
                guard let tag = Hex.bytes(String(decoding: kv.key.suffix(64), as: UTF8.self)) else { continue }
                if let record = try? SyncRecord.open(kv.value, tag: tag, keys: keys), let item = record.item {
                    opened.append(String(decoding: item.secret, as: UTF8.self))
                }
            }
            return opened
        }
    }

    static func isRotatedOut(_ error: any Error) -> Bool {
        if case SyncError.rotatedOut = error { true } else { false }
    }

    static func isRolledBack(_ error: any Error) -> Bool {
        if case SyncError.circleRolledBack = error { true } else { false }
    }

    /// The removed device deletes B's rotation grant and writes records under the old epoch.
    /// Before, B stayed at epoch 1 and applied them. Now B finds the circle at an epoch it
    /// holds no grant for: it stops, applies and pushes nothing, and says why.
    @Test func aDeletedGrantStopsThatMemberInsteadOfLeavingItAtTheOldEpoch() async throws {
        let removal = try await Removal.make()
        let (a, b) = (removal.a, removal.b)
        _ = try await removal.client.delete(key: removal.layout.grant(epoch: removal.oldKeys.epoch + 1, device: removal.bID))
        let later = SyncVersion.microseconds(Date()) + 5_000_000
        for (account, secret) in [("before", "overwritten-by-removed"), ("planted", "planted-by-removed")] {
            let (record, tag) = Self.forged(account, secret, keys: removal.oldKeys, modified: later)
            _ = try await removal.client.put(key: removal.layout.record(tag), value: try record.seal(tag: tag, keys: removal.oldKeys))
        }
        try b.add("made-on-b", "b-secret-after-removal")
        let error = await #expect(throws: SyncError.self) { try await b.syncNow() }
        #expect(error.map(Self.isRotatedOut) == true, "\(String(describing: error))")
        #expect(error?.description.contains("this device was rotated out, or its grant was removed") == true)
        #expect(try b.contents() == ["api/before": "known-to-all", "api/made-on-b": "b-secret-after-removal"])
        #expect(try await removal.secretsOpened(with: removal.oldKeys).contains("b-secret-after-removal") == false)
        let reportA = try await a.syncNow()
        #expect(reportA.refused == 2, "\(reportA)")
        #expect(try a.contents() == ["api/before": "known-to-all"])
    }

    /// The removed device deletes B's grant and puts back the epoch-1 circle entry (it holds
    /// the epoch-1 key). Before, B pushed its new items under the key the removed device holds,
    /// and A's pushes failed their compare-and-swap silently from then on. Now B sees the
    /// circle entry rewritten at the epoch it holds, A sees it rolled back: both stop and say so.
    @Test func aCircleEntryPutBackIsReportedEverywhere() async throws {
        let removal = try await Removal.make()
        let (a, b) = (removal.a, removal.b)
        _ = try await removal.client.delete(key: removal.layout.grant(epoch: removal.oldKeys.epoch + 1, device: removal.bID))
        _ = try await removal.client.put(key: removal.layout.circle, value: CircleEntries.circle(removal.oldKeys))
        try b.add("made-on-b", "b-secret-after-removal")
        let errorB = await #expect(throws: SyncError.self) { try await b.syncNow() }
        #expect(errorB.map(Self.isRolledBack) == true, "\(String(describing: errorB))")
        #expect(try await removal.secretsOpened(with: removal.oldKeys).contains("b-secret-after-removal") == false)
        try a.add("made-on-a", "a-secret")
        let errorA = await #expect(throws: SyncError.self) { try await a.syncNow() }
        #expect(errorA.map(Self.isRolledBack) == true, "\(String(describing: errorA))")
        #expect(try await removal.secretsOpened(with: removal.oldKeys).contains("a-secret") == false)
    }

    /// The removed device replaces B's grant with one of its own making (a circle key it
    /// chose, MAC'd under epoch 1) and points the circle entry at it. Before, B adopted it and
    /// sealed its new items to the removed device, and A noticed nothing. Now B refuses a
    /// grant that does not come with the circle entry (written separately here), and A, which
    /// holds the real epoch 2, finds the circle entry no longer authenticates.
    /// (A removed device that writes both in one transaction still captures B: docs/sync.md.)
    @Test func aReplacedGrantIsRefusedAndReported() async throws {
        let removal = try await Removal.make()
        let (a, b, c) = (removal.a, removal.b, removal.c)
        let oldKeys = removal.oldKeys
        let naming = try SyncEngine.secureEntry(.namingKey, SyncVault(store: c.store))
        let evilCircleKey = try SecureBytes.random(count: CircleKeys.keyByteCount)
        let evil = CircleEntries.Grant(circleID: oldKeys.circleID, epoch: oldKeys.epoch + 1, circleKey: evilCircleKey, namingKey: naming)
        let evilKeys = try CircleKeys(circleID: oldKeys.circleID, epoch: evil.epoch, circleKey: evilCircleKey, namingKey: naming)
        let memberB = try #require(try await removal.client.range(key: removal.layout.member(removal.bID)).keyValues.first)
        let sealed = try CircleEntries.sealGrant(evil, to: Array(memberB.value.prefix(SealedBox.publicKeyByteCount)))
        let mac = oldKeys.mac(CircleEntries.grantMessage(epoch: evil.epoch, device: removal.bID, sealed: sealed))
        let grantKey = removal.layout.grant(epoch: evil.epoch, device: removal.bID)
        _ = try await removal.client.delete(key: grantKey)
        _ = try await removal.client.put(key: grantKey, value: sealed + mac)
        _ = try await removal.client.put(key: removal.layout.circle, value: CircleEntries.circle(evilKeys))
        try b.add("made-on-b", "b-secret-after-removal")
        await #expect(throws: SyncError.self) { try await b.syncNow() }
        #expect(try await removal.secretsOpened(with: evilKeys).isEmpty)
        let errorA = await #expect(throws: SyncError.self) { try await a.syncNow() }
        if case .circleDamaged = errorA {} else { Issue.record("A: \(String(describing: errorA))") }
    }

    /// The old-epoch cut-off rested on the revision etcd reports: a record sealed under the
    /// old epoch after the rotation, reported at a revision before it (a lying endpoint), was
    /// applied by a member holding the new epoch. Now a member holding epoch 2 refuses every
    /// epoch-1 record it has not applied, whatever its revision.
    @Test func anOldEpochRecordIsRefusedWhateverRevisionEtcdReports() async throws {
        let removal = try await Removal.make()
        let b = removal.b
        try await b.syncNow()
        let epochs = await (try b.syncEngine).settings.epochs
        let start = try #require(epochs.first { $0.epoch == removal.oldKeys.epoch + 1 }).startRevision
        let (record, tag) = Self.forged("planted", "planted-after-removal", keys: removal.oldKeys, modified: SyncVersion.microseconds(Date()))
        let kv = EtcdKeyValue(key: removal.layout.record(tag), value: try record.seal(tag: tag, keys: removal.oldKeys),
                              createRevision: start - 1, modRevision: start - 1, version: 1)
        let report = try await (try b.syncEngine).apply([kv], upTo: start + 100)
        #expect(report.refused == 1, "\(report)")
        #expect(try b.contents()["api/planted"] == nil)
    }

    /// A grant for this device that does not authenticate is counted in the pass's report
    /// like any other refusal (before, it was only logged).
    @Test func anUnauthenticGrantIsCountedAsRefused() async throws {
        let circle = try await TestCircle.make(2, on: try await SharedCluster.cluster)
        let b = circle.devices[1]
        let layout = EtcdLayout(prefix: circle.prefix)
        let bID = try #require(Hex.bytes(await (try b.syncEngine).deviceID))
        let client = try EtcdClient(endpoints: circle.cluster.clientURLs)
        _ = try await client.put(key: layout.grant(epoch: 2, device: bID), value: try SecureRandom.bytes(200))
        let report = try await b.syncNow()
        #expect(report.refused == 1, "\(report)")
        #expect(await (try b.syncEngine).settings.currentEpoch == 1)
    }

    /// Every member still converges after a removal: B and the remover at epoch 2, every
    /// record in etcd sealed under it, and what either writes reaches the other.
    @Test func membersConvergeAfterARemoval() async throws {
        let removal = try await Removal.make()
        let (a, b) = (removal.a, removal.b)
        removal.c.engine = nil   // it stops with "rotated out" (aDeletedGrant…, SecurityTests)
        try b.add("after-on-b", "b2")
        try a.add("after-on-a", "a2")
        try await removal.circle.converge()
        let expected = ["api/before": "known-to-all", "api/after-on-a": "a2", "api/after-on-b": "b2"]
        #expect(try a.contents() == expected)
        #expect(try b.contents() == expected)
        for kv in try await removal.client.range(prefix: removal.layout.records).keyValues {
            #expect(SyncRecord.epoch(of: kv.value) == removal.oldKeys.epoch + 1)
        }
    }

    /// The remover stopped between its rotation and sealing the records again (a process
    /// killed there): its next pass seals them, so members holding the new epoch, which
    /// refuse old-epoch records they have not applied, lose nothing.
    @Test func aRemoverStoppedBeforeResealingResumes() async throws {
        let circle = try await TestCircle.make(3, on: try await SharedCluster.cluster)
        let (a, b, c) = (circle.devices[0], circle.devices[1], circle.devices[2])
        try a.add("one", "1")
        try b.add("two", "2")
        try await circle.converge()
        let removedID = await (try c.syncEngine).deviceID
        c.engine = nil
        let engine = try a.syncEngine
        let applied = try await engine.pull().revision
        #expect(try await engine.rotate(removing: String(removedID.prefix(8)), appliedUpTo: applied))
        a.engine = try a.reopened()
        try await a.syncNow()
        let client = try EtcdClient(endpoints: circle.cluster.clientURLs)
        let records = try await client.range(prefix: EtcdLayout(prefix: circle.prefix).records).keyValues
        #expect(records.count == 2 && records.allSatisfy { SyncRecord.epoch(of: $0.value) == 2 })
        try b.update("one", "1b")
        try await circle.converge()
        #expect(try a.contents() == ["api/one": "1b", "api/two": "2"])
        #expect(try b.contents() == ["api/one": "1b", "api/two": "2"])
    }

    /// A record pushed between the remover's pull and its rotation is not left behind under
    /// the old epoch: the rotation goes through only once the remover applied it.
    @Test func aRotationWaitsForRecordsWrittenSinceThePull() async throws {
        let circle = try await TestCircle.make(3, on: try await SharedCluster.cluster)
        let (a, b, c) = (circle.devices[0], circle.devices[1], circle.devices[2])
        try a.add("one", "1")
        try await circle.converge()
        let removedID = String(await (try c.syncEngine).deviceID.prefix(8))
        c.engine = nil
        let engine = try a.syncEngine
        let applied = try await engine.pull().revision
        try b.add("late", "pushed-before-the-rotation")
        try await b.syncNow()
        #expect(try await engine.rotate(removing: removedID, appliedUpTo: applied) == false)
        #expect(await engine.settings.currentEpoch == 1)
        _ = try await engine.remove(device: removedID)
        try await circle.converge()
        #expect(try a.contents() == ["api/one": "1", "api/late": "pushed-before-the-rotation"])
        #expect(try b.contents() == ["api/one": "1", "api/late": "pushed-before-the-rotation"])
    }
}

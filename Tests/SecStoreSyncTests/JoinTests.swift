import Foundation
import Testing
import SecStore
import SecStoreTestSupport
import Etcd
@testable import SecStoreSync

/// What someone who can write to etcd can do to a join (docs/sync.md, "Join and approve").
@Suite struct JoinTests {
    /// Junk join requests: before, approval ran one Argon2id derivation (about 80 ms) per
    /// request before matching the code, so 40 of them cost seconds and 10,000 minutes (a
    /// helper session's audit, `junkJoinEntriesSlowApproval`). Now more than
    /// `maximumWaitingJoins` is an error that says how to clear them, at once.
    @Test func tooManyJoinRequestsAreAnErrorNotMinutesOfWork() async throws {
        let circle = try await TestCircle.make(1, on: try await SharedCluster.cluster)
        let a = circle.devices[0]
        let layout = EtcdLayout(prefix: circle.prefix)
        let client = try EtcdClient(endpoints: circle.cluster.clientURLs)
        for _ in 0..<40 {
            _ = try await client.put(key: layout.join(try SecureRandom.bytes(16)), value: try SecureRandom.bytes(32 + JoinCode.saltByteCount + 32))
        }
        await #expect(throws: SyncError.tooManyJoinRequests(count: 40, prefix: circle.prefix)) {
            try await a.syncEngine.approve(code: "0000-0000-0000")
        }
        // Cleared as the message says, a real join is approved.
        _ = try await client.delete(prefix: layout.joins)
        let b = try SyncDevice()
        let c = TestCircle(cluster: circle.cluster, prefix: circle.prefix, devices: [a, b])
        try await c.admit(b)
        #expect(await (try b.syncEngine).settings.currentEpoch == 1)
    }

    /// A joiner refuses a grant etcd rewrote after the approver wrote it (its create and mod
    /// revisions differ): whoever read the code must not get to replace the keys. Before, a
    /// grant whose code MAC verified was taken whatever its history.
    @Test func aJoinerRefusesARewrittenGrant() async throws {
        let circle = try await TestCircle.make(1, on: try await SharedCluster.cluster)
        let a = circle.devices[0]
        let b = try SyncDevice()
        let (engine, code) = try await SyncEngine.requestJoin(store: b.store, connection: circle.connection)
        b.engine = engine
        _ = try await a.syncEngine.approve(code: code)
        let layout = EtcdLayout(prefix: circle.prefix)
        let client = try EtcdClient(endpoints: circle.cluster.clientURLs)
        let grantKey = layout.grant(epoch: 1, device: try #require(Hex.bytes(await engine.deviceID)))
        let grant = try #require(try await client.range(key: grantKey).keyValues.first)
        _ = try await client.put(key: grantKey, value: grant.value)   // rewritten (here with the same bytes)
        await #expect(throws: SyncError.awaitingApproval) { try await b.syncNow() }
        #expect(await engine.settings.awaitingApproval)
    }
}

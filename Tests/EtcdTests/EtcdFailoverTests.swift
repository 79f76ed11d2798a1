import Foundation
import Testing
import Etcd
import SecStoreTestSupport

extension EtcdTests {
    @Suite struct Failover {
        let b = EtcdTests.bytes

        @Test func aMemberKilledDuringCallsIsReplacedByTheOthers() async throws {
            let cluster = try await EtcdCluster.start(members: 3)
            // A follower first (the leader's death is the next test's): no election to wait for.
            let leader = try await cluster.leaderIndex()
            let follower = cluster.clientURLs.indices.first { $0 != leader }!
            let order = [follower] + cluster.clientURLs.indices.filter { $0 != follower }
            let client = try EtcdTests.client(cluster, members: order)
            try await client.put(key: b("f/0"), value: [0])  // now the follower is the one in use

            let writer = Task {
                for index in 1...40 { try await client.put(key: b("f/\(index)"), value: [UInt8(index)]) }
            }
            try await Task.sleep(for: .milliseconds(50))
            cluster.kill(follower)
            try await writer.value

            let all = try await client.range(prefix: b("f/"))
            #expect(all.count == 41)
        }

        @Test func callsSucceedAfterTheLeaderIsKilled() async throws {
            let cluster = try await EtcdCluster.start(members: 3)
            let leader = try await cluster.leaderIndex()
            // The leader first, so that the client is talking to it when it dies.
            let order = [leader] + cluster.clientURLs.indices.filter { $0 != leader }
            let client = try EtcdTests.client(cluster, members: order)
            try await client.put(key: b("l/before"), value: [1])

            cluster.kill(leader)
            let revision = try await client.put(key: b("l/after"), value: [2])
            let read = try await client.range(prefix: b("l/"))
            #expect(read.keyValues.map(\.key) == [b("l/after"), b("l/before")] && read.revision >= revision)
            #expect(try await cluster.leaderIndex() != leader)

            // Back on its data dir, the old leader catches up.
            try await cluster.restart(leader)
            let again = try EtcdTests.client(cluster, members: [leader])
            #expect(try await again.range(prefix: b("l/"), revision: revision).count == 2)
        }

        @Test func aHungMemberCostsOneTimeoutThenTheOthersAnswer() async throws {
            let cluster = try await EtcdCluster.start(members: 3)
            let client = try EtcdClient(endpoints: cluster.clientURLs, requestTimeout: 1)
            try await client.put(key: b("h/0"), value: [0])
            cluster.kill(0, signal: SIGSTOP)  // accepts connections (the kernel does), never answers
            try await client.put(key: b("h/1"), value: [1])
            #expect(try await client.range(prefix: b("h/")).count == 2)
        }

        @Test func manyConcurrentCallsAllComplete() async throws {
            let cluster = try await EtcdCluster.start(members: 1)
            let client = try EtcdTests.client(cluster)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<200 {
                    group.addTask { try await client.put(key: Array("c/\(index)".utf8), value: [UInt8(index % 256)]) }
                }
                try await group.waitForAll()
            }
            #expect(try await client.range(prefix: b("c/"), keysOnly: true).count == 200)
        }

        @Test func statusNamesTheSameLeaderAsEtcdctl() async throws {
            let cluster = try await EtcdCluster.start(members: 3)
            let leader = try await cluster.leaderIndex()
            let client = try EtcdTests.client(cluster)
            var ids: [UInt64] = []
            for endpoint in client.endpoints { ids.append(try await client.status(of: endpoint).memberID) }
            let status = try await client.status(of: client.endpoints[1])
            #expect(Set(ids).count == 3 && status.leaderID == ids[leader] && status.version.hasPrefix("3."))
        }

        @Test func noMemberRunningIsUnreachableWithinTheRetryWindow() async throws {
            let cluster = try await EtcdCluster.start(members: 1)
            let client = try EtcdClient(endpoints: cluster.clientURLs, requestTimeout: 1, retryWindow: 1)
            cluster.kill(0)
            await #expect {
                try await client.put(key: [1], value: [1])
            } throws: { error in
                guard case let EtcdError.unreachable(endpoints, reason)? = error as? EtcdError else { return false }
                return endpoints == cluster.clientURLs.map(\.absoluteString) && reason.contains("connect")
            }
        }
    }
}

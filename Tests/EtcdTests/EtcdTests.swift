import Foundation
import Testing
import Etcd
import SecStoreTestSupport

/// The client against real etcd processes (SecStoreTestSupport's EtcdCluster). Serialized:
/// each test starts its own cluster, and several at once would crowd a 2-core machine.
@Suite(.serialized) struct EtcdTests {}

extension EtcdTests {
    /// Test keys and values as bytes.
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// A client of the given members (all by default), in that order, with the defaults the
    /// sync library uses.
    static func client(_ cluster: EtcdCluster, members: [Int]? = nil, credentials: EtcdCredentials? = nil) throws -> EtcdClient {
        let urls = (members ?? Array(cluster.clientURLs.indices)).map { cluster.clientURLs[$0] }
        return try EtcdClient(endpoints: urls, credentials: credentials)
    }

    /// The events of `stream` until there are `count`, or what came by `timeout` (a bound so a
    /// broken watch fails the test instead of hanging it, not a speed requirement).
    static func events(_ stream: AsyncThrowingStream<EtcdWatchBatch, any Error>, count: Int,
                       timeout: Duration = .seconds(20)) async throws -> [EtcdEvent] {
        try await withThrowingTaskGroup(of: [EtcdEvent]?.self) { group in
            group.addTask {
                var events: [EtcdEvent] = []
                for try await batch in stream {
                    events += batch.events
                    if events.count >= count { break }
                }
                return events
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let events = try await group.next()! else {
                Issue.record("fewer than \(count) watch events within \(timeout)")
                return []
            }
            return events
        }
    }
}

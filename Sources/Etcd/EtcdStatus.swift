import Foundation

/// One member's view of the cluster (`/v3/maintenance/status`).
///
/// ```swift
/// let status = try await client.status(of: client.endpoints[0])
/// let isLeader = status.memberID == status.leaderID
/// ```
package struct EtcdStatus: Sendable, Equatable {
    /// The answering member's id.
    package var memberID: UInt64
    /// The leader's id as this member knows it; 0 while there is none.
    package var leaderID: UInt64
    /// The store's revision.
    package var revision: Int64
    package var raftTerm: UInt64
    /// The etcd version, such as "3.4.23".
    package var version: String
    /// The index of the last Raft entry this member has; every write and every authentication
    /// adds one.
    package var raftIndex: UInt64

    init(_ wire: WireStatusResponse) throws {
        memberID = try Wire.uint64(wire.header?.member_id, "header.member_id")
        leaderID = try Wire.uint64(wire.leader, "leader")
        revision = try Wire.revision(wire.header)
        raftTerm = try Wire.uint64(wire.raftTerm, "raftTerm")
        version = wire.version ?? ""
        raftIndex = try Wire.uint64(wire.raftIndex, "raftIndex")
    }
}

extension EtcdClient {
    /// The status of the member at `endpoint` (one of `endpoints`), asked of that member only:
    /// no failover, since the answer is about this member.
    ///
    /// ```swift
    /// for endpoint in client.endpoints { print(try await client.status(of: endpoint).leaderID) }
    /// ```
    package func status(of endpoint: URL) async throws -> EtcdStatus {
        // An endpoint the client was not made with is bad input, not a reason to crash.
        guard let index = endpoints.firstIndex(of: endpoint) else { throw EtcdError.invalidEndpoint(endpoint.absoluteString) }
        var mayReauthenticate = true
        switch try await answer(index, "v3/maintenance/status", Wire.encode([:]), mayReauthenticate: &mayReauthenticate) {
        case let .done(data):
            return try EtcdStatus(Wire.decode(WireStatusResponse.self, data))
        case let .tryNext(reason):
            throw EtcdError.unreachable(endpoints: [endpoint.absoluteString], lastReason: reason)
        }
    }
}

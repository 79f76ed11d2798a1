import Foundation
import SecStore
import Etcd

/// Where a device stands in its circle: what `secstore sync status` shows.
package struct SyncStatus: Sendable, Codable, Equatable {
    package var deviceID: String
    package var circleID: String
    package var prefix: String
    package var endpoints: [String]
    package var epoch: UInt32?
    package var awaitingApproval: Bool
    /// The etcd revision this store has applied up to.
    package var revision: Int64
    /// Local changes not pushed yet.
    package var pending: Int
    /// Records this store has pushed or applied.
    package var records: Int
    /// The member devices (ids in hex) whose entries authenticate; `nil` when etcd could not be reached.
    package var members: [String]?
    /// Whether this device is among them.
    package var isMember: Bool?
    /// Local items kept as conflict copies.
    package var conflictCopies: Int
}

extension SyncEngine {
    /// This device's standing, with the member list read from etcd when it answers.
    package func status() async -> SyncStatus {
        let local = try? store.syncRead { session in
            (try session.state().revision, try session.pendingCount(), try session.recordCount())
        }
        var members: [String]?
        if let keys = currentKeys, let verified = try? await verifiedMembers(keys) {
            members = verified.map { Hex.string($0.device) }.sorted()
        }
        let conflicts = (try? conflictCopyCount()) ?? 0
        return SyncStatus(deviceID: settings.deviceID, circleID: settings.circleID, prefix: settings.prefix,
                          endpoints: settings.endpoints, epoch: settings.currentEpoch, awaitingApproval: settings.awaitingApproval,
                          revision: local?.0 ?? 0, pending: local?.1 ?? 0, records: local?.2 ?? 0, members: members,
                          isMember: members.map { $0.contains(settings.deviceID) }, conflictCopies: conflicts)
    }

    /// Local items marked as conflict copies (any class, any group).
    private func conflictCopyCount() throws -> Int {
        var count = 0
        for itemClass in ItemClass.allCases {
            var query = Query(itemClass: itemClass, synchronizable: .any, limit: .all)
            query.attributes.custom = [Self.conflictAttribute: "1"]
            count += try store.find(query).count
        }
        return count
    }
}

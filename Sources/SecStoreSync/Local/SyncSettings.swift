import Foundation

/// How a device reaches its circle, and where it stands in it: kept as JSON in the store
/// (``SyncVault/Entry/settings``). No secret is here: keys and the etcd password are
/// entries of their own.
struct SyncSettings: Codable, Equatable {
    /// etcd's client URLs, tried in order.
    var endpoints: [String]
    /// The etcd key prefix under which the circle lives.
    var prefix: String
    /// etcd's user, when etcd has authentication on (the password is ``SyncVault/Entry/etcdPassword``).
    var user: String?
    /// A PEM file of the certificate authorities that sign etcd's TLS certificates (`nil`:
    /// the system's), and a client certificate and key for etcd's `--client-cert-auth`.
    var certificateAuthorityFile: String?
    var clientCertificateFile: String?
    var clientKeyFile: String?
    /// This device's id, 16 bytes in hex.
    var deviceID: String
    /// The circle's id, 16 bytes in hex.
    var circleID: String
    /// The device's circle keys: each epoch it holds, and the etcd revision from which that
    /// epoch's key seals new records (a record sealed under an older epoch at or after that
    /// revision is refused).
    var epochs: [Epoch]
    /// True between `sync join` and the grant that approves it.
    var awaitingApproval: Bool
    /// True from the moment this device started a new epoch (`sync remove`) until every
    /// record it knows is queued to be sealed again under it: a remover stopped in between
    /// resumes at its next pass.
    var resealPending: Bool?

    struct Epoch: Codable, Equatable {
        var epoch: UInt32
        var startRevision: Int64
        /// The etcd revision of the circle entry that began this epoch (`nil` until seen): a
        /// circle entry rewritten later at the same epoch was put back by an old key's holder.
        var circleRevision: Int64?
    }

    var currentEpoch: UInt32? { epochs.map(\.epoch).max() }
}

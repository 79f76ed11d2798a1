/// Why a sync command could not do what was asked. Each message says what went wrong and
/// what to do; none holds a secret.
///
/// ```swift
/// do { try await SyncEngine.open(store: store).syncNow() }
/// catch let error as SyncError { print(error) }
/// ```
package enum SyncError: Error, Equatable, CustomStringConvertible {
    /// The store is in no circle.
    case notConfigured
    /// The store is already in a circle.
    case alreadyConfigured
    /// `sync init` found a circle under the prefix already.
    case circleExists(prefix: String)
    /// `sync join` found no circle under the prefix.
    case noCircle(prefix: String)
    /// The device asked to join and is not approved yet.
    case awaitingApproval
    /// `sync approve` found no pending device for the code, or more than one.
    case unknownCode(matches: Int)
    /// More join requests wait than `sync approve` checks a code against (each costs an
    /// Argon2id derivation: ``SyncEngine/maximumWaitingJoins``).
    case tooManyJoinRequests(count: Int, prefix: String)
    /// `sync remove` names no member, or more than one, or this device.
    case unknownDevice(String)
    /// The circle's entries in etcd do not authenticate.
    case circleDamaged(String)
    /// etcd could not be reached or refused the request.
    case etcd(String)
    /// etcd answered and refused the request itself (too large, not permitted): another
    /// request may still go through.
    case etcdRejected(String)
    /// Another device changed the circle at the same moment; run the command again.
    case raced
    /// The circle moved to an epoch this device holds no grant for: it was removed, or its
    /// grant was deleted. Nothing is applied or pushed until that is put right.
    case rotatedOut(epoch: UInt32)
    /// The circle entry names an epoch older than the one this device holds (`found` <
    /// `held`), or was rewritten at the epoch it holds (`found == held`): written by someone
    /// holding an old key. Nothing is applied or pushed until that is put right.
    case circleRolledBack(found: UInt32, held: UInt32)

    package var description: String {
        switch self {
        case .notConfigured:
            "This store is not in a sync circle. Run `secstore sync init --endpoints URL` on the first device, or `secstore sync join --endpoints URL` on another."
        case .alreadyConfigured:
            "This store is already in a sync circle. Run `secstore sync status` to see it."
        case .circleExists(let prefix):
            "etcd already holds a circle under the prefix \(prefix). Join it with `secstore sync join`, or choose another --prefix."
        case .noCircle(let prefix):
            "etcd holds no circle under the prefix \(prefix). Create one on the first device with `secstore sync init`, or check --endpoints and --prefix."
        case .awaitingApproval:
            "This device waits for approval: on a member device run `secstore sync approve` and type the code `sync join` printed."
        case .unknownCode(let matches):
            matches == 0
                ? "No device waiting to join matches that code. Check the code `sync join` printed on the new device."
                : "\(matches) waiting devices match that code. Ask each new device to run `secstore sync join` again."
        case .tooManyJoinRequests(let count, let prefix):
            "\(count) join requests wait in etcd; approval checks a code against at most \(SyncEngine.maximumWaitingJoins) (each costs a slow key derivation). Some were left by devices that never got approved, or written to slow approvals down: delete them (`etcdctl del --prefix \(prefix)/join/`), ask the new device to run `secstore sync join` again, and approve it."
        case .unknownDevice(let id):
            "No other member device has an id starting with \(id). Run `secstore sync status` to list them."
        case .circleDamaged(let what):
            "The circle's entries in etcd do not authenticate (\(what)). They were altered or written by a non-member; nothing was applied."
        case .etcd(let message), .etcdRejected(let message):
            "etcd: \(message)"
        case .raced:
            "Another device changed the circle at the same moment. Run the command again."
        case .rotatedOut(let epoch):
            "The circle moved to key epoch \(epoch) and etcd holds no valid grant of it for this device: this device was rotated out, or its grant was removed. Nothing was applied or pushed. If it should still be a member, ask a member to run `secstore sync remove` on it, then `secstore sync join` again from a fresh store; and check who can write to etcd (docs/sync.md, \"Remove\")."
        case .circleRolledBack(let found, let held):
            found == held
                ? "etcd's circle entry was rewritten at key epoch \(held) after this device took that epoch: only someone holding an old key (a removed device with etcd write access?) does that. Nothing was applied or pushed. Revoke removed devices' etcd credentials and have a member rotate again (docs/sync.md, \"Remove\")."
                : "etcd's circle entry names key epoch \(found), older than epoch \(held) this device holds: it was put back by someone holding an old key (a removed device with etcd write access?). Nothing was applied or pushed. Revoke removed devices' etcd credentials and have a member rotate again (docs/sync.md, \"Remove\")."
        }
    }
}

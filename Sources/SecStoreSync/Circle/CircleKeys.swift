import Foundation
import SecStore

/// The keys of one circle epoch and everything derived from them (docs/sync.md, "Keys"):
/// - the **naming key** (fixed for the circle's life) makes record tags and group ids, so a
///   record keeps its etcd key across key rotations;
/// - the **circle key** of the epoch makes each access group's sealing key and the MACs that
///   authenticate circle entries. A new epoch (a device removed) replaces it.
struct CircleKeys: Sendable {
    let circleID: [UInt8]
    let epoch: UInt32
    private let circleKey: SecureBytes
    private let tags: BlindIndexer
    private let groupIDs: BlindIndexer
    private let macs: BlindIndexer

    static let keyByteCount = 32
    static let idByteCount = 16

    init(circleID: [UInt8], epoch: UInt32, circleKey: SecureBytes, namingKey: SecureBytes) throws {
        self.circleID = circleID
        self.epoch = epoch
        self.circleKey = circleKey
        tags = try BlindIndexer(key: KeyDerivation.keyedHash(key: namingKey, message: Array("secstore/sync/v1/tag".utf8)))
        groupIDs = try BlindIndexer(key: KeyDerivation.keyedHash(key: namingKey, message: Array("secstore/sync/v1/group-id".utf8)))
        macs = try BlindIndexer(key: KeyDerivation.keyedHash(key: circleKey, message: Array("secstore/sync/v1/mac".utf8)))
    }

    /// A record's tag: keyed BLAKE2b-256 over the item's class and primary key, the same
    /// encoding as the store's own primary-key tag under another key.
    func tag(for item: SyncedItem) -> [UInt8] {
        tags.primaryKeyTag(for: item.itemClass, attributes: item.attributes)
    }

    /// The opaque 16-byte id of an access group.
    func groupID(_ group: String) -> [UInt8] {
        groupIDs.digest(Array("group".utf8) + Array(group.utf8), byteCount: Self.idByteCount)
    }

    /// The sealing key of the group with this id, in this epoch.
    func groupKey(_ groupID: [UInt8]) throws -> SecureBytes {
        try KeyDerivation.keyedHash(key: circleKey, message: Array("secstore/sync/v1/group-key".utf8) + groupID)
    }

    /// A 32-byte MAC of `message` under this epoch's circle key.
    func mac(_ message: [UInt8]) -> [UInt8] {
        macs.digest(message, byteCount: 32)
    }

    func verify(mac: [UInt8], of message: [UInt8]) -> Bool {
        ConstantTime.equals(self.mac(message), mac)
    }

    /// The circle key's bytes, for a grant that hands it to another device.
    func withCircleKey<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try circleKey.withUnsafeBytes(body)
    }
}

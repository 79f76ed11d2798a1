import Foundation
import SecStore

/// Where a device keeps what sync needs, inside its own store: reserved generic passwords in
/// the access group ``group``, `AfterFirstUnlockThisDeviceOnly` (the daemon reads them after
/// the first unlock; they never sync and never go into a backup). Apps see them only when
/// entitled to that group.
///
/// ```swift
/// let vault = SyncVault(store: store)
/// try vault.write(Data(settingsJSON), as: .settings)
/// ```
struct SyncVault {
    /// The access group of the reserved items: the library's, which no import may write
    /// (``ImportRules``).
    static let group = ImportRules.syncGroup
    static let service = "secstore.sync"

    /// The reserved items.
    enum Entry: Equatable {
        /// ``SyncSettings`` as JSON.
        case settings
        /// The etcd password, when etcd has authentication on.
        case etcdPassword
        /// The device's X25519 secret key.
        case deviceKey
        /// The key derived from a pending join's code: it authenticates the grant that approves it.
        case joinKey
        /// The circle's naming key (record tags and group ids; it never rotates).
        case namingKey
        /// The circle key of one epoch.
        case circleKey(epoch: UInt32)

        var account: String {
            switch self {
            case .settings: "settings"
            case .etcdPassword: "etcd-password"
            case .deviceKey: "device-key"
            case .joinKey: "join-key"
            case .namingKey: "naming-key"
            case .circleKey(let epoch): "circle-key.\(epoch)"
            }
        }
    }

    let store: SecretStore

    /// The attributes that name `entry` (every reserved item, for `nil`).
    private static func name(_ entry: Entry?) -> Attributes {
        var attributes = Attributes()
        attributes.service = service
        attributes.account = entry?.account
        attributes.accessGroup = group
        return attributes
    }

    func read(_ entry: Entry) throws -> Data? {
        try store.find(Query(itemClass: .genericPassword, attributes: Self.name(entry), returning: .data)).first?.data
    }

    /// Writes (adds or replaces) an entry.
    func write(_ data: Data, as entry: Entry) throws {
        var attributes = Self.name(entry)
        if try store.updateAll(matching: Query(itemClass: .genericPassword, attributes: attributes), with: ItemChanges(data: data)) > 0 {
            return
        }
        attributes.accessibility = .afterFirstUnlockThisDeviceOnly
        attributes.label = "SecStore sync (\(entry.account))"
        try store.add(Item(itemClass: .genericPassword, attributes: attributes, data: data))
    }

    /// Writes a key from guarded memory; the one copy made for the store is wiped after.
    func write(_ key: SecureBytes, as entry: Entry) throws {
        var data = key.withUnsafeBytes { Data($0) }
        defer { Wipe.data(&data) }
        try write(data, as: entry)
    }

    func remove(_ entry: Entry) throws {
        _ = try store.deleteAll(matching: Query(itemClass: .genericPassword, attributes: Self.name(entry)))
    }

    /// Removes every reserved item (leaving the circle, or undoing a failed `init` or `join`).
    func removeAll() throws {
        _ = try store.deleteAll(matching: Query(itemClass: .genericPassword, attributes: Self.name(nil), limit: .all))
    }
}

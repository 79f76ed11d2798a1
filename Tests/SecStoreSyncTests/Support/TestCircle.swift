import Foundation
import Synchronization
import SecStore
import SecStoreTestSupport
import Etcd
@testable import SecStoreSync

/// A circle of devices on a real etcd cluster, each under its own random prefix so tests
/// can share one cluster.
struct TestCircle {
    let cluster: EtcdCluster
    let prefix: String
    let devices: [SyncDevice]

    var connection: SyncConnection {
        SyncConnection(endpoints: cluster.clientURLs.map(\.absoluteString), prefix: prefix)
    }

    /// `count` devices: the first creates the circle, the others join and are approved by it.
    static func make(_ count: Int, on cluster: EtcdCluster, before: (([SyncDevice]) throws -> Void)? = nil) async throws -> TestCircle {
        let devices = try (0..<count).map { _ in try SyncDevice() }
        try before?(devices)
        let circle = TestCircle(cluster: cluster, prefix: "t" + UUID().uuidString.prefix(8).lowercased(), devices: devices)
        devices[0].engine = try await SyncEngine.createCircle(store: devices[0].store, connection: circle.connection)
        try await devices[0].syncNow()
        for device in devices.dropFirst() { try await circle.admit(device) }
        return circle
    }

    /// Joins `device` to the circle: its request, the first device's approval, its first pass.
    func admit(_ device: SyncDevice) async throws {
        let (engine, code) = try await SyncEngine.requestJoin(store: device.store, connection: connection)
        device.engine = engine
        _ = try await devices[0].syncEngine.approve(code: code)
        try await device.syncNow()
    }

    /// Puts in etcd, at its tag, a record of `item` at version `modified` sealed with `keys`,
    /// as a member (or one that leaked its keys, or a removed device with its old keys) can.
    func putForgedRecord(_ item: SyncedItem, modified: Int64, keys: CircleKeys) async throws {
        let record = SyncRecord(version: SyncVersion(modified: modified, device: Array(repeating: 7, count: 16)), item: item,
                                groupID: keys.groupID(item.attributes.accessGroup ?? ""))
        let tag = keys.tag(for: item)
        let client = try EtcdClient(endpoints: cluster.clientURLs)
        _ = try await client.put(key: Array("\(prefix)/rec/\(Hex.string(tag))".utf8), value: try record.seal(tag: tag, keys: keys))
    }

    /// Sync passes on every device until none pushes or applies anything (at most `rounds`).
    @discardableResult
    func converge(rounds: Int = 6) async throws -> Int {
        for round in 1...rounds {
            var moved = 0
            for device in devices where device.engine != nil {
                let report = try await device.syncNow()
                moved += report.pushed + report.applied
            }
            if moved == 0 { return round }
        }
        return rounds
    }

    /// Every key and value the circle has in etcd.
    func etcdContents() async throws -> [(key: [UInt8], value: [UInt8])] {
        let client = try EtcdClient(endpoints: cluster.clientURLs)
        return try await client.range(prefix: Array("\(prefix)/".utf8)).keyValues.map { ($0.key, $0.value) }
    }
}

/// One etcd cluster shared by the sync tests that do not kill members (each uses its own prefix).
/// Stopped when the test process exits, so no etcd outlives the run.
enum SharedCluster {
    private static let task = Task { () throws -> EtcdCluster in
        let cluster = try await EtcdCluster.start(members: 3)
        started.withLock { $0 = cluster }
        atexit { SharedCluster.started.withLock { $0?.stop() } }
        return cluster
    }
    private static let started = Mutex<EtcdCluster?>(nil)

    static var cluster: EtcdCluster {
        get async throws { try await task.value }
    }
}

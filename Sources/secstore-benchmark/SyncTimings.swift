import Dispatch
import Foundation
import SecStore
import SecStoreSync
import SecStoreTestSupport

/// Sync (issue 18, docs/sync.md), once per run: a real 3-member etcd cluster on loopback
/// (SecStoreTestSupport's ``EtcdCluster``) and two devices, each a store of its own with its own
/// device key in the work directory:
/// - device A is filled with ``items`` synchronizable generic passwords in one transaction and
///   creates the circle; its passes until every item is in etcd are timed (the **push**);
/// - device B joins (request + A's approval, Argon2id on both sides: not part of convergence)
///   and its first pass, which applies every record, is timed (the **pull**);
/// - B is then checked to hold every item with its secret ("converged");
/// - ``roundTrips`` times, A updates one item and passes, then B passes: the time from A's
///   update to B holding the new secret (the **round trip**), as a median.
///
/// Skipped, with the reason in the result, when `etcd` or `etcdctl` is not on PATH.
struct SyncTimings {
    let directory: URL

    static let items = 10_000
    static let members = 3
    static let roundTrips = 20
    static let service = "bench.sync"
    static let group = "bench.sync"
    /// More passes than this without convergence end the measurement (a pass that moves
    /// nothing ends it sooner).
    static let maximumPasses = 20

    func run() throws -> SyncResult {
        var result = SyncResult(items: Self.items, members: Self.members, roundTrips: Self.roundTrips)
        let missing = ["etcd", "etcdctl"].filter { ProgramRun.which($0) == nil }
        guard missing.isEmpty else {
            result.note = "skipped: \(missing.joined(separator: " and ")) not on PATH (apt-get install etcd-server etcd-client)"
            return result
        }
        let directory = self.directory, initial = result
        return try waitFor { try await SyncTimings(directory: directory).measure(initial) }
    }

    private func measure(_ initial: SyncResult) async throws -> SyncResult {
        var result = initial
        let folder = directory.appending(path: "sync", directoryHint: .isDirectory)
        try? FileManager.default.removeItem(at: folder)  // a previous run's files in --dir
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

        progress("[sync] starting a \(Self.members)-member etcd cluster on loopback…")
        let cluster = try await EtcdCluster.start(members: Self.members)
        defer { cluster.stop() }  // on errors too: no etcd outlives the run
        let connection = SyncConnection(endpoints: cluster.clientURLs.map(\.absoluteString), prefix: "bench")

        progress("[sync] device A: \(count(Self.items)) synchronizable items in one transaction, then the circle…")
        let storeA = try Self.openStore(in: folder.appending(path: "device-a", directoryHint: .isDirectory))
        try storeA.write { transaction in
            for index in 0..<Self.items { try transaction.add(Self.item(index)) }
        }
        // Creating the circle enables the journal, which puts every synchronizable item in the
        // outbox; nothing goes to etcd before the first pass.
        var start = monotonicNanoseconds()
        let engineA = try await SyncEngine.createCircle(store: storeA, connection: connection)
        result.circleCreateSeconds = seconds(since: start)

        progress("[sync] push: device A's passes until all \(count(Self.items)) items are in etcd…")
        start = monotonicNanoseconds()
        let push = try await passes(of: engineA) { $0.pushed }
        result.pushSeconds = seconds(since: start)
        result.pushed = push.moved
        result.pushPasses = push.passes
        result.pushItemsPerSecond = Double(push.moved) / (result.pushSeconds ?? 1)

        progress("[sync] device B joins (Argon2id on both sides; not timed as convergence)…")
        let storeB = try Self.openStore(in: folder.appending(path: "device-b", directoryHint: .isDirectory))
        start = monotonicNanoseconds()
        let (engineB, code) = try await SyncEngine.requestJoin(store: storeB, connection: connection)
        _ = try await engineA.approve(code: code)
        result.joinSeconds = seconds(since: start)

        progress("[sync] pull: device B's first pass…")
        start = monotonicNanoseconds()
        let pull = try await passes(of: engineB) { $0.applied }
        result.pullSeconds = seconds(since: start)
        result.applied = pull.moved
        result.pullPasses = pull.passes
        result.pullItemsPerSecond = Double(pull.moved) / (result.pullSeconds ?? 1)
        result.convergenceSeconds = (result.pushSeconds ?? 0) + (result.pullSeconds ?? 0)

        let matching = try Self.matchingItems(in: storeB)
        result.convergedItems = matching
        result.converged = matching == Self.items

        progress("[sync] round trip: \(Self.roundTrips) × (A updates one item, A passes, B passes)…")
        var times: [Double] = []
        var failures = 0
        for repetition in 0..<Self.roundTrips {
            let index = repetition * 499 % Self.items
            let secret = Data(Workload.secret(Self.items + repetition))  // not any item's first secret
            start = monotonicNanoseconds()
            try storeA.update(matching: Self.query(account: Workload.account(index)), with: ItemChanges(data: secret))
            _ = try await engineA.syncNow()
            _ = try await engineB.syncNow()
            times.append(Double(monotonicNanoseconds() - start))
            let received = try storeB.find(Self.query(account: Workload.account(index), returning: .data)).first?.data
            if received != secret { failures += 1 }
        }
        result.roundTripMedianMilliseconds = median(times) / 1e6
        result.roundTripMaximumMilliseconds = (times.max() ?? 0) / 1e6
        result.roundTripFailures = failures
        return result
    }

    /// Passes of `engine` until `moved` (what a pass pushed or applied) adds up to every
    /// item, a pass moves nothing, or ``maximumPasses``.
    private func passes(of engine: SyncEngine, moved: (SyncReport) -> Int) async throws -> (moved: Int, passes: Int) {
        var total = 0, passes = 0
        while total < Self.items && passes < Self.maximumPasses {
            let report = try await engine.syncNow()
            passes += 1
            total += moved(report)
            if moved(report) == 0 { break }
        }
        return (total, passes)
    }

    /// How many of the benchmark's items `store` holds with their original secret.
    private static func matchingItems(in store: SecretStore) throws -> Int {
        var attributes = Attributes()
        attributes.accessGroup = group
        let found = try store.find(Query(itemClass: .genericPassword, attributes: attributes, synchronizable: .yes,
                                         limit: .all, returning: [.attributes, .data]))
        var secrets: [String: Data] = [:]
        for item in found { if let account = item.attributes.account { secrets[account] = item.data } }
        return (0..<items).count { secrets[Workload.account($0)] == Data(Workload.secret($0)) }
    }

    private static func item(_ index: Int) -> Item {
        .genericPassword(service: service, account: Workload.account(index), data: Data(Workload.secret(index)),
                         accessGroup: group, accessibility: .afterFirstUnlock, synchronizable: true)
    }

    private static func query(account: String, returning: ReturnOptions = .attributes) -> Query {
        var attributes = Attributes()
        attributes.service = service
        attributes.account = account
        attributes.accessGroup = group
        return Query(itemClass: .genericPassword, attributes: attributes, synchronizable: .yes, returning: returning)
    }

    /// A device: a fresh store and device key of its own, opened by its owner.
    private static func openStore(in folder: URL) throws -> SecretStore {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try SecretStore(at: folder.appending(path: "store.secstore"),
                               options: SecretStore.Options(access: .owner, deviceKeyURL: folder.appending(path: "device.key")))
    }

    private func seconds(since start: UInt64) -> Double { Double(monotonicNanoseconds() - start) / 1e9 }
}

/// Runs `body` on the concurrency pool and blocks this (synchronous) thread until it ends:
/// the benchmark is synchronous, the sync engine and the cluster harness are async.
private func waitFor<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = Outcome<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do { outcome.value = .success(try await body()) } catch { outcome.value = .failure(error) }
        done.signal()  // the semaphore orders the write above before the read below
    }
    done.wait()
    return try outcome.value!.get()
}

/// ``waitFor(_:)``'s result, written by the task and read once it signalled.
private final class Outcome<T>: @unchecked Sendable {
    var value: Result<T, any Error>?
}

import Foundation
import SecStore

/// The SecStore side: a real store file with its own device key, opened as the app
/// `bench.app` (its items go to access group `bench.app`), holding generic passwords
/// `svc-<i mod S>` / `acct-<i>` with 32-byte secrets (``Workload``).
final class StoreWorkload {
    let storeURL: URL
    let options: SecretStore.Options
    /// The benchmark's own handle; `nil` while ``timeOpens(repetitions:probe:)`` runs and
    /// between ``close()`` and ``reopen()``.
    private var handle: SecretStore?
    var store: SecretStore { handle! }

    static let applicationIdentifier = "bench.app"
    static let entitlements = Entitlements(applicationIdentifier: applicationIdentifier)

    init(storeURL: URL, deviceKeyURL: URL) throws {
        self.storeURL = storeURL
        options = Self.options(deviceKeyURL: deviceKeyURL)
        handle = try SecretStore(at: storeURL, options: options)
    }

    /// How every SecStore handle of the benchmark opens its store, in this process or a worker.
    static func options(deviceKeyURL: URL) -> SecretStore.Options {
        SecretStore.Options(access: .entitled(entitlements), deviceKeyURL: deviceKeyURL)
    }

    /// Releases the benchmark's handle: with no other handle open, SQLite checkpoints the
    /// write-ahead log into the file and removes it.
    func close() {
        handle = nil
    }

    func reopen() throws {
        if handle == nil { handle = try SecretStore(at: storeURL, options: options) }
    }

    /// Adds items `0..<count` of a store of `size` items with `store.write { }`,
    /// ``Workload/batchSize`` per transaction.
    func fill(count: Int, size: Int) throws {
        var index = 0
        while index < count {
            let end = min(count, index + Workload.batchSize)
            try store.write { transaction in
                while index < end {
                    try transaction.add(.genericPassword(service: Workload.service(index, size: size),
                                                         account: Workload.account(index),
                                                         data: Data(Workload.secret(index))))
                    index += 1
                }
            }
        }
    }

    /// One read by the typed query path; returns the secret's first byte for a checksum.
    @inline(never)  // one symbol per read side, so profilers can attribute each
    func read(service: String, account: String) throws -> UInt8 {
        let found = try store.items(matching: Query(service: service, account: account, returning: .data))
        return found[0].data?.first ?? 0
    }

    /// One read by the one-line API, `data(forAccount:service:)`.
    @inline(never)  // one symbol per read side, so profilers can attribute each
    func readConvenience(service: String, account: String) throws -> UInt8 {
        try store.data(forAccount: account, service: service)?.first ?? 0
    }

    /// A lookup by service + account of an item that does not exist, by the typed path
    /// (`items(matching:)` throws `itemNotFound`). Returns 1 for the miss.
    @inline(never)  // one symbol per read side, so profilers can attribute each
    func readMiss(service: String, account: String) throws -> UInt8 {
        do {
            _ = try store.items(matching: Query(service: service, account: account, returning: .data))
        } catch let error as SecStoreError where error.code == .itemNotFound {
            return 1
        }
        throw BenchmarkError("SecStore: an item that was never added was found")
    }

    /// Every item of `service` with its attributes (`limit: .all`); returns how many.
    @inline(never)
    func list(service: String) throws -> Int {
        try store.items(matching: Query(service: service, limit: .all, returning: .attributes)).count
    }

    /// The persistent reference of each item in `indexes`, as `kSecValuePersistentRef` data.
    func persistentReferences(_ indexes: [Int], size: Int) throws -> [Data] {
        try indexes.map { index in
            let found = try store.items(matching: Query(service: Workload.service(index, size: size),
                                                        account: Workload.account(index),
                                                        returning: .persistentReference))
            guard let reference = found.first?.persistentReference else {
                throw BenchmarkError("SecStore: item \(index) returned no persistent reference")
            }
            return reference.data
        }
    }

    /// Reads item `index` and checks its secret: the warm-up's correctness check.
    func verify(_ index: Int, size: Int) throws {
        let found = try store.items(matching: Query(service: Workload.service(index, size: size),
                                                    account: Workload.account(index), returning: .data))
        guard found.count == 1, found[0].data == Data(Workload.secret(index)) else {
            throw BenchmarkError("SecStore: item \(index) read back a different secret")
        }
    }

    /// One `store.add`: its own durable transaction.
    func durableAdd(_ number: Int) throws {
        try store.add(.genericPassword(service: "durable", account: "durable-\(number)",
                                       data: Data(Workload.secret(number))))
    }

    /// One `store.update` of a durable add's secret: its own durable transaction.
    func durableUpdate(_ number: Int) throws {
        try store.update(matching: Query(service: "durable", account: "durable-\(number)"),
                         with: ItemChanges(data: Data(Workload.secret(number &+ 1))))
    }

    /// One `store.delete` of a durable add: its own durable transaction.
    func durableDelete(_ number: Int) throws {
        try store.delete(matching: Query(service: "durable", account: "durable-\(number)"))
    }

    /// Open timings, in nanoseconds.
    struct OpenTimes {
        /// No other handle open: what an app launch pays.
        var alone: [Double] = []
        /// The same plus the first typed read on the new handle.
        var aloneThenRead: [Double] = []
        /// While another handle (this benchmark's own) keeps the store open.
        var besideOpenHandle: [Double] = []
    }

    /// Times `repetitions` opens of the existing store with the device key, each new handle
    /// released before the next open: first with no other handle open in this process (the
    /// benchmark's own is closed, then reopened), then beside the benchmark's own handle.
    /// `probe` is the item the first read after each lone open fetches and checks.
    func timeOpens(repetitions: Int, probe index: Int, size: Int) throws -> OpenTimes {
        var times = OpenTimes()
        let query = Query(service: Workload.service(index, size: size), account: Workload.account(index), returning: .data)
        let expected = Data(Workload.secret(index))
        handle = nil
        defer { if handle == nil { handle = try? SecretStore(at: storeURL, options: options) } }
        for _ in 0..<repetitions {
            let start = monotonicNanoseconds()
            let opened = try SecretStore(at: storeURL, options: options)
            let afterOpen = monotonicNanoseconds()
            let found = try opened.items(matching: query)
            let afterRead = monotonicNanoseconds()
            guard found[0].data == expected else {
                throw BenchmarkError("SecStore: a freshly opened store read back a different secret")
            }
            times.alone.append(Double(afterOpen - start))
            times.aloneThenRead.append(Double(afterRead - start))
        }
        handle = try SecretStore(at: storeURL, options: options)
        for _ in 0..<repetitions {
            var opened: SecretStore?
            times.besideOpenHandle.append(Double(try measureNanoseconds {
                opened = try SecretStore(at: storeURL, options: options)
            }))
            withExtendedLifetime(opened) {}
        }
        return times
    }
}

import Foundation
import KeychainServices
import SecStore
#if canImport(Glibc)
import Glibc
#endif

/// A fixed cycle of point reads one reader repeats: `count` random items of a store of
/// `size` items, with the first byte each must return. Built before the timed window.
struct ReadRing: Sendable {
    let services: [String]
    let accounts: [String]
    let firstBytes: [UInt8]

    static let count = 4_096

    init(size: Int, seed: UInt64) {
        let order = Workload.readOrder(count: Self.count, size: size, seed: seed)
        services = order.map { Workload.service($0, size: size) }
        accounts = order.map(Workload.account)
        firstBytes = order.map { Workload.secret($0)[0] }
    }
}

/// What one reader or writer did in its window.
struct WorkerTally: Sendable {
    var operations = 0
    var errors = 0
}

/// The loops the concurrency measurements run, in a thread of this process or in a worker
/// process (``WorkerCommand``): typed reads by service + account (secret returned, checked),
/// or durable updates, each its own transaction, from `start` to `end` (monotonic ns).
enum WorkerLoops {
    /// The items the writer rewrites: service `writer`, accounts `w-0` … `w-99`.
    static let writerService = "writer"
    static let writerItems = 100

    static func read(store: SecretStore, ring: ReadRing, start: UInt64, end: UInt64) -> WorkerTally {
        repeating(from: start, to: end) { operation in
            let next = operation % ReadRing.count
            let found = try store.items(matching: Query(service: ring.services[next], account: ring.accounts[next],
                                                        returning: .data))
            return found.first?.data?.first == ring.firstBytes[next]
        }
    }

    static func write(store: SecretStore, start: UInt64, end: UInt64) -> WorkerTally {
        repeating(from: start, to: end) { operation in
            try update(store: store, number: operation)
            return true
        }
    }

    /// Runs `operation` (given its number) again and again from `start` to `end` (monotonic
    /// ns); one that throws or answers false counts as an error.
    static func repeating(from start: UInt64, to end: UInt64, _ operation: (Int) throws -> Bool) -> WorkerTally {
        sleep(untilMonotonic: start)
        var tally = WorkerTally()
        while monotonicNanoseconds() < end {
            if (try? operation(tally.operations)) != true { tally.errors += 1 }
            tally.operations += 1
        }
        return tally
    }

    static func update(store: SecretStore, number: Int) throws {
        try store.update(matching: Query(service: writerService, account: "w-\(number % writerItems)"),
                         with: ItemChanges(data: Data(Workload.secret(number))))
    }

    /// Adds the writer's items (one transaction), before any writer runs.
    static func addWriterItems(to store: SecretStore) throws {
        try store.write { transaction in
            for number in 0..<writerItems {
                try transaction.add(.genericPassword(service: writerService, account: "w-\(number)",
                                                     data: Data(Workload.secret(number))))
            }
        }
    }
}

/// Aggregate read throughput of several readers on one store: threads sharing the
/// benchmark's handle, or processes with a handle each; and one reader while a writer
/// process commits in a loop.
struct ConcurrencyMeasurement {
    let storeURL: URL
    let deviceKeyURL: URL
    let size: Int
    let store: SecretStore
    let window: UInt64
    static let counts = [1, 2, 4]
    static let seed: UInt64 = 0x5EC5_7012_E000_0100
    /// Time between giving the start time and the start, so every reader is waiting.
    static let startDelay: UInt64 = 50_000_000

    /// Every figure is the median of this many windows, the counts taken in turn (1, 2, 4,
    /// 1, 2, 4, …) so that a noisy moment on the machine (a VM's neighbours) spoils one
    /// window of one count, not a verdict.
    static let rounds = 3

    func run() throws -> ConcurrencyResult {
        let threads = try medianRates { try inThreads($0) }
        let processes = try medianRates { try inProcesses($0) }
        var pairs: [(alone: Double, withWriter: Double, commits: Double)] = []
        for _ in 0..<Self.rounds {
            let alone = try inThreads(1)
            let (withWriter, commits) = try besideWriter()
            pairs.append((alone, withWriter, commits))
        }
        // The round with the median slowdown, whole: its three figures belong together.
        let (alone, withWriter, commits) = pairs.sorted { $0.alone / $0.withWriter < $1.alone / $1.withWriter }[pairs.count / 2]
        return ConcurrencyResult(
            windowNanoseconds: Double(window), cores: ProcessInfo.processInfo.activeProcessorCount,
            threads: threads, processes: processes,
            readerAloneReadsPerSecond: alone, readerBesideWriterReadsPerSecond: withWriter,
            writerCommitsPerSecond: commits, writerSlowdown: alone / withWriter)
    }

    /// Each count's median rate over ``rounds`` windows, the counts measured in turn.
    private func medianRates(_ measure: (Int) throws -> Double) throws -> [ReaderRate] {
        var rates = Array(repeating: [Double](), count: Self.counts.count)
        for _ in 0..<Self.rounds {
            for (index, count) in Self.counts.enumerated() { rates[index].append(try measure(count)) }
        }
        return zip(Self.counts, rates).map { ReaderRate(readers: $0, readsPerSecond: $1.sorted()[$1.count / 2]) }
    }

    /// Reads per second of `count` threads sharing `store`, all in one window.
    private func inThreads(_ count: Int) throws -> Double {
        let start = monotonicNanoseconds() + Self.startDelay
        let tally = try readInThreads(count, start: start, end: start + window)
        return Double(tally.operations) * 1e9 / Double(window)
    }

    private func readInThreads(_ count: Int, start: UInt64, end: UInt64) throws -> WorkerTally {
        let results = TallyBox()
        let finished = DispatchSemaphore(value: 0)
        for number in 0..<count {
            let ring = ReadRing(size: size, seed: Self.seed &+ UInt64(number))
            let store = self.store
            let thread = Thread {
                results.add(WorkerLoops.read(store: store, ring: ring, start: start, end: end))
                finished.signal()
            }
            thread.start()
        }
        for _ in 0..<count { finished.wait() }
        let tally = results.total
        guard tally.errors == 0 else {
            throw BenchmarkError("concurrent reads: \(tally.errors) of \(tally.operations) failed or returned a wrong secret")
        }
        return tally
    }

    /// Reads per second of `count` worker processes, each with its own handle.
    private func inProcesses(_ count: Int) throws -> Double {
        let workers = try (0..<count).map { number in try startWorker(.read, seed: Self.seed &+ 0x100 &+ UInt64(number)) }
        for worker in workers { _ = try worker.expect("ready") }
        let start = monotonicNanoseconds() + Self.startDelay
        for worker in workers { try worker.send("\(start) \(start + window)") }
        var tally = WorkerTally()
        for worker in workers {
            let words = try worker.expect("done")
            guard words.count == 2, let operations = Int(words[0]), let errors = Int(words[1]) else {
                throw BenchmarkError("worker \(worker.pid): malformed result \(words)")
            }
            tally.operations += operations
            tally.errors += errors
            try worker.finish()
        }
        guard tally.errors == 0 else {
            throw BenchmarkError("reader processes: \(tally.errors) of \(tally.operations) reads failed or returned a wrong secret")
        }
        return Double(tally.operations) * 1e9 / Double(window)
    }

    /// One reader thread here while a writer process commits updates in a loop: the
    /// reader's reads per second and the writer's commits per second.
    private func besideWriter() throws -> (Double, Double) {
        let writer = try startWorker(.write, seed: Self.seed &+ 0x200)
        _ = try writer.expect("ready")
        let start = monotonicNanoseconds() + Self.startDelay
        try writer.send("\(start) \(start + window)")
        let reads = try readInThreads(1, start: start, end: start + window)
        let words = try writer.expect("done")
        guard words.count == 2, let commits = Int(words[0]), let errors = Int(words[1]) else {
            throw BenchmarkError("writer \(writer.pid): malformed result \(words)")
        }
        try writer.finish()
        guard errors == 0 else { throw BenchmarkError("writer process: \(errors) of \(commits) updates failed") }
        return (Double(reads.operations) * 1e9 / Double(window), Double(commits) * 1e9 / Double(window))
    }

    private func startWorker(_ role: WorkerCommand.Role, seed: UInt64) throws -> Subprocess.Child {
        try Subprocess.start(Subprocess.currentExecutable, WorkerCommand.arguments(
            role: role, storePath: storeURL.path, deviceKeyPath: deviceKeyURL.path, size: size, seed: seed))
    }
}

/// Per-thread tallies, summed under a lock.
private final class TallyBox: @unchecked Sendable {
    private let lock = NSLock()
    private var sum = WorkerTally()

    func add(_ tally: WorkerTally) {
        lock.withLock {
            sum.operations += tally.operations
            sum.errors += tally.errors
        }
    }

    var total: WorkerTally { lock.withLock { sum } }
}

/// `secstore-benchmark --worker ROLE --store PATH --device-key PATH --size N --seed S`:
/// the hidden mode the concurrency measurements start as separate processes. It opens the
/// store as the benchmark does, warms up (reads checked against the stored secrets, or two
/// updates), prints `ready`, reads one line `START END` (monotonic nanoseconds) from standard
/// input, runs its loop (``WorkerLoops``) in that window and prints `done OPERATIONS ERRORS`.
///
/// Besides `read` and `write`, five roles exist for profilers only (`docs/performance.md`,
/// "Profiles"): `list` lists one service with attributes (`items(matching:)`, `.all`),
/// `secitem-read` runs `SecItemCopyMatching` by service + account returning data,
/// `secitem-list` lists one service with attributes through it, `secitem-miss` asks it for
/// absent accounts, and `bulk-add` commits transactions of 100 adds, each in the same loop, so
/// `perf` or `callgrind` sees one path and nothing else. `--threads N` runs the loop in N
/// threads of the one process, on one handle, as the in-process concurrency figure does.
enum WorkerCommand {
    static let flag = "--worker"

    enum Role: String, CaseIterable {
        case read, write
        case list
        case secItemRead = "secitem-read"
        case secItemList = "secitem-list"
        case secItemMiss = "secitem-miss"
        case bulkAdd = "bulk-add"
    }

    static func arguments(role: Role, storePath: String, deviceKeyPath: String, size: Int, seed: UInt64) -> [String] {
        [flag, role.rawValue, "--store", storePath, "--device-key", deviceKeyPath, "--size", String(size), "--seed", String(seed)]
    }

    /// One line on standard output, unbuffered: the benchmark waits for it.
    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Runs the worker; returns its exit status.
    static func run(_ arguments: [String]) -> Int32 {
        // As the benchmark's own process does (BenchmarkRun).
        _ = SQLiteProcessSettings.made
        var values: [String: String] = [:]
        var remaining = arguments[...]
        while let name = remaining.popFirst() {
            guard let value = remaining.popFirst() else {
                progress("secstore-benchmark worker: \(name) needs a value")
                return 2
            }
            values[name] = value
        }
        guard let role = values[flag].flatMap(Role.init(rawValue:)), let storePath = values["--store"],
              let deviceKeyPath = values["--device-key"], let size = values["--size"].flatMap({ Int($0) }),
              let seed = values["--seed"].flatMap({ UInt64($0) })
        else {
            let roles = Role.allCases.map(\.rawValue).joined(separator: "|")
            progress("secstore-benchmark worker: usage: --worker \(roles) --store PATH --device-key PATH --size N --seed S [--threads N]")
            return 2
        }
        do {
            let loop = try prepare(role, storeURL: URL(filePath: storePath), deviceKeyURL: URL(filePath: deviceKeyPath),
                                   ring: ReadRing(size: size, seed: seed))
            say("ready")
            guard let line = Swift.readLine(), case let words = line.split(separator: " "), words.count == 2,
                  let start = UInt64(words[0]), let end = UInt64(words[1])
            else { throw BenchmarkError("expected \"START END\" on standard input") }
            let tally = inThreads(values["--threads"].flatMap { Int($0) } ?? 1) { loop(start, end) }
            say("done \(tally.operations) \(tally.errors)")
            return 0
        } catch {
            progress("secstore-benchmark worker: \(error)")
            return 1
        }
    }

    /// `loop` run by `count` threads at once (`--threads N`, for profiling how the in-process
    /// figures scale), their tallies added up.
    private static func inThreads(_ count: Int, _ loop: @escaping () -> WorkerTally) -> WorkerTally {
        guard count > 1 else { return loop() }
        // The roles' loops share a `SecretStore`, which is made for use from any thread.
        nonisolated(unsafe) let loop = loop
        let results = TallyBox()
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<count {
            Thread {
                results.add(loop())
                finished.signal()
            }.start()
        }
        for _ in 0..<count { finished.wait() }
        return results.total
    }

    /// Opens what `role` works on, warms it up, and returns its loop over a window.
    private static func prepare(_ role: Role, storeURL: URL, deviceKeyURL: URL,
                                ring: ReadRing) throws -> (_ start: UInt64, _ end: UInt64) -> WorkerTally {
        let openStore = { try SecretStore(at: storeURL, options: StoreWorkload.options(deviceKeyURL: deviceKeyURL)) }
        switch role {
        case .read:
            let store = try openStore()
            for next in 0..<500 {
                let index = next % ReadRing.count
                let found = try store.items(matching: Query(service: ring.services[index], account: ring.accounts[index],
                                                            returning: .data))
                guard found.first?.data?.first == ring.firstBytes[index] else {
                    throw BenchmarkError("a warm-up read returned a different secret")
                }
            }
            return { WorkerLoops.read(store: store, ring: ring, start: $0, end: $1) }
        case .write:
            let store = try openStore()
            for number in 0..<2 { try WorkerLoops.update(store: store, number: number) }
            return { WorkerLoops.write(store: store, start: $0, end: $1) }
        case .bulkAdd:
            // Transactions of 100 adds, of items no other role reads (service `bulk`, accounts
            // numbered from the moment the worker starts): the fill's per-item work.
            let store = try openStore()
            let first = Int(monotonicNanoseconds() % 1_000_000_000_000)
            return { WorkerLoops.repeating(from: $0, to: $1) { batch in
                try store.write { transaction in
                    for item in 0..<100 {
                        let number = first + batch * 100 + item
                        try transaction.add(.genericPassword(service: "bulk", account: "b-\(number)",
                                                             data: Data(Workload.secret(number))))
                    }
                }
                return true
            } }
        case .list:
            let store = try openStore()
            let query = Query(service: ring.services[0], limit: .all, returning: .attributes)
            for _ in 0..<20 { _ = try store.items(matching: query) }
            return { WorkerLoops.repeating(from: $0, to: $1) { _ in try !store.items(matching: query).isEmpty } }
        case .secItemRead, .secItemList, .secItemMiss:
            // The default store pointed at the size's store, as ``SecItemWorkload`` does; the
            // dictionaries built before the window (a miss asks for an absent account of a
            // service that exists, as the benchmark's misses do).
            SecItemWorkload.configure(storeURL: storeURL, deviceKeyURL: deviceKeyURL)
            let queries: [CFDictionary]
            let operation: (CFDictionary) throws -> Int
            switch role {
            case .secItemRead:
                queries = zip(ring.services, ring.accounts).map { SecItemWorkload.dataQuery(service: $0, account: $1) }
                operation = { Int(try SecItemWorkload.readData($0)) }
            case .secItemMiss:
                queries = ring.services.indices.map { SecItemWorkload.dataQuery(service: ring.services[$0], account: "absent-\($0)") }
                operation = { Int(try SecItemWorkload.readMiss($0)) }
            default:
                queries = [SecItemWorkload.listQuery(service: ring.services[0])]
                operation = { try SecItemWorkload.list($0) }
            }
            for query in queries.prefix(500) { _ = try operation(query) }
            return { WorkerLoops.repeating(from: $0, to: $1) { number in
                _ = try operation(queries[number % queries.count])
                return true
            } }
        }
    }
}

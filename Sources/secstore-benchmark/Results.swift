import Foundation

/// Everything measured at one store size. Times are nanoseconds unless the name says otherwise.
struct SizeResult: Codable {
    var items: Int
    /// Random point reads per round; each read figure is the median over the rounds of the
    /// round's mean.
    var readsPerRound: Int
    var rounds: Int

    var baselineReadNanoseconds: Double
    /// `store.items(matching: Query(service:account:returning: .data))`.
    var storeReadNanoseconds: Double
    /// `store.data(forAccount:service:)`, one round.
    var convenienceReadNanoseconds: Double
    /// Derived from the two above; stored so that the JSON carries them.
    var storeReadsPerSecond: Double
    var readRatio: Double
    /// The same reads in thread CPU time: steadier than wall time on a shared machine.
    var baselineReadCPUNanoseconds: Double
    var storeReadCPUNanoseconds: Double

    /// `SecItemCopyMatching` by service + account returning `Data` (kSecReturnData).
    var secItemReadNanoseconds: Double
    var secItemReadCPUNanoseconds: Double
    /// ``secItemReadNanoseconds`` over the typed read and over the baseline.
    var secItemToTypedRatio: Double
    var secItemToBaselineRatio: Double
    /// The same returning attributes and data (kSecReturnAttributes + kSecReturnData).
    var secItemAttributesAndDataReadNanoseconds: Double
    /// By `kSecValuePersistentRef`, returning `Data`.
    var secItemPersistentReferenceReadNanoseconds: Double
    /// A lookup of an absent item: the baseline (a key never inserted), the typed path
    /// (`items(matching:)` throwing `itemNotFound`) and `SecItemCopyMatching`
    /// (`errSecItemNotFound`); the last over the first.
    var baselineMissNanoseconds: Double
    var storeMissNanoseconds: Double
    var secItemMissNanoseconds: Double
    var secItemMissRatio: Double

    /// Every item of one service with attributes (``Workload/listedService``): how many,
    /// and the median over the rounds of the time per item, typed (`limit: .all`) and by
    /// `SecItemCopyMatching` (`kSecMatchLimitAll`).
    var listedItems: Int
    var typedListPerItemNanoseconds: Double
    var secItemListPerItemNanoseconds: Double

    /// Baseline rows inserted per second, 10,000 per transaction.
    var baselineFillItemsPerSecond: Double
    /// `store.write { $0.add(...) }`, 10,000 items per transaction.
    var bulkAddItemsPerSecond: Double
    /// ``bulkAddItemsPerSecond`` over ``baselineFillItemsPerSecond``.
    var bulkAddRatio: Double

    /// How many of each durable write were timed: `store.add`, `store.update` and
    /// `store.delete`, each its own transaction (synchronous=FULL), interleaved with the
    /// baseline's autocommit `INSERT`, `UPDATE` and `DELETE`.
    var durableAdds: Int
    var durableAddMedianNanoseconds: Double
    var durableAddMeanNanoseconds: Double
    var durableUpdateMedianNanoseconds: Double
    var durableDeleteMedianNanoseconds: Double
    /// One autocommit `INSERT` in the baseline file: the fsync floor every durable write is
    /// judged against.
    var baselineDurableInsertMedianNanoseconds: Double
    var baselineDurableUpdateMedianNanoseconds: Double
    var baselineDurableDeleteMedianNanoseconds: Double
    /// Mean pages (WAL frames) each kind of commit wrote; `nil` when a `-shm` file could not be read.
    var pagesPerCommit: PagesPerCommit?

    /// Aggregate read throughput with several readers, and a reader beside a writer.
    var concurrency: ConcurrencyResult

    /// One `secstore get` process on this size's store, no other handle open (the process
    /// creates the write-ahead log and checkpoints and removes it at exit); `nil` when the
    /// tool was not found.
    var getCommand: ProcessTiming?
    /// The same while the benchmark keeps a handle open on the store.
    var getCommandBesideOpenHandle: ProcessTiming?

    /// `SecretStore(at:options:)` on the existing store with no other handle open: median
    /// and slowest of ``opens``.
    var opens: Int
    var openMedianNanoseconds: Double
    var openMaxNanoseconds: Double
    /// Open plus the first typed read on the new handle (median).
    var openAndFirstReadMedianNanoseconds: Double
    /// The same open while another handle keeps the store open (median).
    var openBesideOpenHandleMedianNanoseconds: Double

    /// Process memory after this size was filled and measured (both files still open), once
    /// `malloc_trim(0)` has handed freed heap back to the kernel (the measurements' own
    /// buffers, such as the prebuilt query dictionaries, are freed by then).
    var memory: MemoryStatus?
    /// The store file and the baseline file after every write was checkpointed into them
    /// (the store's last handle closed, the baseline's `wal_checkpoint(TRUNCATE)`), plus any
    /// `-wal` left; and the first over the second.
    var storeFileBytes: Int64
    var baselineFileBytes: Int64
    var fileSizeRatio: Double
}

/// Mean WAL frames (pages) written per commit (``WALIndex``).
struct PagesPerCommit: Codable {
    var add: Double
    var update: Double
    var delete: Double
    var baselineInsert: Double
    var baselineUpdate: Double
    var baselineDelete: Double
}

/// Aggregate reads per second of `readers` readers in one window.
struct ReaderRate: Codable {
    var readers: Int
    var readsPerSecond: Double
}

/// Reads by service + account (secret returned) on one store, by several readers at once:
/// threads of this process sharing one handle, and processes with a handle each; and one
/// reader thread alone, then while a writer process commits updates in a loop.
struct ConcurrencyResult: Codable {
    var windowNanoseconds: Double
    var cores: Int
    var threads: [ReaderRate]
    var processes: [ReaderRate]
    var readerAloneReadsPerSecond: Double
    var readerBesideWriterReadsPerSecond: Double
    var writerCommitsPerSecond: Double
    /// Alone over beside the writer: how much the writer slows the reader.
    var writerSlowdown: Double
}

/// Whole-process runs of the `secstore` tool.
struct ProcessTiming: Codable {
    var runs: Int
    var medianWallNanoseconds: Double
    var minimumWallNanoseconds: Double
    /// The child's user + system CPU time (`wait4`).
    var medianCPUNanoseconds: Double
}

extension ProcessTiming {
    /// The summary of timed runs (at least one).
    init(_ timed: [Subprocess.Run]) {
        precondition(!timed.isEmpty, "a process timing needs at least one timed run")
        let wall = timed.map { Double($0.wallNanoseconds) }
        self.init(runs: timed.count, medianWallNanoseconds: median(wall), minimumWallNanoseconds: wall.min()!,
                  medianCPUNanoseconds: median(timed.map { Double($0.cpuNanoseconds) }))
    }
}

/// The `secstore` tool's timings that do not depend on the store size.
struct CommandLineResult: Codable {
    /// The executable measured, or `nil` with ``note`` saying why nothing was.
    var executable: String?
    var note: String?
    /// `secstore --version`: the start-up floor.
    var version: ProcessTiming?
    /// `secstore list --json` of ``listItems`` items (a store of its own, the same device key).
    var listItems: Int
    var list: ProcessTiming?
}

/// The Secret Service provider over a private bus (issue 17; ``SecretServiceTimings``), once
/// per run. Every measurement is `nil` when ``note`` says why nothing was measured.
struct SecretServiceResult: Codable {
    var note: String?
    /// Secret Service items in the provider's store.
    var items: Int
    /// `SearchItems` (one attribute pair) + `GetSecrets` from this process over sd-bus, each
    /// timed alone: the median and mean per lookup.
    var lookups: Int
    var lookupMedianNanoseconds: Double?
    var lookupMeanNanoseconds: Double?
    /// `secret-tool lookup attribute value` as a whole process.
    var secretToolRuns: Int
    var secretTool: ProcessTiming?
}

/// Sync of synchronizable items between two devices over a real 3-member etcd cluster
/// (issue 18; ``SyncTimings``), once per run. Every measurement is `nil` when ``note`` says
/// why nothing was measured. There is no target: the numbers are reported as they are.
struct SyncResult: Codable, Sendable {
    var note: String?
    /// Synchronizable items device A starts with; etcd members.
    var items: Int
    var members: Int
    /// `SyncEngine.createCircle` on A's filled store (it puts every item in the outbox).
    var circleCreateSeconds: Double?
    /// A's passes until every item was in etcd: time, items pushed, passes, items per second.
    var pushSeconds: Double?
    var pushed: Int?
    var pushPasses: Int?
    var pushItemsPerSecond: Double?
    /// B's join request and A's approval (Argon2id on both sides): not part of convergence.
    var joinSeconds: Double?
    /// B's passes (normally its first alone) until every record was applied.
    var pullSeconds: Double?
    var applied: Int?
    var pullPasses: Int?
    var pullItemsPerSecond: Double?
    /// Push + pull.
    var convergenceSeconds: Double?
    /// Items B holds with their secret afterwards, and whether that is all of them.
    var convergedItems: Int?
    var converged: Bool?
    /// A updates one item and passes, then B passes: the time from the update to B holding
    /// it, ``roundTrips`` times; failures count the times B did not have the new secret.
    var roundTrips: Int
    var roundTripMedianMilliseconds: Double?
    var roundTripMaximumMilliseconds: Double?
    var roundTripFailures: Int?
}

/// One design target and how this run did against it.
struct TargetResult: Codable {
    enum Status: String, Codable {
        case pass = "PASS", fail = "FAIL", report = "REPORT", notMeasured = "N/A"
    }
    var target: String
    var measured: String
    var status: Status
}

/// The machine and libraries the numbers came from.
struct MachineInfo: Codable {
    var cores: Int
    var cpu: String
    var kernel: String
    var sqlite: String
    var libsodium: String
    /// `/proc/loadavg` (1, 5, 15 minutes) when the run started and when it ended: other
    /// work on the machine shows up in absolute times more than in the ratios.
    var loadAverageAtStart: String
    var loadAverageAtEnd: String
    /// "off" when SQLite counted no memory during the run: the benchmark turns its memory
    /// statistics off first thing, as docs/concurrency.md advises a program that reads from
    /// several threads (``BenchmarkRun``); "on" if that did not take.
    var sqliteMemoryStatistics: String
    /// "adaptive" when SQLite took ``SQLiteProcessSettings``' mutexes, else "SQLite's own".
    var sqliteMutexes: String
}

/// The whole run: what `--json` prints.
struct BenchmarkSummary: Codable {
    var date: String
    var machine: MachineInfo
    var sizes: [SizeResult]
    var commandLine: CommandLineResult
    var secretService: SecretServiceResult
    var sync: SyncResult
    /// SecStore read time at the largest size over the smallest.
    var readGrowth: ReadGrowth?
    var targets: [TargetResult]

    struct ReadGrowth: Codable {
        var fromItems: Int
        var toItems: Int
        var ratio: Double
    }
}

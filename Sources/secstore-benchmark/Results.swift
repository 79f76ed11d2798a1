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
}

/// The whole run: what `--json` prints.
struct BenchmarkSummary: Codable {
    var date: String
    var machine: MachineInfo
    var sizes: [SizeResult]
    var commandLine: CommandLineResult
    var secretService: SecretServiceResult
    /// SecStore read time at the largest size over the smallest.
    var readGrowth: ReadGrowth?
    var targets: [TargetResult]

    struct ReadGrowth: Codable {
        var fromItems: Int
        var toItems: Int
        var ratio: Double
    }
}

/// Issue 13's targets, and the design brief's that still apply (docs/performance.md
/// explains each). Ratios are taken within the run; "every size" shows the worst size.
enum Targets {
    static let secItemToTypedRatio = 1.3
    static let secItemToBaselineRatio = 2.0
    static let secItemMissRatio = 1.5
    static let readRatio = 1.6
    static let readsPerSecondAt100k = 40_000.0
    static let growthRatio = 1.4
    static let listPerItemNanoseconds = 3_000.0
    static let listCommandNanoseconds = 300_000_000.0
    static let durableWriteRatio = 1.2
    static let bulkAddRatio = 0.4
    static let fileSizeRatio = 2.0
    static let concurrencyEfficiency = 0.8
    static let writerSlowdown = 1.5
    static let getCommandNanoseconds = 8_000_000.0
    static let getCommandItems = 100_000
    static let openNanoseconds = 2_000_000.0
    /// Issue 17: one lookup over the bus, `SearchItems` + `GetSecrets`.
    static let busLookupNanoseconds = 1_000_000.0
    /// Issue 17's reference: `secret-tool lookup` against GNOME Keyring on this kind of machine.
    static let gnomeKeyringSecretToolNanoseconds = 22_000_000.0
    /// "Flat" memory: resident memory may grow by the bounded SQLite page caches of the open
    /// connections (about 2 MiB each by default) and allocator slack, never with the file.
    /// Growth from the smallest to the largest size must stay under this many bytes…
    static let memoryGrowthBytes = 16.0 * 1_048_576
    /// …and under this fraction of the largest store file. Below ``memoryMinimumFileBytes``
    /// the file is too small to tell a whole-file load from cache growth.
    static let memoryFileFraction = 0.5
    static let memoryMinimumFileBytes = 32.0 * 1_048_576

    static func evaluate(_ sizes: [SizeResult], commandLine: CommandLineResult, secretService: SecretServiceResult,
                         growth: BenchmarkSummary.ReadGrowth?) -> [TargetResult] {
        guard let smallest = sizes.first, let largest = sizes.last else { return [] }
        var results: [TargetResult] = []

        /// A ratio judged at every size: `value ≤ limit` (or `≥` when `atLeast`); shows the
        /// worst size and every size's value.
        func everySize(_ target: String, limit: Double, atLeast: Bool = false,
                       _ value: (SizeResult) -> Double, detail: (SizeResult) -> String = { _ in "" }) {
            let worst = atLeast ? sizes.min { value($0) < value($1) }! : sizes.max { value($0) < value($1) }!
            let all = sizes.map { "\(format(value($0)))× at \(count($0.items))\(detail($0))" }.joined(separator: ", ")
            let passed = atLeast ? value(worst) >= limit : value(worst) <= limit
            results.append(TargetResult(target: target, measured: all, status: passed ? .pass : .fail))
        }

        // Apple API reads.
        everySize("SecItemCopyMatching service+account → data ≤ \(format(secItemToTypedRatio))× typed read (every size)",
                  limit: secItemToTypedRatio, \.secItemToTypedRatio,
                  detail: { " (\(duration($0.secItemReadNanoseconds)) vs \(duration($0.storeReadNanoseconds)))" })
        everySize("SecItemCopyMatching service+account → data ≤ \(format(secItemToBaselineRatio))× raw baseline (every size)",
                  limit: secItemToBaselineRatio, \.secItemToBaselineRatio,
                  detail: { " (vs \(duration($0.baselineReadNanoseconds)))" })
        everySize("SecItemCopyMatching miss ≤ \(format(secItemMissRatio))× the baseline's miss (every size)",
                  limit: secItemMissRatio, \.secItemMissRatio,
                  detail: { " (\(duration($0.secItemMissNanoseconds)) vs \(duration($0.baselineMissNanoseconds)))" })
        results.append(TargetResult(
            target: "SecItemCopyMatching → attributes+data, and by persistent reference → data (reported)",
            measured: sizes.map {
                "\(duration($0.secItemAttributesAndDataReadNanoseconds)) and \(duration($0.secItemPersistentReferenceReadNanoseconds)) at \(count($0.items))"
            }.joined(separator: ", "),
            status: .report))

        // Typed reads.
        everySize("typed read by service+account ≤ \(format(readRatio))× raw baseline (every size)",
                  limit: readRatio, \.readRatio,
                  detail: { " (\(duration($0.storeReadNanoseconds)) vs \(duration($0.baselineReadNanoseconds)))" })
        let growthTarget = "typed read at 1,000,000 items ≤ \(format(growthRatio))× read at 1,000"
        if let growth, growth.fromItems == 1_000, growth.toItems == 1_000_000 {
            results.append(TargetResult(target: growthTarget, measured: "\(format(growth.ratio))×",
                                        status: growth.ratio <= growthRatio ? .pass : .fail))
        } else {
            let seen = growth.map { "\(format($0.ratio))× from \(count($0.fromItems)) to \(count($0.toItems)); " } ?? ""
            results.append(TargetResult(target: growthTarget, measured: seen + "needs 1000 and --full",
                                        status: .notMeasured))
        }
        if let at100k = sizes.first(where: { $0.items == 100_000 }) {
            results.append(TargetResult(
                target: "typed reads/s ≥ \(count(Int(readsPerSecondAt100k))) at 100,000 items",
                measured: "\(count(Int(at100k.storeReadsPerSecond)))/s",
                status: at100k.storeReadsPerSecond >= readsPerSecondAt100k ? .pass : .fail))
        } else {
            results.append(TargetResult(target: "typed reads/s ≥ \(count(Int(readsPerSecondAt100k))) at 100,000 items",
                                        measured: "100,000 not in --sizes", status: .notMeasured))
        }

        // Listing.
        for (name, value) in [("typed items(matching:) .all", \SizeResult.typedListPerItemNanoseconds),
                              ("SecItemCopyMatching kSecMatchLimitAll", \SizeResult.secItemListPerItemNanoseconds)] {
            let target = "list one service with attributes, \(name), ≤ \(duration(listPerItemNanoseconds))/item (every size)"
            let judged = sizes.filter { $0.listedItems == Workload.itemsPerService }
            let measured = sizes.map { "\(duration($0[keyPath: value])) at \(count($0.items)) (\(count($0.listedItems)) listed)" }
                .joined(separator: ", ")
            let worst = judged.map { $0[keyPath: value] }.max()
            results.append(TargetResult(
                target: target, measured: measured + (judged.isEmpty ? "; needs a size that is a multiple of 1,000" : ""),
                status: worst.map { $0 <= listPerItemNanoseconds ? .pass : .fail } ?? .notMeasured))
        }
        let listTarget = "secstore list --json of \(count(commandLine.listItems)) items < \(format(listCommandNanoseconds / 1e9, decimals: 1)) s (whole process, median)"
        if let list = commandLine.list {
            results.append(TargetResult(
                target: listTarget,
                measured: "\(milliseconds(list.medianWallNanoseconds)) (\(duration(list.medianWallNanoseconds / Double(commandLine.listItems)))/item; CPU \(milliseconds(list.medianCPUNanoseconds)))",
                status: list.medianWallNanoseconds < listCommandNanoseconds ? .pass : .fail))
        } else {
            results.append(TargetResult(target: listTarget, measured: commandLine.note ?? "not measured", status: .notMeasured))
        }

        // Durable writes.
        for (name, value) in [("add", \SizeResult.durableAddMedianNanoseconds),
                              ("update", \SizeResult.durableUpdateMedianNanoseconds),
                              ("delete", \SizeResult.durableDeleteMedianNanoseconds)] {
            everySize("durable \(name) (own transaction) ≤ \(format(durableWriteRatio))× the baseline's fsync'd insert (every size)",
                      limit: durableWriteRatio, { $0[keyPath: value] / $0.baselineDurableInsertMedianNanoseconds },
                      detail: { " (\(duration($0[keyPath: value])) vs \(duration($0.baselineDurableInsertMedianNanoseconds)))" })
        }
        results.append(TargetResult(
            target: "pages written per commit, add/update/delete (baseline insert/update/delete; reported)",
            measured: sizes.map { size in
                guard let pages = size.pagesPerCommit else { return "n/a at \(count(size.items))" }
                return "\(format(pages.add, decimals: 1))/\(format(pages.update, decimals: 1))/\(format(pages.delete, decimals: 1)) "
                    + "(\(format(pages.baselineInsert, decimals: 1))/\(format(pages.baselineUpdate, decimals: 1))/\(format(pages.baselineDelete, decimals: 1))) at \(count(size.items))"
            }.joined(separator: ", "),
            status: .report))

        // Bulk add and file size.
        everySize("bulk add ≥ \(format(bulkAddRatio))× the baseline's bulk rate (every size)",
                  limit: bulkAddRatio, atLeast: true, \.bulkAddRatio,
                  detail: { " (\(count(Int($0.bulkAddItemsPerSecond)))/s vs \(count(Int($0.baselineFillItemsPerSecond)))/s)" })
        results.append(TargetResult(
            target: "store file ≤ \(format(fileSizeRatio))× the baseline's file at the largest size (issue 13: at 1,000,000)",
            measured: "\(format(largest.fileSizeRatio))× at \(count(largest.items)) (\(mebibytes(Double(largest.storeFileBytes))) vs \(mebibytes(Double(largest.baselineFileBytes))))",
            status: largest.fileSizeRatio <= fileSizeRatio ? .pass : .fail))

        // Concurrency.
        for (name, rates) in [("threads in one process", \ConcurrencyResult.threads),
                              ("processes", \ConcurrencyResult.processes)] {
            var passed = true
            var parts: [String] = []
            for size in sizes {
                let concurrency = size.concurrency
                let all = concurrency[keyPath: rates]
                guard let single = all.first(where: { $0.readers == 1 })?.readsPerSecond else { continue }
                let shown = all.map { rate -> String in
                    let scaling = rate.readsPerSecond / single
                    let needed = concurrencyEfficiency * Double(min(rate.readers, concurrency.cores))
                    if scaling < needed { passed = false }
                    return "\(rate.readers): \(format(scaling))×"
                }
                parts.append("\(shown.joined(separator: " ")) at \(count(size.items)) (1 reader \(count(Int(single)))/s)")
            }
            results.append(TargetResult(
                target: "aggregate reads, 1/2/4 \(name) ≥ \(format(concurrencyEfficiency, decimals: 1)) × min(n, cores) × one reader (every size)",
                measured: parts.joined(separator: "; "), status: passed ? .pass : .fail))
        }
        everySize("a writer committing in a loop slows a reader by ≤ \(format(writerSlowdown))× (every size)",
                  limit: writerSlowdown, { $0.concurrency.writerSlowdown },
                  detail: { " (\(count(Int($0.concurrency.writerCommitsPerSecond))) commits/s)" })

        // Command line.
        let getTarget = "one secstore get process ≤ \(milliseconds(getCommandNanoseconds)) at \(count(getCommandItems)) items (median of \(CommandLineTimings.getRuns))"
        if let at100k = sizes.first(where: { $0.items == getCommandItems }), let get = at100k.getCommand {
            var breakdown = ""
            if let version = commandLine.version {
                breakdown = "; start-up floor (secstore --version) \(milliseconds(version.medianWallNanoseconds)), "
                    + "open in-process \(milliseconds(at100k.openMedianNanoseconds)), the rest "
                    + milliseconds(max(0, get.medianWallNanoseconds - version.medianWallNanoseconds - at100k.openMedianNanoseconds))
            }
            if let beside = at100k.getCommandBesideOpenHandle {
                breakdown += "; beside an open handle \(milliseconds(beside.medianWallNanoseconds))"
            }
            results.append(TargetResult(
                target: getTarget,
                measured: "\(milliseconds(get.medianWallNanoseconds)) (CPU \(milliseconds(get.medianCPUNanoseconds)))\(breakdown)",
                status: get.medianWallNanoseconds <= getCommandNanoseconds ? .pass : .fail))
        } else {
            let reason = sizes.contains { $0.items == getCommandItems } ? (commandLine.note ?? "not measured") : "100,000 not in --sizes"
            results.append(TargetResult(target: getTarget, measured: reason, status: .notMeasured))
        }

        // Secret Service (issue 17).
        let lookupTarget = "Secret Service lookup over the bus (SearchItems + GetSecrets) ≤ \(milliseconds(busLookupNanoseconds)) (median of \(count(secretService.lookups)), \(count(secretService.items)) items)"
        if let lookup = secretService.lookupMedianNanoseconds {
            results.append(TargetResult(
                target: lookupTarget,
                measured: "\(duration(lookup)) (mean \(duration(secretService.lookupMeanNanoseconds ?? 0)))",
                status: lookup <= busLookupNanoseconds ? .pass : .fail))
        } else {
            results.append(TargetResult(target: lookupTarget, measured: secretService.note ?? "not measured", status: .notMeasured))
        }
        let secretToolTarget = "secret-tool lookup as a whole process, beside GNOME Keyring ~\(milliseconds(gnomeKeyringSecretToolNanoseconds)) (issue 17; reported)"
        if let tool = secretService.secretTool {
            results.append(TargetResult(
                target: secretToolTarget,
                measured: "\(milliseconds(tool.medianWallNanoseconds)) (fastest \(milliseconds(tool.minimumWallNanoseconds)), "
                    + "CPU \(milliseconds(tool.medianCPUNanoseconds)); median of \(tool.runs))",
                status: .report))
        } else {
            results.append(TargetResult(target: secretToolTarget, measured: secretService.note ?? "not measured", status: .report))
        }

        // Open and memory.
        let slowestOpen = sizes.max { $0.openMedianNanoseconds < $1.openMedianNanoseconds }!
        results.append(TargetResult(
            target: "open with the device key ≤ \(milliseconds(openNanoseconds)) (median, every size)",
            measured: sizes.map { "\(milliseconds($0.openMedianNanoseconds)) at \(count($0.items))" }.joined(separator: ", "),
            status: slowestOpen.openMedianNanoseconds <= openNanoseconds ? .pass : .fail))

        let memoryTarget = "memory flat as the store grows (RSS growth ≤ 16 MiB and ≤ half the store file)"
        if let first = smallest.memory, let last = largest.memory, sizes.count > 1,
           Double(largest.storeFileBytes) >= memoryMinimumFileBytes {
            let grew = Double(last.currentKiB - first.currentKiB) * 1024
            let allowed = min(memoryGrowthBytes, memoryFileFraction * Double(largest.storeFileBytes))
            results.append(TargetResult(
                target: memoryTarget,
                measured: "RSS \(mebibytes(Double(first.currentKiB) * 1024)) → \(mebibytes(Double(last.currentKiB) * 1024)) "
                    + "(\(count(smallest.items)) → \(count(largest.items)) items; store file \(mebibytes(Double(largest.storeFileBytes))))",
                status: grew <= allowed ? .pass : .fail))
        } else {
            results.append(TargetResult(target: memoryTarget,
                                        measured: "needs two sizes, /proc/self/status and a store file of 32 MiB or more",
                                        status: .notMeasured))
        }
        return results
    }
}

// MARK: - Number formatting shared by the table and the targets

/// `1234567` → `1,234,567`.
func count(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var grouped = ""
    for (offset, digit) in digits.enumerated() {
        if offset > 0 && (digits.count - offset) % 3 == 0 { grouped.append(",") }
        grouped.append(digit)
    }
    return (value < 0 ? "-" : "") + grouped
}

/// Two decimals: `2.345` → `2.35`.
func format(_ value: Double, decimals: Int = 2) -> String {
    String(format: "%.\(decimals)f", value)
}

/// Nanoseconds as a readable duration: `12.3 µs`, `4.56 ms`.
func duration(_ nanoseconds: Double) -> String {
    if nanoseconds >= 1_000_000 { return format(nanoseconds / 1_000_000) + " ms" }
    if nanoseconds >= 1_000 { return format(nanoseconds / 1_000) + " µs" }
    return format(nanoseconds, decimals: 0) + " ns"
}

func milliseconds(_ nanoseconds: Double) -> String { format(nanoseconds / 1_000_000) + " ms" }

func mebibytes(_ bytes: Double) -> String { format(bytes / 1_048_576, decimals: 1) + " MiB" }

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

    /// Baseline rows inserted per second, 10,000 per transaction.
    var baselineFillItemsPerSecond: Double
    /// `store.write { $0.add(...) }`, 10,000 items per transaction.
    var bulkAddItemsPerSecond: Double

    /// `store.add`, each its own durable transaction: median and mean of ``durableAdds``.
    var durableAdds: Int
    var durableAddMedianNanoseconds: Double
    var durableAddMeanNanoseconds: Double
    /// One autocommit `INSERT` in the baseline file: the fsync floor.
    var baselineDurableInsertMedianNanoseconds: Double

    /// `SecretStore(at:options:)` on the existing store with no other handle open: median
    /// and slowest of ``opens``.
    var opens: Int
    var openMedianNanoseconds: Double
    var openMaxNanoseconds: Double
    /// Open plus the first typed read on the new handle (median).
    var openAndFirstReadMedianNanoseconds: Double
    /// The same open while another handle keeps the store open (median).
    var openBesideOpenHandleMedianNanoseconds: Double

    /// Process memory after this size was filled and measured (both files still open).
    var memory: MemoryStatus?
    /// The store file plus its `-wal`, and the baseline file plus its `-wal`.
    var storeFileBytes: Int64
    var baselineFileBytes: Int64
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
    /// SecStore read time at the largest size over the smallest.
    var readGrowth: ReadGrowth?
    var targets: [TargetResult]

    struct ReadGrowth: Codable {
        var fromItems: Int
        var toItems: Int
        var ratio: Double
    }
}

/// The design brief's targets (docs/performance.md explains each).
enum Targets {
    static let readRatio = 3.0
    static let readsPerSecondAt100k = 40_000.0
    static let growthRatio = 2.0
    static let bulkAddPerSecond = 20_000.0
    static let openNanoseconds = 5_000_000.0
    /// "Flat" memory: resident memory may grow by the bounded SQLite page caches of the open
    /// connections (about 2 MiB each by default) and allocator slack, never with the file.
    /// Growth from the smallest to the largest size must stay under this many bytes…
    static let memoryGrowthBytes = 16.0 * 1_048_576
    /// …and under this fraction of the largest store file. Below ``memoryMinimumFileBytes``
    /// the file is too small to tell a whole-file load from cache growth.
    static let memoryFileFraction = 0.5
    static let memoryMinimumFileBytes = 32.0 * 1_048_576

    static func evaluate(_ sizes: [SizeResult], growth: BenchmarkSummary.ReadGrowth?) -> [TargetResult] {
        guard let smallest = sizes.first, let largest = sizes.last else { return [] }
        var results: [TargetResult] = []

        let worstRatio = sizes.max { $0.readRatio < $1.readRatio }!
        results.append(TargetResult(
            target: "read by service+account ≤ \(format(readRatio))× baseline (every size)",
            measured: "worst \(format(worstRatio.readRatio))× at \(count(worstRatio.items)) items",
            status: worstRatio.readRatio <= readRatio ? .pass : .fail))

        if let at100k = sizes.first(where: { $0.items == 100_000 }) {
            results.append(TargetResult(
                target: "reads/s ≥ \(count(Int(readsPerSecondAt100k))) at 100,000 items",
                measured: "\(count(Int(at100k.storeReadsPerSecond)))/s",
                status: at100k.storeReadsPerSecond >= readsPerSecondAt100k ? .pass : .fail))
        } else {
            results.append(TargetResult(target: "reads/s ≥ \(count(Int(readsPerSecondAt100k))) at 100,000 items",
                                        measured: "100,000 not in --sizes", status: .notMeasured))
        }

        let growthTarget = "read at 1,000,000 items ≤ \(format(growthRatio))× read at 1,000"
        if let growth, growth.fromItems == 1_000, growth.toItems == 1_000_000 {
            results.append(TargetResult(target: growthTarget, measured: "\(format(growth.ratio))×",
                                        status: growth.ratio <= growthRatio ? .pass : .fail))
        } else {
            let seen = growth.map { "\(format($0.ratio))× from \(count($0.fromItems)) to \(count($0.toItems)); " } ?? ""
            results.append(TargetResult(target: growthTarget, measured: seen + "needs 1000 and --full",
                                        status: .notMeasured))
        }

        let slowestBulk = sizes.min { $0.bulkAddItemsPerSecond < $1.bulkAddItemsPerSecond }!
        results.append(TargetResult(
            target: "bulk add in one transaction ≥ \(count(Int(bulkAddPerSecond))) items/s",
            measured: "slowest \(count(Int(slowestBulk.bulkAddItemsPerSecond)))/s at \(count(slowestBulk.items)) items",
            status: slowestBulk.bulkAddItemsPerSecond >= bulkAddPerSecond ? .pass : .fail))

        let durable = sizes.map(\.durableAddMedianNanoseconds).max()!
        let floor = sizes.map(\.baselineDurableInsertMedianNanoseconds).max()!
        results.append(TargetResult(
            target: "single durable add (fsync-bound): report",
            measured: "median \(milliseconds(durable)) (\(count(Int(1e9 / durable)))/s); raw fsync'd insert \(milliseconds(floor))",
            status: .report))

        let slowestOpen = sizes.max { $0.openMedianNanoseconds < $1.openMedianNanoseconds }!
        results.append(TargetResult(
            target: "open with the device key ≤ \(milliseconds(openNanoseconds)) (median)",
            measured: "\(milliseconds(slowestOpen.openMedianNanoseconds)) at \(count(slowestOpen.items)) items",
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

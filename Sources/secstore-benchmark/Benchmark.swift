import Foundation
import KeychainServices
import SecStore
#if canImport(Glibc)
import Glibc
#endif

/// Runs every size in turn: fill the baseline and the store; read both with one random
/// order, through the typed API and through `SecItemCopyMatching`; list one service; time
/// durable writes; measure concurrent readers; time `secstore get` processes and opens;
/// note memory and file sizes. Each size gets fresh files; the files of one size are closed
/// before the next size starts. Then the run-wide command-line timings and the Secret Service
/// provider's (``SecretServiceTimings``).
struct Benchmark {
    let options: BenchmarkOptions
    let directory: URL

    static let rounds = 5
    static let warmUpReads = 2_000
    static let durableWrites = 200
    static let opens = 20
    static let listingRounds = 7
    /// One window of the concurrency measurements.
    static let concurrencyWindow: UInt64 = 1_000_000_000
    static let readSeed: UInt64 = 0x5EC5_7012_E000_0001
    static let warmUpSeed: UInt64 = 0x5EC5_7012_E000_0002
    /// Baseline keys of indexes from here on are never inserted: the misses look them up.
    static let missIndexBase = 1 << 40

    var deviceKeyURL: URL { directory.appending(path: "keys/device.key") }

    func run() throws -> (sizes: [SizeResult], commandLine: CommandLineResult, secretService: SecretServiceResult) {
        let tools = CommandLineTimings(directory: directory)
        if tools.executable == nil { progress("secstore-benchmark: \(CommandLineTimings.missingNote); its targets are N/A") }
        let sizes = try options.sizes.map { try measure(size: $0, tools: tools) }
        let commandLine = try measureCommandLine(tools)
        let secretService = try SecretServiceTimings(directory: directory).run()
        if let note = secretService.note { progress("secstore-benchmark: Secret Service not measured: \(note)") }
        return (sizes, commandLine, secretService)
    }

    /// Sizes up to this many items fill ``extraFillRounds`` more times, into scratch files, for
    /// the bulk-add medians: a fill of 1,000 items lasts milliseconds, and the host moved a
    /// single one by a third between two runs of the same code (ninth issue-13 session).
    static let extraFillLimit = 100_000
    static let extraFillRounds = 2

    /// The median fill time of each side, in nanoseconds: the size's own fills (`first`) and,
    /// up to ``extraFillLimit`` items, ``extraFillRounds`` more of each into scratch files
    /// removed afterwards, the two sides in turn.
    private func medianFills(size: Int, folder: URL, first: (baseline: Double, store: Double)) throws -> (Double, Double) {
        var baseline = [first.baseline], store = [first.store]
        for round in 0..<(size <= Self.extraFillLimit ? Self.extraFillRounds : 0) {
            let scratch = folder.appending(path: "fill-\(round)", directoryHint: .isDirectory)
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            do {
                let probe = try RawBaseline(path: scratch.appending(path: "baseline.sqlite").path)
                baseline.append(Double(try measureNanoseconds { try probe.fill(count: size) }))
            }
            do {
                let probe = try StoreWorkload(storeURL: scratch.appending(path: "store.secstore"), deviceKeyURL: deviceKeyURL)
                store.append(Double(try measureNanoseconds { try probe.fill(count: size, size: size) }))
            }
        }
        return (median(baseline), median(store))
    }

    private func measure(size: Int, tools: CommandLineTimings) throws -> SizeResult {
        let folder = directory.appending(path: "size-\(size)", directoryHint: .isDirectory)
        try? FileManager.default.removeItem(at: folder)  // a previous run's files in --dir
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let baselinePath = folder.appending(path: "baseline.sqlite").path
        let storeURL = folder.appending(path: "store.secstore")

        progress("[\(count(size)) items] filling the baseline…")
        let baseline = try RawBaseline(path: baselinePath)
        let firstBaselineFill = try measureNanoseconds { try baseline.fill(count: size) }

        progress("[\(count(size)) items] filling the store (store.write, \(count(Workload.batchSize)) per transaction, "
                 + "\(count(Workload.serviceCount(size: size))) services)…")
        let workload = try StoreWorkload(storeURL: storeURL, deviceKeyURL: deviceKeyURL)
        let firstStoreFill = try measureNanoseconds { try workload.fill(count: size, size: size) }
        let (baselineFill, storeFill) = try medianFills(size: size, folder: folder,
                                                        first: (Double(firstBaselineFill), Double(firstStoreFill)))

        // Flush the fills' dirty pages now, so that their write-back does not land in the
        // fsyncs of the durable writes and opens timed below.
        sync()

        // The Apple API's process-wide store: this size's file, as the items' app.
        SecItemWorkload.configure(storeURL: storeURL, deviceKeyURL: deviceKeyURL)
        let reads = try timeReads(size: size, baseline: baseline, workload: workload)
        let listing = try timeListing(size: size, workload: workload)
        let writes = try timeDurableWrites(size: size, baseline: baseline, workload: workload)

        progress("[\(count(size)) items] concurrent readers (threads, processes; \(format(Double(Self.concurrencyWindow) / 1e9, decimals: 1)) s each), a reader beside a writer…")
        try WorkerLoops.addWriterItems(to: workload.store)
        let concurrency = try ConcurrencyMeasurement(
            storeURL: storeURL, deviceKeyURL: deviceKeyURL, size: size, store: workload.store,
            window: Self.concurrencyWindow).run()

        // Every handle closed: SQLite checkpoints the log into the store file and removes it.
        SecItemWorkload.close()
        workload.close()
        let storeFileBytes = Self.fileBytes(storeURL.path)
        try baseline.checkpoint()
        let baselineFileBytes = Self.fileBytes(baselinePath)

        var getCommand: ProcessTiming?
        if tools.executable != nil {
            progress("[\(count(size)) items] \(CommandLineTimings.getRuns) secstore get processes…")
            getCommand = try tools.timeGet(storeURL: storeURL, deviceKeyURL: deviceKeyURL, size: size)
        }

        progress("[\(count(size)) items] \(Self.opens) opens…")
        let opens = try workload.timeOpens(repetitions: Self.opens, probe: 0, size: size)

        // timeOpens left the benchmark's handle open: the tool beside it.
        var getBeside: ProcessTiming?
        if tools.executable != nil {
            progress("[\(count(size)) items] \(CommandLineTimings.getRuns) secstore get processes beside an open handle…")
            getBeside = try tools.timeGet(storeURL: storeURL, deviceKeyURL: deviceKeyURL, size: size)
        }

        let result = SizeResult(
            items: size, readsPerRound: options.reads, rounds: Self.rounds,
            baselineReadNanoseconds: reads.baseline.wall,
            storeReadNanoseconds: reads.typed.wall,
            convenienceReadNanoseconds: reads.convenience,
            storeReadsPerSecond: 1e9 / reads.typed.wall,
            readRatio: reads.typed.wall / reads.baseline.wall,
            baselineReadCPUNanoseconds: reads.baseline.cpu,
            storeReadCPUNanoseconds: reads.typed.cpu,
            secItemReadNanoseconds: reads.secItem.wall,
            secItemReadCPUNanoseconds: reads.secItem.cpu,
            secItemToTypedRatio: reads.secItem.wall / reads.typed.wall,
            secItemToBaselineRatio: reads.secItem.wall / reads.baseline.wall,
            secItemAttributesAndDataReadNanoseconds: reads.secItemAttributes.wall,
            secItemPersistentReferenceReadNanoseconds: reads.secItemReference.wall,
            baselineMissNanoseconds: reads.baselineMiss.wall,
            storeMissNanoseconds: reads.typedMiss.wall,
            secItemMissNanoseconds: reads.secItemMiss.wall,
            secItemMissRatio: reads.secItemMiss.wall / reads.baselineMiss.wall,
            listedItems: listing.items,
            typedListPerItemNanoseconds: listing.typed,
            secItemListPerItemNanoseconds: listing.secItem,
            baselineFillItemsPerSecond: Double(size) * 1e9 / baselineFill,
            bulkAddItemsPerSecond: Double(size) * 1e9 / storeFill,
            bulkAddRatio: baselineFill / storeFill,
            durableAdds: Self.durableWrites,
            durableAddMedianNanoseconds: median(writes.add),
            durableAddMeanNanoseconds: writes.add.reduce(0, +) / Double(writes.add.count),
            durableUpdateMedianNanoseconds: median(writes.update),
            durableDeleteMedianNanoseconds: median(writes.delete),
            baselineDurableInsertMedianNanoseconds: median(writes.baselineInsert),
            baselineDurableUpdateMedianNanoseconds: median(writes.baselineUpdate),
            baselineDurableDeleteMedianNanoseconds: median(writes.baselineDelete),
            pagesPerCommit: writes.pages,
            concurrency: concurrency,
            getCommand: getCommand,
            getCommandBesideOpenHandle: getBeside,
            opens: Self.opens,
            openMedianNanoseconds: median(opens.alone),
            openMaxNanoseconds: opens.alone.max() ?? 0,
            openAndFirstReadMedianNanoseconds: median(opens.aloneThenRead),
            openBesideOpenHandleMedianNanoseconds: median(opens.besideOpenHandle),
            memory: MemoryStatus.current(trimmingFreedHeap: true),
            storeFileBytes: storeFileBytes,
            baselineFileBytes: baselineFileBytes,
            fileSizeRatio: Double(storeFileBytes) / Double(baselineFileBytes))
        progress("[\(count(size)) items] typed \(duration(result.storeReadNanoseconds))/read, "
                 + "SecItemCopyMatching \(duration(result.secItemReadNanoseconds)), "
                 + "baseline \(duration(result.baselineReadNanoseconds)); typed/baseline \(format(result.readRatio))×")
        return result
    }

    // MARK: - Command line

    /// `secstore --version` and `secstore list --json` of a store of
    /// ``CommandLineTimings/listItems`` items made with the same device key.
    private func measureCommandLine(_ tools: CommandLineTimings) throws -> CommandLineResult {
        var result = CommandLineResult(executable: tools.executable, note: nil, listItems: CommandLineTimings.listItems)
        guard tools.executable != nil else {
            result.note = CommandLineTimings.missingNote
            return result
        }
        let items = CommandLineTimings.listItems
        progress("[command line] \(CommandLineTimings.versionRuns) secstore --version processes…")
        result.version = try tools.timeVersion()
        let folder = directory.appending(path: "list-\(items)", directoryHint: .isDirectory)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let storeURL = folder.appending(path: "store.secstore")
        progress("[command line] filling a store of \(count(items)) items, \(CommandLineTimings.listRuns) secstore list --json processes…")
        do {
            let workload = try StoreWorkload(storeURL: storeURL, deviceKeyURL: deviceKeyURL)
            try workload.fill(count: items, size: items)
        }
        result.list = try tools.timeList(storeURL: storeURL, deviceKeyURL: deviceKeyURL, items: items)
        return result
    }

    /// The database file plus its write-ahead log, if any is left.
    private static func fileBytes(_ path: String) -> Int64 {
        [path, path + "-wal"].reduce(Int64(0)) { total, file in
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value
            return total + (size ?? 0)
        }
    }
}

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

    private func measure(size: Int, tools: CommandLineTimings) throws -> SizeResult {
        let folder = directory.appending(path: "size-\(size)", directoryHint: .isDirectory)
        try? FileManager.default.removeItem(at: folder)  // a previous run's files in --dir
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let baselinePath = folder.appending(path: "baseline.sqlite").path
        let storeURL = folder.appending(path: "store.secstore")

        progress("[\(count(size)) items] filling the baseline…")
        let baseline = try RawBaseline(path: baselinePath)
        let baselineFill = try measureNanoseconds { try baseline.fill(count: size) }

        progress("[\(count(size)) items] filling the store (store.write, \(count(Workload.batchSize)) per transaction, "
                 + "\(count(Workload.serviceCount(size: size))) services)…")
        let workload = try StoreWorkload(storeURL: storeURL, deviceKeyURL: deviceKeyURL)
        let storeFill = try measureNanoseconds { try workload.fill(count: size, size: size) }

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
            baselineFillItemsPerSecond: Double(size) * 1e9 / Double(baselineFill),
            bulkAddItemsPerSecond: Double(size) * 1e9 / Double(storeFill),
            bulkAddRatio: Double(baselineFill) / Double(storeFill),
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

    // MARK: - Reads

    /// Per-read wall and thread-CPU time in nanoseconds: medians over the rounds of each
    /// round's mean.
    struct Time {
        var wall: Double
        var cpu: Double
    }

    private struct ReadTimes {
        var baseline: Time
        var typed: Time
        var secItem: Time
        var secItemAttributes: Time
        var secItemReference: Time
        var baselineMiss: Time
        var typedMiss: Time
        var secItemMiss: Time
        /// `data(forAccount:service:)`, one round.
        var convenience: Double
    }

    /// Warms every side up (checking every secret and every miss), then times ``rounds``
    /// rounds of the same random reads on each side, one side after the other within a
    /// round, and one round of the one-line API.
    private func timeReads(size: Int, baseline: RawBaseline, workload: StoreWorkload) throws -> ReadTimes {
        // The same random order for every side; lookup keys, query strings and query
        // dictionaries are built up front so no timed loop pays for them.
        progress("[\(count(size)) items] preparing \(count(options.reads)) reads and misses per side…")
        let order = Workload.readOrder(count: options.reads, size: size, seed: Self.readSeed)
        let keys = order.flatMap(Workload.baselineKey)
        let missKeys = order.indices.flatMap { Workload.baselineKey(Self.missIndexBase + $0) }
        let queries = order.map { (service: Workload.service($0, size: size), account: Workload.account($0)) }
        // Absent accounts in the services that exist: a miss on the primary key.
        let misses = order.indices.map { (service: queries[$0].service, account: "absent-\($0)") }
        let secItemData = queries.map { SecItemWorkload.dataQuery(service: $0.service, account: $0.account) }
        let secItemAttributes = queries.map { SecItemWorkload.attributesAndDataQuery(service: $0.service, account: $0.account) }
        let secItemReferences = try workload.persistentReferences(order, size: size).map(SecItemWorkload.persistentReferenceQuery)
        let secItemMisses = misses.map { SecItemWorkload.dataQuery(service: $0.service, account: $0.account) }

        progress("[\(count(size)) items] warming up and checking \(count(Self.warmUpReads)) reads on each side…")
        for (number, index) in Workload.readOrder(count: Self.warmUpReads, size: size, seed: Self.warmUpSeed).enumerated() {
            try baseline.verify(index)
            try workload.verify(index, size: size)
            let service = Workload.service(index, size: size), account = Workload.account(index)
            var result: AnyObject?
            let status = SecItemCopyMatching(SecItemWorkload.dataQuery(service: service, account: account), &result)
            guard status == errSecSuccess, result as? Data == Data(Workload.secret(index)) else {
                throw BenchmarkError("SecItemCopyMatching: item \(index) read back a different secret (status \(status))")
            }
            let missKey = Workload.baselineKey(Self.missIndexBase + number)
            _ = try missKey.withUnsafeBufferPointer { try baseline.readMiss(key: $0.baseAddress!) }
            _ = try workload.readMiss(service: service, account: "absent-warm-\(number)")
            _ = try SecItemWorkload.readMiss(SecItemWorkload.dataQuery(service: service, account: "absent-warm-\(number)"))
        }
        // The other request shapes once each on the first few items of the order.
        for position in 0..<min(100, order.count) {
            let first = Workload.secret(order[position])[0]
            guard try SecItemWorkload.readAttributesAndData(secItemAttributes[position]) == first,
                  try SecItemWorkload.readData(secItemReferences[position]) == first else {
                throw BenchmarkError("SecItemCopyMatching: item \(order[position]) read back a different secret")
            }
        }

        progress("[\(count(size)) items] \(Self.rounds) rounds of \(count(options.reads)) random reads and misses on each side…")
        var rounds: [[(wall: UInt64, cpu: UInt64)]] = Array(repeating: [], count: 8)
        var sums = [UInt64](repeating: 0, count: 8)
        for _ in 0..<Self.rounds {
            // Each side in turn within a round, so drift (CPU frequency, page cache, other
            // load) hits every side alike.
            rounds[0].append(try keys.withUnsafeBufferPointer { buffer in
                try measureWallAndCPU {
                    var offset = 0
                    while offset < buffer.count {
                        sums[0] &+= UInt64(try baseline.read(key: buffer.baseAddress! + offset))
                        offset += Workload.keyByteCount
                    }
                }
            })
            rounds[1].append(try measureWallAndCPU {
                for query in queries { sums[1] &+= UInt64(try workload.read(service: query.service, account: query.account)) }
            })
            rounds[2].append(try measureWallAndCPU {
                for query in secItemData { sums[2] &+= UInt64(try SecItemWorkload.readData(query)) }
            })
            rounds[3].append(try measureWallAndCPU {
                for query in secItemAttributes { sums[3] &+= UInt64(try SecItemWorkload.readAttributesAndData(query)) }
            })
            rounds[4].append(try measureWallAndCPU {
                for query in secItemReferences { sums[4] &+= UInt64(try SecItemWorkload.readData(query)) }
            })
            rounds[5].append(try missKeys.withUnsafeBufferPointer { buffer in
                try measureWallAndCPU {
                    var offset = 0
                    while offset < buffer.count {
                        sums[5] &+= UInt64(try baseline.readMiss(key: buffer.baseAddress! + offset))
                        offset += Workload.keyByteCount
                    }
                }
            })
            rounds[6].append(try measureWallAndCPU {
                for miss in misses { sums[6] &+= UInt64(try workload.readMiss(service: miss.service, account: miss.account)) }
            })
            rounds[7].append(try measureWallAndCPU {
                for query in secItemMisses { sums[7] &+= UInt64(try SecItemWorkload.readMiss(query)) }
            })
        }
        var convenienceSum: UInt64 = 0
        let convenience = try measureNanoseconds {
            for query in queries {
                convenienceSum &+= UInt64(try workload.readConvenience(service: query.service, account: query.account))
            }
        }
        // Every pass read the same secrets (the sum of their first bytes proves it); every
        // miss pass counted one per lookup.
        let expectedPerPass = order.reduce(UInt64(0)) { $0 &+ UInt64(Workload.secret($1)[0]) }
        let rounds64 = UInt64(Self.rounds)
        for side in 0..<5 where sums[side] != expectedPerPass &* rounds64 {
            throw BenchmarkError("read side \(side): the timed reads returned different secrets than were stored")
        }
        for side in 5..<8 where sums[side] != UInt64(order.count) &* rounds64 {
            throw BenchmarkError("miss side \(side): a timed miss found something")
        }
        guard convenienceSum == expectedPerPass else {
            throw BenchmarkError("data(forAccount:service:) returned different secrets than were stored")
        }
        let reads = Double(order.count)
        func time(_ side: Int) -> Time {
            Time(wall: median(rounds[side].map { Double($0.wall) / reads }),
                 cpu: median(rounds[side].map { Double($0.cpu) / reads }))
        }
        return ReadTimes(baseline: time(0), typed: time(1), secItem: time(2), secItemAttributes: time(3),
                         secItemReference: time(4), baselineMiss: time(5), typedMiss: time(6), secItemMiss: time(7),
                         convenience: Double(convenience) / reads)
    }

    // MARK: - Listing

    /// Lists ``Workload/listedService`` with attributes, typed and through
    /// `SecItemCopyMatching`, alternating, ``listingRounds`` times each after one untimed
    /// pass; nanoseconds per listed item, medians.
    private func timeListing(size: Int, workload: StoreWorkload) throws -> (items: Int, typed: Double, secItem: Double) {
        let expected = Workload.listedItemCount(size: size)
        progress("[\(count(size)) items] listing \(count(expected)) items of one service, \(Self.listingRounds) times each way…")
        let query = SecItemWorkload.listQuery(service: Workload.listedService)
        var typed: [Double] = []
        var secItem: [Double] = []
        for round in -1..<Self.listingRounds {
            var typedCount = 0
            var secItemCount = 0
            let typedTime = try measureNanoseconds { typedCount = try workload.list(service: Workload.listedService) }
            let secItemTime = try measureNanoseconds { secItemCount = try SecItemWorkload.list(query) }
            guard typedCount == expected, secItemCount == expected else {
                throw BenchmarkError("listing \(Workload.listedService) found \(typedCount) (typed) and \(secItemCount) (SecItem) items, not \(expected)")
            }
            if round >= 0 {
                typed.append(Double(typedTime) / Double(expected))
                secItem.append(Double(secItemTime) / Double(expected))
            }
        }
        return (expected, median(typed), median(secItem))
    }

    // MARK: - Durable writes

    private struct WriteTimes {
        var add: [Double] = []
        var update: [Double] = []
        var delete: [Double] = []
        var baselineInsert: [Double] = []
        var baselineUpdate: [Double] = []
        var baselineDelete: [Double] = []
        var pages: PagesPerCommit?
    }

    /// ``durableWrites`` adds, then as many updates of those items, then their deletes, each
    /// its own transaction, interleaved one by one with the baseline's autocommit INSERT,
    /// UPDATE and DELETE; the pages (WAL frames) each commit wrote.
    private func timeDurableWrites(size: Int, baseline: RawBaseline, workload: StoreWorkload) throws -> WriteTimes {
        progress("[\(count(size)) items] \(Self.durableWrites) durable adds, updates and deletes on each side…")
        let storeIndex = WALIndex(databasePath: workload.storeURL.path)
        let baselineIndex = WALIndex(databasePath: baseline.path)
        var times = WriteTimes()
        var frames = [Int?](repeating: 0, count: 6)

        /// Times `body`, adds its commit's frames to `frames[slot]` (nil once unreadable).
        func timed(_ index: WALIndex, _ slot: Int, _ body: () throws -> Void) throws -> Double {
            let before = index.header()
            let nanoseconds = try measureNanoseconds(body)
            if let before, let after = index.header(), let sum = frames[slot] {
                frames[slot] = sum + WALIndex.frames(from: before, to: after)
            } else {
                frames[slot] = nil
            }
            return Double(nanoseconds)
        }

        for number in 0..<Self.durableWrites {
            times.add.append(try timed(storeIndex, 0) { try workload.durableAdd(number) })
            times.baselineInsert.append(try timed(baselineIndex, 3) { try baseline.durableInsert(size + number) })
        }
        for number in 0..<Self.durableWrites {
            times.update.append(try timed(storeIndex, 1) { try workload.durableUpdate(number) })
            times.baselineUpdate.append(try timed(baselineIndex, 4) { try baseline.durableUpdate(size + number) })
        }
        for number in 0..<Self.durableWrites {
            times.delete.append(try timed(storeIndex, 2) { try workload.durableDelete(number) })
            times.baselineDelete.append(try timed(baselineIndex, 5) { try baseline.durableDelete(size + number) })
        }
        if frames.allSatisfy({ $0 != nil }) {
            let per = frames.map { Double($0!) / Double(Self.durableWrites) }
            times.pages = PagesPerCommit(add: per[0], update: per[1], delete: per[2],
                                         baselineInsert: per[3], baselineUpdate: per[4], baselineDelete: per[5])
        } else {
            progress("[\(count(size)) items] could not read a -shm file: pages per commit not measured")
        }
        return times
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

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs every size in turn: fill the baseline and the store, read both with one random
/// order, time durable adds and opens, note memory. Each size gets fresh files; the files
/// of one size are closed before the next size starts.
struct Benchmark {
    let options: BenchmarkOptions
    let directory: URL

    static let rounds = 5
    static let warmUpReads = 2_000
    static let durableAdds = 200
    static let opens = 20
    static let readSeed: UInt64 = 0x5EC5_7012_E000_0001
    static let warmUpSeed: UInt64 = 0x5EC5_7012_E000_0002

    var deviceKeyURL: URL { directory.appending(path: "keys/device.key") }

    func run() throws -> [SizeResult] {
        try options.sizes.map { try measure(size: $0) }
    }

    private func measure(size: Int) throws -> SizeResult {
        let folder = directory.appending(path: "size-\(size)", directoryHint: .isDirectory)
        try? FileManager.default.removeItem(at: folder)  // a previous run's files in --dir
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let baselinePath = folder.appending(path: "baseline.sqlite").path
        let storeURL = folder.appending(path: "store.secstore")

        progress("[\(count(size)) items] filling the baseline…")
        let baseline = try RawBaseline(path: baselinePath)
        let baselineFill = try measureNanoseconds { try baseline.fill(count: size) }

        progress("[\(count(size)) items] filling the store (store.write, \(count(Workload.batchSize)) per transaction)…")
        let workload = try StoreWorkload(storeURL: storeURL, deviceKeyURL: deviceKeyURL)
        let storeFill = try measureNanoseconds { try workload.fill(count: size) }

        // Flush the fills' dirty pages now, so that their write-back does not land in the
        // fsyncs of the durable adds and opens timed below.
        sync()

        let reads = try timeReads(size: size, baseline: baseline, workload: workload)

        progress("[\(count(size)) items] \(Self.durableAdds) durable adds, \(Self.opens) opens…")
        var durable: [Double] = []
        var durableFloor: [Double] = []
        for number in 0..<Self.durableAdds {
            durable.append(Double(try measureNanoseconds { try workload.durableAdd(number) }))
            durableFloor.append(Double(try measureNanoseconds { try baseline.durableInsert(size + number) }))
        }
        let opens = try workload.timeOpens(repetitions: Self.opens, probe: 0)

        let result = SizeResult(
            items: size, readsPerRound: options.reads, rounds: Self.rounds,
            baselineReadNanoseconds: reads.baseline,
            storeReadNanoseconds: reads.store,
            convenienceReadNanoseconds: reads.convenience,
            storeReadsPerSecond: 1e9 / reads.store,
            readRatio: reads.store / reads.baseline,
            baselineReadCPUNanoseconds: reads.baselineCPU,
            storeReadCPUNanoseconds: reads.storeCPU,
            baselineFillItemsPerSecond: Double(size) * 1e9 / Double(baselineFill),
            bulkAddItemsPerSecond: Double(size) * 1e9 / Double(storeFill),
            durableAdds: Self.durableAdds,
            durableAddMedianNanoseconds: median(durable),
            durableAddMeanNanoseconds: durable.reduce(0, +) / Double(durable.count),
            baselineDurableInsertMedianNanoseconds: median(durableFloor),
            opens: Self.opens,
            openMedianNanoseconds: median(opens.alone),
            openMaxNanoseconds: opens.alone.max() ?? 0,
            openAndFirstReadMedianNanoseconds: median(opens.aloneThenRead),
            openBesideOpenHandleMedianNanoseconds: median(opens.besideOpenHandle),
            memory: MemoryStatus.current(),
            storeFileBytes: Self.fileBytes(storeURL.path),
            baselineFileBytes: Self.fileBytes(baselinePath))
        progress("[\(count(size)) items] SecStore \(duration(result.storeReadNanoseconds))/read, "
                 + "baseline \(duration(result.baselineReadNanoseconds))/read, ratio \(format(result.readRatio))×")
        return result
    }

    /// Per-read times in nanoseconds: medians over the rounds of each round's mean.
    private struct ReadTimes {
        var baseline: Double
        var store: Double
        var baselineCPU: Double
        var storeCPU: Double
        /// `data(forAccount:service:)`, one round.
        var convenience: Double
    }

    /// Warms both sides up (checking every secret), then times ``rounds`` rounds of the same
    /// random reads on each side, alternating, and one round of the one-line API.
    private func timeReads(size: Int, baseline: RawBaseline, workload: StoreWorkload) throws -> ReadTimes {
        // The same random order for both sides; lookup keys and query strings are built
        // up front so neither timed loop pays for them.
        let order = Workload.readOrder(count: options.reads, size: size, seed: Self.readSeed)
        let keys = order.flatMap(Workload.baselineKey)
        let queries = order.map { (service: Workload.service($0), account: Workload.account($0)) }

        progress("[\(count(size)) items] warming up and checking \(count(Self.warmUpReads)) reads on each side…")
        for index in Workload.readOrder(count: Self.warmUpReads, size: size, seed: Self.warmUpSeed) {
            try baseline.verify(index)
            try workload.verify(index)
        }

        progress("[\(count(size)) items] \(Self.rounds) rounds of \(count(options.reads)) random reads…")
        var baselineRounds: [(wall: UInt64, cpu: UInt64)] = []
        var storeRounds: [(wall: UInt64, cpu: UInt64)] = []
        var checksum: UInt64 = 0
        for _ in 0..<Self.rounds {
            // Alternate the sides so drift (CPU frequency, page cache, other load) hits both alike.
            baselineRounds.append(try keys.withUnsafeBufferPointer { buffer in
                try measureWallAndCPU {
                    var offset = 0
                    while offset < buffer.count {
                        checksum &+= UInt64(try baseline.read(key: buffer.baseAddress! + offset))
                        offset += Workload.keyByteCount
                    }
                }
            })
            storeRounds.append(try measureWallAndCPU {
                for query in queries {
                    checksum &+= UInt64(try workload.read(service: query.service, account: query.account))
                }
            })
        }
        let convenience = try measureNanoseconds {
            for query in queries {
                checksum &+= UInt64(try workload.readConvenience(service: query.service, account: query.account))
            }
        }
        // Every pass read the same secrets; the sum of their first bytes proves it.
        let expectedPerPass = order.reduce(UInt64(0)) { $0 &+ UInt64(Workload.secret($1)[0]) }
        guard checksum == expectedPerPass &* UInt64(2 * Self.rounds + 1) else {
            throw BenchmarkError("the timed reads returned different secrets than were stored")
        }
        let reads = Double(order.count)
        return ReadTimes(
            baseline: median(baselineRounds.map { Double($0.wall) / reads }),
            store: median(storeRounds.map { Double($0.wall) / reads }),
            baselineCPU: median(baselineRounds.map { Double($0.cpu) / reads }),
            storeCPU: median(storeRounds.map { Double($0.cpu) / reads }),
            convenience: Double(convenience) / reads)
    }

    /// The database file plus its write-ahead log.
    private static func fileBytes(_ path: String) -> Int64 {
        [path, path + "-wal"].reduce(Int64(0)) { total, file in
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value
            return total + (size ?? 0)
        }
    }
}

import Foundation
import KeychainServices
import SecStore
import Glibc

/// Listing and durable writes.
extension Benchmark {
    // MARK: - Listing

    /// Lists ``Workload/listedService`` with attributes, typed and through
    /// `SecItemCopyMatching`, alternating, ``listingRounds`` times each after one untimed
    /// pass; nanoseconds per listed item, medians.
    func timeListing(size: Int, workload: StoreWorkload) throws -> (items: Int, typed: Double, secItem: Double) {
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

    struct WriteTimes {
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
    func timeDurableWrites(size: Int, baseline: RawBaseline, workload: StoreWorkload) throws -> WriteTimes {
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

        try warmDurableWrites(size: size, baseline: baseline, workload: workload)
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

    /// Untimed adds and deletes of other items on both sides, so that both write-ahead logs
    /// have grown to their working size before anything is timed. A store handle that lives
    /// a while overwrites its WAL from the start after each checkpoint; right after the fill
    /// and `sync()` both logs are short, and an fsync that also has to extend the file costs
    /// far more than one that overwrites (the first issue-13 runs timed that: the raw insert
    /// was 217 µs cold and 139 µs warm). Both sides pay the warm-up, so the ratios compare
    /// steady states.
    private func warmDurableWrites(size: Int, baseline: RawBaseline, workload: StoreWorkload) throws {
        let first = Self.durableWrites
        for number in first..<2 * first {
            try workload.durableAdd(number)
            try baseline.durableInsert(size + number)
        }
        for number in first..<2 * first {
            try workload.durableDelete(number)
            try baseline.durableDelete(size + number)
        }
    }
}

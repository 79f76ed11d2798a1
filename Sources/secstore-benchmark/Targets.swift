import Foundation

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

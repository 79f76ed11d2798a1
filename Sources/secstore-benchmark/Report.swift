import CSodium
import Foundation
import GRDBSQLite

/// Turns the measurements into the summary, the human table and the JSON object.
enum Report {
    static func summary(of sizes: [SizeResult], commandLine: CommandLineResult, secretService: SecretServiceResult,
                        sync: SyncResult, started date: Date, loadAtStart: String) -> BenchmarkSummary {
        var growth: BenchmarkSummary.ReadGrowth?
        if let first = sizes.first, let last = sizes.last, sizes.count > 1 {
            growth = .init(fromItems: first.items, toItems: last.items,
                           ratio: last.storeReadNanoseconds / first.storeReadNanoseconds)
        }
        return BenchmarkSummary(
            date: ISO8601DateFormatter().string(from: date), machine: machine(loadAtStart: loadAtStart),
            sizes: sizes, commandLine: commandLine, secretService: secretService, sync: sync, readGrowth: growth,
            targets: Targets.evaluate(sizes, commandLine: commandLine, secretService: secretService, growth: growth))
    }

    static func table(_ summary: BenchmarkSummary) -> String {
        var lines: [String] = []
        let machine = summary.machine
        lines.append("SecStore benchmark, \(summary.date)")
        lines.append("machine: \(machine.cores) cores, \(machine.cpu), Linux \(machine.kernel); SQLite \(machine.sqlite), libsodium \(machine.libsodium)")
        lines.append("load average: \(machine.loadAverageAtStart) at start, \(machine.loadAverageAtEnd) at end")
        lines.append("SQLite memory statistics: \(machine.sqliteMemoryStatistics), mutexes: \(machine.sqliteMutexes) (SecretStore.useAdaptiveSQLiteMutexes() and disableSQLiteMemoryStatistics() first thing, in every benchmark process, as docs/concurrency.md advises a program that reads from several threads)")
        if let first = summary.sizes.first {
            lines.append("reads: \(count(first.readsPerRound)) random point reads per round and side, median of \(first.rounds) rounds")
        }
        lines.append("")
        lines.append("Reads (one item by service + account, secret returned)")
        let readWidths = [11, 10, 10, 7, 17, 18, 11]
        lines.append(row(["items", "baseline", "typed", "ratio", "typed reads/s", "data(forAccount:)", "CPU ratio"],
                         widths: readWidths))
        for size in summary.sizes {
            lines.append(row([count(size.items), duration(size.baselineReadNanoseconds), duration(size.storeReadNanoseconds),
                              format(size.readRatio) + "×", count(Int(size.storeReadsPerSecond)),
                              duration(size.convenienceReadNanoseconds),
                              format(size.storeReadCPUNanoseconds / size.baselineReadCPUNanoseconds) + "×"],
                             widths: readWidths))
        }
        lines.append("(typed: store.items(matching:); wall time per read; CPU ratio: the same reads in thread CPU time,")
        lines.append(" steadier on a busy machine)")
        if let growth = summary.readGrowth {
            lines.append("typed read at \(count(growth.toItems)) items / at \(count(growth.fromItems)) items: \(format(growth.ratio))×")
        }
        lines.append("")
        lines.append("Apple API (SecItemCopyMatching) and misses")
        let apiWidths = [11, 10, 9, 10, 12, 11, 10, 10, 10]
        lines.append(row(["items", "→ data", "/typed", "/baseline", "attrs+data", "by pref", "miss", "raw miss", "typed miss"],
                         widths: apiWidths))
        for size in summary.sizes {
            lines.append(row([
                count(size.items), duration(size.secItemReadNanoseconds), format(size.secItemToTypedRatio) + "×",
                format(size.secItemToBaselineRatio) + "×", duration(size.secItemAttributesAndDataReadNanoseconds),
                duration(size.secItemPersistentReferenceReadNanoseconds), duration(size.secItemMissNanoseconds),
                duration(size.baselineMissNanoseconds), duration(size.storeMissNanoseconds),
            ], widths: apiWidths))
        }
        lines.append("(→ data: service + account, kSecReturnData; attrs+data: with kSecReturnAttributes; by pref:")
        lines.append(" kSecValuePersistentRef → data; miss: an absent account, errSecItemNotFound; raw miss: the")
        lines.append(" baseline's lookup of an absent key; typed miss: items(matching:) throwing itemNotFound)")
        lines.append("")
        lines.append("Listing (every item of one service, with attributes)")
        let listWidths = [11, 8, 16, 22]
        lines.append(row(["items", "listed", "typed per item", "SecItem all per item"], widths: listWidths))
        for size in summary.sizes {
            lines.append(row([count(size.items), count(size.listedItems), duration(size.typedListPerItemNanoseconds),
                              duration(size.secItemListPerItemNanoseconds)], widths: listWidths))
        }
        lines.append("(typed: items(matching:) with limit .all; SecItem: kSecMatchLimitAll + kSecReturnAttributes; medians)")
        lines.append("")
        lines.append("Writes")
        let writeWidths = [11, 11, 11, 7, 11, 11, 11, 11, 11, 11]
        lines.append(row(["items", "bulk add/s", "raw fill/s", "ratio", "add", "update", "delete",
                          "raw insert", "raw update", "raw delete"], widths: writeWidths))
        for size in summary.sizes {
            lines.append(row([
                count(size.items), count(Int(size.bulkAddItemsPerSecond)), count(Int(size.baselineFillItemsPerSecond)),
                format(size.bulkAddRatio) + "×",
                duration(size.durableAddMedianNanoseconds), duration(size.durableUpdateMedianNanoseconds),
                duration(size.durableDeleteMedianNanoseconds), duration(size.baselineDurableInsertMedianNanoseconds),
                duration(size.baselineDurableUpdateMedianNanoseconds), duration(size.baselineDurableDeleteMedianNanoseconds),
            ], widths: writeWidths))
        }
        lines.append("pages written per commit (WAL frames; add / update / delete, raw insert / update / delete):")
        for size in summary.sizes {
            guard let pages = size.pagesPerCommit else {
                lines.append("  \(count(size.items)): n/a")
                continue
            }
            lines.append("  \(count(size.items)): \(format(pages.add, decimals: 1)) / \(format(pages.update, decimals: 1)) / "
                         + "\(format(pages.delete, decimals: 1)), raw \(format(pages.baselineInsert, decimals: 1)) / "
                         + "\(format(pages.baselineUpdate, decimals: 1)) / \(format(pages.baselineDelete, decimals: 1))")
        }
        lines.append("(bulk add: store.write, 10,000 items per transaction; raw fill: the baseline, likewise; medians of")
        lines.append(" \(Benchmark.extraFillRounds + 1) fills up to \(count(Benchmark.extraFillLimit)) items, the one fill above;")
        lines.append(" add, update, delete: one store.add / update / delete, each its own transaction; raw: one autocommit")
        lines.append(" baseline INSERT / UPDATE / DELETE, synchronous=FULL; medians of \(summary.sizes.first?.durableAdds ?? 0))")
        lines.append("")
        lines.append("Concurrent reads (aggregate typed reads/s; × one reader)")
        let concurrencyWidths = [11, 19, 19, 19, 19, 19, 19, 12, 12, 10]
        lines.append(row(["items", "1 thread", "2 threads", "4 threads", "1 process", "2 processes", "4 processes",
                          "reader", "+ writer", "commits/s"], widths: concurrencyWidths))
        for size in summary.sizes {
            let concurrency = size.concurrency
            func rates(_ all: [ReaderRate]) -> [String] {
                let single = all.first?.readsPerSecond ?? 1
                return all.map { "\(count(Int($0.readsPerSecond))) \(format($0.readsPerSecond / single))×" }
            }
            lines.append(row([count(size.items)] + rates(concurrency.threads) + rates(concurrency.processes) + [
                count(Int(concurrency.readerAloneReadsPerSecond)), count(Int(concurrency.readerBesideWriterReadsPerSecond)),
                count(Int(concurrency.writerCommitsPerSecond)),
            ], widths: concurrencyWidths))
        }
        lines.append("(threads share one handle; each process opens its own; medians of \(ConcurrencyMeasurement.rounds) windows of \(format((summary.sizes.first?.concurrency.windowNanoseconds ?? 0) / 1e9, decimals: 1)) s;")
        lines.append(" reader / + writer: one reader thread alone, then while another process commits updates in a loop,")
        lines.append(" the round of the median slowdown)")
        lines.append("")
        lines.append("Command line (whole secstore processes, median wall time)")
        let commandLine = summary.commandLine
        if commandLine.executable == nil {
            lines.append("  not measured: \(commandLine.note ?? "")")
        } else {
            if let version = commandLine.version {
                lines.append("  secstore --version: \(milliseconds(version.medianWallNanoseconds)) (CPU \(milliseconds(version.medianCPUNanoseconds)); the start-up floor)")
            }
            for size in summary.sizes {
                if let get = size.getCommand {
                    lines.append("  secstore get, \(count(size.items)) items: \(milliseconds(get.medianWallNanoseconds)) "
                                 + "(fastest \(milliseconds(get.minimumWallNanoseconds)), CPU \(milliseconds(get.medianCPUNanoseconds)); median of \(get.runs))")
                }
                if let get = size.getCommandBesideOpenHandle {
                    lines.append("  secstore get, \(count(size.items)) items, beside an open handle: \(milliseconds(get.medianWallNanoseconds)) "
                                 + "(fastest \(milliseconds(get.minimumWallNanoseconds)), CPU \(milliseconds(get.medianCPUNanoseconds)))")
                }
            }
            if let list = commandLine.list {
                lines.append("  secstore list --json, \(count(commandLine.listItems)) items: \(milliseconds(list.medianWallNanoseconds)) "
                             + "(CPU \(milliseconds(list.medianCPUNanoseconds)); median of \(list.runs))")
            }
        }
        lines.append("")
        lines.append("Secret Service (secstore-secret-service on a private bus, \(count(summary.secretService.items)) items)")
        let service = summary.secretService
        if let lookup = service.lookupMedianNanoseconds {
            lines.append("  lookup over the bus (SearchItems + GetSecrets, plain session): \(duration(lookup)) median, "
                         + "\(duration(service.lookupMeanNanoseconds ?? 0)) mean (\(count(service.lookups)) lookups)")
        }
        if let tool = service.secretTool {
            lines.append("  secret-tool lookup, whole process: \(milliseconds(tool.medianWallNanoseconds)) "
                         + "(fastest \(milliseconds(tool.minimumWallNanoseconds)), CPU \(milliseconds(tool.medianCPUNanoseconds)); "
                         + "median of \(tool.runs); GNOME Keyring ~\(milliseconds(Targets.gnomeKeyringSecretToolNanoseconds)), issue 17)")
        }
        if let note = service.note { lines.append("  not measured, \(note)") }
        lines.append("")
        lines += syncLines(summary.sync)
        lines.append("")
        lines.append("Open, memory and files")
        let openWidths = [11, 10, 11, 13, 10, 10, 12, 14, 7]
        lines.append(row(["items", "open", "open+read", "open beside", "peak RSS", "RSS", "store file", "baseline file", "ratio"],
                         widths: openWidths))
        for size in summary.sizes {
            lines.append(row([
                count(size.items), duration(size.openMedianNanoseconds), duration(size.openAndFirstReadMedianNanoseconds),
                duration(size.openBesideOpenHandleMedianNanoseconds),
                size.memory.map { mebibytes(Double($0.peakKiB) * 1024) } ?? "n/a",
                size.memory.map { mebibytes(Double($0.currentKiB) * 1024) } ?? "n/a",
                mebibytes(Double(size.storeFileBytes)), mebibytes(Double(size.baselineFileBytes)),
                format(size.fileSizeRatio) + "×",
            ], widths: openWidths))
        }
        lines.append("(open: SecretStore(at:options:) with no other handle open, median of \(summary.sizes.first?.opens ?? 0);")
        lines.append(" open beside: the same while another handle has the store open; RSS after each size, files still open,")
        lines.append(" freed heap trimmed;")
        lines.append(" files: after every write was checkpointed into them)")
        lines.append("")
        lines.append("Targets")
        for target in summary.targets {
            lines.append("  " + target.status.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
                         + target.target + ": " + target.measured)
        }
        return lines.joined(separator: "\n")
    }

    /// The sync section (issue 18): push, pull, convergence and the round trip.
    private static func syncLines(_ sync: SyncResult) -> [String] {
        var lines = ["Sync (issue 18: two devices, \(count(sync.items)) synchronizable items, a \(sync.members)-member etcd cluster on loopback)"]
        if let note = sync.note {
            lines.append("  not measured, \(note)")
            return lines
        }
        func rate(_ seconds: Double?, _ moved: Int?, _ passes: Int?, _ perSecond: Double?) -> String {
            "\(format(seconds ?? 0)) s, \(count(moved ?? 0)) items in \(passes ?? 0) pass\(passes == 1 ? "" : "es"), "
                + "\(count(Int(perSecond ?? 0))) items/s"
        }
        lines.append("  push (device A's passes until every item is in etcd): "
                     + rate(sync.pushSeconds, sync.pushed, sync.pushPasses, sync.pushItemsPerSecond))
        lines.append("  pull (device B's first pass, every record applied): "
                     + rate(sync.pullSeconds, sync.applied, sync.pullPasses, sync.pullItemsPerSecond))
        lines.append("  convergence (push + pull): \(format(sync.convergenceSeconds ?? 0)) s")
        if sync.converged == true {
            lines.append("  converged: yes (B holds all \(count(sync.items)) items with their secrets)")
        } else {
            lines.append("  converged: no — FAIL (B holds \(count(sync.convergedItems ?? 0)) of \(count(sync.items)) items with their secrets)")
        }
        let failures = sync.roundTripFailures ?? 0
        lines.append("  round trip (A updates one item and passes, then B passes): "
                     + "\(format(sync.roundTripMedianMilliseconds ?? 0)) ms median, \(format(sync.roundTripMaximumMilliseconds ?? 0)) ms slowest "
                     + "of \(sync.roundTrips)" + (failures == 0 ? "" : "; FAIL: \(failures) without the new secret on B"))
        lines.append("  (not part of convergence: circle creation \(format(sync.circleCreateSeconds ?? 0)) s, "
                     + "B's join + A's approval \(format(sync.joinSeconds ?? 0)) s, Argon2id on both sides)")
        return lines
    }

    static func json(_ summary: BenchmarkSummary) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(summary), as: UTF8.self)
    }

    private static func row(_ cells: [String], widths: [Int]) -> String {
        zip(cells, widths).enumerated().map { offset, pair in
            let (cell, width) = pair
            let pad = String(repeating: " ", count: max(0, width - cell.count))
            return offset == 0 ? cell + pad : pad + cell  // first column left, numbers right
        }.joined(separator: " ")
    }

    private static func machine(loadAtStart: String) -> MachineInfo {
        var system = utsname()
        uname(&system)
        let kernel = withUnsafeBytes(of: &system.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .flatMap { $0.split(separator: ":", maxSplits: 1).last }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
        return MachineInfo(cores: ProcessInfo.processInfo.activeProcessorCount, cpu: model, kernel: kernel,
                           sqlite: String(cString: sqlite3_libversion()),
                           libsodium: String(cString: sodium_version_string()),
                           loadAverageAtStart: loadAtStart, loadAverageAtEnd: loadAverage(),
                           sqliteMemoryStatistics: sqlite3_memory_used() == 0 ? "off" : "on",
                           sqliteMutexes: SQLiteProcessSettings.made ? "adaptive" : "SQLite's own")
    }
}

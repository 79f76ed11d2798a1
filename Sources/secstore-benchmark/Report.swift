import CSodium
import Foundation
import GRDBSQLite

/// Turns the measurements into the summary, the human table and the JSON object.
enum Report {
    static func summary(of sizes: [SizeResult], started date: Date, loadAtStart: String) -> BenchmarkSummary {
        var growth: BenchmarkSummary.ReadGrowth?
        if let first = sizes.first, let last = sizes.last, sizes.count > 1 {
            growth = .init(fromItems: first.items, toItems: last.items,
                           ratio: last.storeReadNanoseconds / first.storeReadNanoseconds)
        }
        return BenchmarkSummary(
            date: ISO8601DateFormatter().string(from: date), machine: machine(loadAtStart: loadAtStart),
            sizes: sizes, readGrowth: growth, targets: Targets.evaluate(sizes, growth: growth))
    }

    static func table(_ summary: BenchmarkSummary) -> String {
        var lines: [String] = []
        let machine = summary.machine
        lines.append("SecStore benchmark, \(summary.date)")
        lines.append("machine: \(machine.cores) cores, \(machine.cpu), Linux \(machine.kernel); SQLite \(machine.sqlite), libsodium \(machine.libsodium)")
        lines.append("load average: \(machine.loadAverageAtStart) at start, \(machine.loadAverageAtEnd) at end")
        if let first = summary.sizes.first {
            lines.append("reads: \(count(first.readsPerRound)) random point reads per round, median of \(first.rounds) rounds")
        }
        lines.append("")
        lines.append("Reads (one item by service + account, secret returned)")
        let readWidths = [11, 10, 10, 7, 17, 18, 11]
        lines.append(row(["items", "baseline", "SecStore", "ratio", "SecStore reads/s", "data(forAccount:)", "CPU ratio"],
                         widths: readWidths))
        for size in summary.sizes {
            lines.append(row([count(size.items), duration(size.baselineReadNanoseconds), duration(size.storeReadNanoseconds),
                              format(size.readRatio) + "×", count(Int(size.storeReadsPerSecond)),
                              duration(size.convenienceReadNanoseconds),
                              format(size.storeReadCPUNanoseconds / size.baselineReadCPUNanoseconds) + "×"],
                             widths: readWidths))
        }
        lines.append("(wall time per read; CPU ratio: the same reads in thread CPU time, steadier on a busy machine)")
        if let growth = summary.readGrowth {
            lines.append("SecStore read at \(count(growth.toItems)) items / at \(count(growth.fromItems)) items: \(format(growth.ratio))×")
        }
        lines.append("")
        lines.append("Writes")
        let writeWidths = [11, 13, 13, 14, 14]
        lines.append(row(["items", "bulk add/s", "raw fill/s", "durable add", "raw durable"], widths: writeWidths))
        for size in summary.sizes {
            lines.append(row([
                count(size.items), count(Int(size.bulkAddItemsPerSecond)), count(Int(size.baselineFillItemsPerSecond)),
                duration(size.durableAddMedianNanoseconds), duration(size.baselineDurableInsertMedianNanoseconds),
            ], widths: writeWidths))
        }
        lines.append("(bulk add: store.write, 10,000 items per transaction; raw fill: the baseline, likewise;")
        lines.append(" durable add: one store.add; raw durable: one autocommit baseline INSERT, synchronous=FULL; medians)")
        lines.append("")
        lines.append("Open and memory")
        let openWidths = [11, 10, 11, 13, 10, 10, 12, 14]
        lines.append(row(["items", "open", "open+read", "open beside", "peak RSS", "RSS", "store file", "baseline file"],
                         widths: openWidths))
        for size in summary.sizes {
            lines.append(row([
                count(size.items), duration(size.openMedianNanoseconds), duration(size.openAndFirstReadMedianNanoseconds),
                duration(size.openBesideOpenHandleMedianNanoseconds),
                size.memory.map { mebibytes(Double($0.peakKiB) * 1024) } ?? "n/a",
                size.memory.map { mebibytes(Double($0.currentKiB) * 1024) } ?? "n/a",
                mebibytes(Double(size.storeFileBytes)), mebibytes(Double(size.baselineFileBytes)),
            ], widths: openWidths))
        }
        lines.append("(open: SecretStore(at:options:) with no other handle open, median of \(summary.sizes.first?.opens ?? 0);")
        lines.append(" open beside: the same while another handle has the store open; RSS after each size, files still open)")
        lines.append("")
        lines.append("Targets")
        for target in summary.targets {
            lines.append("  " + target.status.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
                         + target.target + ": " + target.measured)
        }
        return lines.joined(separator: "\n")
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
                           loadAverageAtStart: loadAtStart, loadAverageAtEnd: loadAverage())
    }
}

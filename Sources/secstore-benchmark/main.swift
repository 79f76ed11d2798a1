// secstore-benchmark: SecStore against a raw SQLite + AEAD baseline, in one process, as
// ratios. Build and run in release:
//
//     swift build -c release --product secstore-benchmark
//     .build/release/secstore-benchmark --full
//
// docs/performance.md describes what is measured and the numbers of a reference run.
import CSodium
import Foundation

let options: BenchmarkOptions
do {
    options = try BenchmarkOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch is BenchmarkOptions.HelpRequested {
    print(BenchmarkOptions.usage)
    exit(0)
} catch {
    progress("secstore-benchmark: \(error)")
    exit(2)
}

guard sodium_init() >= 0 else {
    progress("secstore-benchmark: libsodium failed to initialise.")
    exit(1)
}

// A fresh temporary directory unless --dir names one; only the temporary one is removed.
let directory: URL
let removeAtExit: Bool
if let path = options.directory {
    directory = URL(filePath: path, directoryHint: .isDirectory)
    removeAtExit = false
} else {
    directory = FileManager.default.temporaryDirectory
        .appending(path: "secstore-benchmark-\(UUID().uuidString)", directoryHint: .isDirectory)
    removeAtExit = true
}

var exitCode: Int32 = 0
let started = Date()
let loadAtStart = loadAverage()
do {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                            attributes: [.posixPermissions: 0o700])
    progress("secstore-benchmark: sizes \(options.sizes.map(count).joined(separator: ", ")), work directory \(directory.path)")
    let sizes = try Benchmark(options: options, directory: directory).run()
    let summary = Report.summary(of: sizes, started: started, loadAtStart: loadAtStart)
    if options.json {
        progress(Report.table(summary))
        print(try Report.json(summary))
    } else {
        print(Report.table(summary))
    }
} catch {
    progress("secstore-benchmark: could not finish: \(error)")
    exitCode = 1
}
if removeAtExit { try? FileManager.default.removeItem(at: directory) }
exit(exitCode)

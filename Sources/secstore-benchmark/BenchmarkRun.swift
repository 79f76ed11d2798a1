import CSodium
import Foundation
import SecStore

/// One whole benchmark run, once the command line is parsed: sets up libsodium and the work
/// directory, measures every size, prints the report, and cleans up.
enum BenchmarkRun {
    /// Returns the exit status: 0 whatever the results (this is a measurement, not a test),
    /// 1 when the benchmark itself could not run.
    static func run(_ options: BenchmarkOptions) -> Int32 {
        // Before anything opens SQLite (the report says whether the settings took).
        _ = SQLiteProcessSettings.made
        guard sodium_init() >= 0 else {
            progress("secstore-benchmark: libsodium failed to initialise.")
            return 1
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
        defer { if removeAtExit { try? FileManager.default.removeItem(at: directory) } }

        let started = Date()
        let loadAtStart = loadAverage()
        do {
            try WorkDirectory.claim(directory)
            progress("secstore-benchmark: sizes \(options.sizes.map(count).joined(separator: ", ")), work directory \(directory.path)")
            let measured = try Benchmark(options: options, directory: directory).run()
            let sync = try SyncTimings(directory: directory).run()
            if let note = sync.note { progress("secstore-benchmark: sync not measured: \(note)") }
            let summary = Report.summary(of: measured.sizes, commandLine: measured.commandLine,
                                         secretService: measured.secretService, sync: sync,
                                         started: started, loadAtStart: loadAtStart)
            if options.json {
                progress(Report.table(summary))
                print(try Report.json(summary))
            } else {
                print(Report.table(summary))
            }
            return 0
        } catch {
            progress("secstore-benchmark: could not finish: \(error)")
            return 1
        }
    }
}

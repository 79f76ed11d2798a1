import ArgumentParser
import Foundation

/// `secstore-benchmark`: SecStore (typed API, Apple's SecItem API, the `secstore` tool)
/// against a raw SQLite + AEAD baseline measured in the same run, as ratios, with issue 13's
/// targets, and the Secret Service provider over a private bus (issue 17). Build the three
/// products in release, as users get them (`scripts/build-release.sh`), and run:
///
/// ```
/// scripts/build-release.sh secstore-benchmark secstore secstore-secret-service
/// .build/release/secstore-benchmark [--sizes 1000,100000] [--full] [--reads 20000] [--dir PATH] [--json]
/// ```
///
/// docs/performance.md describes what is measured and the numbers of a reference run.
/// `main()` replaces ArgumentParser's to keep the documented exit statuses: 0 whatever the
/// results, 2 on a bad command line (ArgumentParser's would be 64), 1 when the benchmark
/// itself cannot run.
@main
struct BenchmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secstore-benchmark",
        abstract: "Measure SecStore against a raw SQLite + XChaCha20-Poly1305 baseline.",
        discussion: """
        Measures SecStore (the typed API, SecItemCopyMatching, the secstore tool as whole \
        processes) against a raw SQLite + XChaCha20-Poly1305 baseline in the same run and \
        prints each target with PASS or FAIL; then, once per run, Secret Service lookups over \
        a private bus and secret-tool lookup processes against secstore-secret-service. \
        Progress goes to standard error. Build the products in release (swift build -c \
        release --product secstore-benchmark, then --product secstore, then --product \
        secstore-secret-service: those binaries must be beside this one); \
        docs/performance.md explains every number.

        Exits 0 whatever the results; 2 on a bad command line; 1 when the benchmark itself \
        cannot run.
        """)

    @Option(name: .customLong("sizes"), help: ArgumentHelp(
        "Store sizes in items to measure (default: 1000,100000).", valueName: "n,n,..."),
        transform: CountArgument.list)
    var sizes: [Int]?

    @Flag(help: "Also measure 1,000,000 items (the fill takes a minute or so).")
    var full = false

    @Option(help: ArgumentHelp("Random point reads per size and round (default: 20000).", valueName: "n"),
            transform: CountArgument.count)
    var reads: Int?

    @Option(name: .customLong("dir"), help: ArgumentHelp(
        "Work directory, kept after the run (default: a fresh temporary directory, removed at exit).",
        valueName: "path"))
    var directory: String?

    @Flag(help: "Print a JSON summary on standard output; the table goes to standard error.")
    var json = false

    func validate() throws {
        if let directory, directory.isEmpty {
            throw ValidationError("--dir needs a non-empty path.")
        }
    }

    /// The run this command line asks for: the defaults filled in, `--full`'s size added,
    /// every size measured once, smallest first.
    var options: BenchmarkOptions {
        var sizes = self.sizes ?? BenchmarkOptions.defaultSizes
        if full { sizes.append(BenchmarkOptions.fullSize) }
        return BenchmarkOptions(sizes: Array(Set(sizes)).sorted(), reads: reads ?? BenchmarkOptions.defaultReads,
                                directory: directory, json: json)
    }

    static func main() {
        // The hidden worker mode the concurrency measurements start (Concurrency.swift).
        if CommandLine.arguments.dropFirst().first == WorkerCommand.flag {
            terminate(WorkerCommand.run(Array(CommandLine.arguments.dropFirst())))
        }
        let command: BenchmarkCommand
        do {
            command = try parse()
        } catch {
            terminate(reportParseFailure(error))
        }
        terminate(BenchmarkRun.run(command.options))
    }

    /// Help prints to standard output and exits 0; a parse error prints ArgumentParser's
    /// message and usage on standard error, prefixed with the program's name, and exits 2.
    static func reportParseFailure(_ error: Error) -> Int32 {
        var message = fullMessage(for: error)
        if exitCode(for: error) == .success {
            if !message.isEmpty { print(message) }
            return 0
        }
        if message.hasPrefix("Error: ") { message = "secstore-benchmark: error: " + message.dropFirst("Error: ".count) }
        progress(message)
        return 2
    }
}

/// Ends the process. A free function: inside a command type, `exit` means ArgumentParser's
/// `exit(withError:)`.
func terminate(_ status: Int32) -> Never {
    exit(status)
}

import Foundation

/// The benchmark's command line, parsed by hand so the benchmark needs no dependency the
/// package does not already have.
///
/// ```
/// secstore-benchmark [--sizes 1000,100000] [--full] [--reads 20000] [--dir PATH] [--json]
/// ```
struct BenchmarkOptions: Equatable {
    /// Store sizes (item counts) to fill and measure, smallest first.
    var sizes: [Int] = [1_000, 100_000]
    /// Random point reads per size and per round.
    var reads = 20_000
    /// Where the store files go; `nil` means a fresh temporary directory removed at exit.
    var directory: String?
    /// Print the summary as one JSON object on standard output (the table goes to standard error).
    var json = false

    static let fullSize = 1_000_000

    static let usage = """
        usage: secstore-benchmark [--sizes N,N,...] [--full] [--reads N] [--dir PATH] [--json]

          --sizes N,N,...  store sizes in items to measure (default 1000,100000)
          --full           also measure 1,000,000 items (the fill takes a minute or so)
          --reads N        random point reads per size and round (default 20000)
          --dir PATH       work directory, kept after the run (default: a fresh temporary
                           directory, removed at exit)
          --json           print a JSON summary on standard output; the table goes to stderr
          --help           show this help

        Measures SecStore against a raw SQLite + XChaCha20-Poly1305 baseline in the same
        process and prints each design target with PASS or FAIL. Exits 0 whatever the
        results; 2 on a bad command line, 1 when the benchmark itself cannot run.
        """

    /// A command line the benchmark cannot run with; the message names the fix.
    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    /// Thrown by ``parse(_:)`` for `--help`.
    struct HelpRequested: Error {}

    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) throws -> BenchmarkOptions {
        var options = BenchmarkOptions()
        var full = false
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            // Accept both `--flag value` and `--flag=value`.
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
                    throw UsageError(description: "\(name) needs a value. See --help.")
                }
                return next
            }
            switch name {
            case "--sizes": options.sizes = try parseSizes(try value())
            case "--reads": options.reads = try parseCount(try value(), flag: name)
            case "--dir": options.directory = try value()
            case "--full": full = true
            case "--json": options.json = true
            case "--help", "-h": throw HelpRequested()
            default: throw UsageError(description: "Unknown argument \(argument). See --help.")
            }
        }
        if full && !options.sizes.contains(fullSize) { options.sizes.append(fullSize) }
        options.sizes = Array(Set(options.sizes)).sorted()
        if let directory = options.directory, directory.isEmpty {
            throw UsageError(description: "--dir needs a non-empty path.")
        }
        return options
    }

    private static func parseSizes(_ text: String) throws -> [Int] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard !parts.isEmpty else { throw UsageError(description: "--sizes needs a list such as 1000,100000.") }
        return try parts.map { try parseCount(String($0), flag: "--sizes") }
    }

    /// A positive count; accepts `_` separators (`100_000`) and a `k`/`m` suffix (`100k`, `1m`).
    private static func parseCount(_ text: String, flag: String) throws -> Int {
        var digits = text.replacingOccurrences(of: "_", with: "").lowercased()
        var multiplier = 1
        if digits.hasSuffix("k") { multiplier = 1_000; digits.removeLast() }
        else if digits.hasSuffix("m") { multiplier = 1_000_000; digits.removeLast() }
        guard let count = Int(digits), count > 0, count <= 100_000_000 / multiplier else {
            throw UsageError(description: "\(flag): '\(text)' is not a positive count (1 to 100,000,000).")
        }
        return count * multiplier
    }
}

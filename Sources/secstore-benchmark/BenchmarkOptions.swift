/// What one benchmark run measures: the command line (``BenchmarkCommand``) after defaults,
/// `--full` and de-duplication are applied. ``Benchmark`` reads only this, so the
/// measurements do not depend on how the command line is spelled.
struct BenchmarkOptions: Equatable {
    /// Store sizes (item counts) to fill and measure, smallest first, each once.
    var sizes: [Int] = Self.defaultSizes
    /// Random point reads per size and per round.
    var reads = Self.defaultReads
    /// Where the store files go; `nil` means a fresh temporary directory removed at exit.
    var directory: String?
    /// Print the summary as one JSON object on standard output (the table goes to standard error).
    var json = false

    static let defaultSizes = [1_000, 100_000]
    static let defaultReads = 20_000
    /// The size `--full` adds.
    static let fullSize = 1_000_000
}

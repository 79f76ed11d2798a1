import ArgumentParser
import Foundation

/// Parses the counts of `--sizes` and `--reads`, which are often large: `100000`, `100_000`,
/// `100k` and `1m` all work, so a command line stays readable. A count is at least 1 and at
/// most 100,000,000 (more would not fit on a test machine's disk).
enum CountArgument {
    static let maximum = 100_000_000

    /// One positive count.
    @Sendable static func count(_ text: String) throws -> Int {
        var digits = text.replacingOccurrences(of: "_", with: "").lowercased()
        var multiplier = 1
        if digits.hasSuffix("k") {
            multiplier = 1_000
            digits.removeLast()
        } else if digits.hasSuffix("m") {
            multiplier = 1_000_000
            digits.removeLast()
        }
        guard let count = Int(digits), count > 0, count <= maximum / multiplier else {
            throw ValidationError("not a positive count (1 to 100,000,000; 100_000, 100k and 1m are accepted).")
        }
        return count * multiplier
    }

    /// A comma-separated list of counts, such as `1000,100000` or `1k,100k`.
    @Sendable static func list(_ text: String) throws -> [Int] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard !text.isEmpty else { throw ValidationError("needs a list such as 1000,100000.") }
        return try parts.map { try count(String($0)) }
    }
}

import Foundation

/// One wording for the damage a command passed over (`list`, and both exports with
/// `--skip-damaged`): rows too malformed to name an item are counted, with what became of them.
///
/// ```swift
/// DamageReporting.reportUnnamedRows(2, "is not listed", "are not listed")
/// // secstore: 2 rows are too malformed to name an item and are not listed. Run `secstore verify`.
/// ```
enum DamageReporting {
    /// Counts `count` such rows on standard error (nothing when there are none); `singular` and
    /// `plural` say what became of them.
    static func reportUnnamedRows(_ count: Int, _ singular: String, _ plural: String) {
        guard count > 0 else { return }
        Console.error("\(count) row\(count == 1 ? " is" : "s are") too malformed to name an item and \(count == 1 ? singular : plural). Run `secstore verify`.")
    }
}

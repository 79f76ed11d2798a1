import Foundation
import SecStore

/// A one-line progress bar on standard error for long work (verify, export, import),
/// drawn only when standard error is a terminal; otherwise every call does nothing, so
/// scripts and logs stay clean.
///
/// ```swift
/// let bar = ProgressBar(label: "Verifying")
/// let report = try store.verify(progress: bar.update)
/// bar.finish()
/// ```
final class ProgressBar {
    private let label: String
    private let enabled: Bool
    private var lastDrawn = -1
    private static let width = 30

    init(label: String, enabled: Bool = Terminal.standardErrorIsTerminal) {
        self.label = label
        self.enabled = enabled
    }

    /// Redraws the bar when the whole percentage changed (so large stores do not flood
    /// the terminal).
    func update(_ progress: OperationProgress) {
        guard enabled else { return }
        let percent = Int(progress.fraction * 100)
        guard percent != lastDrawn else { return }
        lastDrawn = percent
        let filled = Self.width * percent / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: Self.width - filled)
        Console.writeError("\r\(label) [\(bar)] \(percent)% (\(progress.completed)/\(progress.total))")
    }

    /// Erases the bar's line.
    func finish() {
        guard enabled, lastDrawn >= 0 else { return }
        Console.writeError("\r\u{1B}[2K")
    }
}

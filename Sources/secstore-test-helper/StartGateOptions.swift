import ArgumentParser
import Foundation

/// `--start-after PATH`: wait until that file exists before doing anything, so a test can
/// start many processes and then release them at the same moment by creating one file.
struct StartGateOptions: ParsableArguments {
    @Option(name: .customLong("start-after"), help: ArgumentHelp(
        "Wait until this file exists before starting.", valueName: "path"))
    var gatePath: String?

    /// Returns at once without `--start-after`; otherwise polls every millisecond.
    func waitForGate() {
        guard let gatePath else { return }
        while !FileManager.default.fileExists(atPath: gatePath) { usleep(1_000) }
    }
}

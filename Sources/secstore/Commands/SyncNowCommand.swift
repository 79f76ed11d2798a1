import ArgumentParser
import SecStoreSync

/// `secstore sync now`: one sync pass.
struct SyncNowCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "now",
        abstract: "Sync once: apply what other devices wrote, then push this store's changes.",
        discussion: """
        Exits 0 when the pass completed, even if records were refused (they are counted and \
        named on standard error: altered, replayed or foreign records are never applied).

        Example:
          secstore sync now --json
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let store = try storeOptions.open()
        let report = try AsyncBridge.wait { try await SyncEngine.open(store: store).syncNow() }
        for refusal in report.refusals { Console.warn("refused \(refusal)") }
        if output.json {
            JSONOutput.print(SyncReporting.json(report))
        } else {
            Console.report("Synced: \(report).")
        }
    }
}

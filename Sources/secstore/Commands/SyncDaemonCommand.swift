import ArgumentParser
import Foundation
import SecStoreSync

/// `secstore sync daemon`: syncs in the foreground until stopped (for a systemd user unit).
struct SyncDaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Sync in the foreground until stopped: watch etcd and push local changes as they are made.",
        discussion: """
        Meant for a systemd user unit (contrib/systemd/secstore-sync.service). Each pass that changed \
        something prints one line; refused records are named on standard error. SIGTERM or \
        SIGINT stops it between passes.

        Example:
          secstore sync daemon
        """)

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        let store = try storeOptions.open()
        try AsyncBridge.wait {
            let engine = try SyncEngine.open(store: store)
            try await engine.run { report in
                for refusal in report.refusals { Console.warn("refused \(refusal)") }
                if report.pushed + report.applied + report.refused + report.conflicts > 0 {
                    Console.report("Synced: \(report).")
                }
            }
        }
    }
}

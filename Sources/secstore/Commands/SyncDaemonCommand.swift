import ArgumentParser
import Foundation
import Logging
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
            // Warnings (etcd unreachable, refused grants) on standard error; the library owns no logger.
            var logger = Logger(label: "secstore.sync") { label in StreamLogHandler.standardError(label: label) }
            logger.logLevel = .warning
            let engine = try SyncEngine.open(store: store, logger: logger)
            try await engine.run { report in
                for refusal in report.refusals { Console.warn("refused \(refusal)") }
                if report.pushed + report.applied + report.refused + report.conflicts > 0 {
                    Console.report("Synced: \(report).")
                }
            }
        }
    }
}

import ArgumentParser
import SecStoreSync

/// `secstore sync status`: this device's standing in its circle.
struct SyncStatusCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show this device, its circle's devices, the last revision applied and the changes waiting to be pushed.",
        discussion: """
        Example:
          secstore sync status --json
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let store = try storeOptions.open()
        let status = try AsyncBridge.wait { try await SyncEngine.open(store: store).status() }
        if output.json {
            JSONOutput.print(SyncReporting.json(status))
            return
        }
        Console.line("device:     \(status.deviceID)\(status.awaitingApproval ? " (waiting for approval)" : "")")
        Console.line("circle:     \(status.circleID) under \(status.prefix) at \(status.endpoints.joined(separator: ","))")
        Console.line("epoch:      \(status.epoch.map(String.init) ?? "none yet")")
        Console.line("revision:   \(status.revision)")
        Console.line("pending:    \(status.pending)")
        Console.line("records:    \(status.records)")
        Console.line("conflicts:  \(status.conflictCopies)")
        if let members = status.members {
            Console.line("devices:    \(members.map { $0 == status.deviceID ? "\($0) (this device)" : $0 }.joined(separator: ", "))")
            if status.isMember == false && !status.awaitingApproval {
                Console.warn("this device is no longer a member of the circle (removed).")
            }
        } else {
            Console.line("devices:    (etcd unreachable)")
        }
    }
}

import ArgumentParser
import SecStoreSync

/// `secstore sync approve CODE`: lets a waiting device into the circle.
struct SyncApproveCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "approve",
        abstract: "Approve the device whose `sync join` printed CODE: hand it the circle's keys.",
        discussion: """
        Example:
          secstore sync approve 7K2M-QX4D-9RTW
        """)

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: ArgumentHelp("The code the new device printed.", valueName: "code"))
    var code: String
    @OptionGroup var output: OutputOptions

    func run() throws {
        let store = try storeOptions.open()
        let code = code
        let device = try AsyncBridge.wait { try await SyncEngine.open(store: store).approve(code: code) }
        if output.json {
            JSONOutput.print(["approved": .string(device)])
        } else {
            Console.report("Approved device \(device). It receives the circle's items at its next `secstore sync now`.")
        }
    }
}

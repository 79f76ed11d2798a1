import ArgumentParser
import SecStoreSync

/// `secstore sync remove DEVICE`: takes a device out of the circle and rotates the keys.
struct SyncRemoveCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a device from the circle: new keys for the others, so it cannot read anything written from now on.",
        discussion: """
        DEVICE is the device id `sync status` lists, or its first characters. What the removed \
        device already holds stays on it.

        Example:
          secstore sync remove 3f9a
        """)

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: ArgumentHelp("The device id (or its first characters).", valueName: "device"))
    var device: String
    @OptionGroup var output: OutputOptions

    func run() throws {
        let store = try storeOptions.open()
        let device = device
        let report = try AsyncBridge.wait { try await SyncEngine.open(store: store).remove(device: device) }
        if output.json {
            JSONOutput.print(["removed": .string(device), "resealed": .number(Int64(report.pushed))])
        } else {
            Console.report("Removed device \(device); the circle has new keys and \(report.pushed) records were sealed again.")
        }
    }
}

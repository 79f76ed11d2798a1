import ArgumentParser
import SecStoreSync

/// `secstore sync init`: creates a circle with this store as its first device.
struct SyncInitCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a sync circle in etcd with this store as its first device, and push its synchronizable items.",
        discussion: """
        Examples:
          secstore sync init --endpoints http://127.0.0.1:2379
          secstore sync init --endpoints http://a:2379,http://b:2379 --prefix family --user alice --password-file ~/.etcd
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var connection: SyncConnectionOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let store = try storeOptions.open()
        let connection = try connection.connection()
        let (device, report) = try AsyncBridge.wait {
            let engine = try await SyncEngine.createCircle(store: store, connection: connection)
            return (await engine.deviceID, try await engine.syncNow())
        }
        if output.json {
            JSONOutput.print(["device": .string(device), "pushed": .number(Int64(report.pushed))])
        } else {
            Console.report("Created the circle under \(connection.prefix) with this device (\(device)); pushed \(report.pushed) items.")
            Console.note("Add a device: run `secstore sync join --endpoints …` there, then `secstore sync approve` here with the code it prints.")
        }
    }
}

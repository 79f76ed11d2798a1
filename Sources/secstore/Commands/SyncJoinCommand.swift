import ArgumentParser
import SecStoreSync

/// `secstore sync join`: asks to join a circle; the code it prints is approved on a member.
struct SyncJoinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Ask to join the sync circle in etcd: prints a code (the last line of its output) to approve on a member device.",
        discussion: """
        The code never travels through etcd: read it to the member's owner, who runs \
        `secstore sync approve` and types it when asked. Then `secstore sync now` (or the daemon) here receives the \
        circle's keys and its items.

        Example:
          secstore sync join --endpoints http://127.0.0.1:2379
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var connection: SyncConnectionOptions

    func run() throws {
        let store = try storeOptions.open()
        let connection = try connection.connection()
        let (device, code) = try AsyncBridge.wait {
            let (engine, code) = try await SyncEngine.requestJoin(store: store, connection: connection)
            return (await engine.deviceID, code)
        }
        Console.note("This device (\(device)) asked to join. On a member device run `secstore sync approve` and type the code: \(code)")
        Console.line(code)
    }
}

import ArgumentParser

/// `secstore sync …`: end-to-end encrypted sync of synchronizable items between a circle of
/// devices over etcd (docs/sync.md).
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync synchronizable items with your other devices over etcd, end-to-end encrypted.",
        discussion: """
        Items added with --synchronizable (kSecAttrSynchronizable), in any class that is not \
        …ThisDeviceOnly, follow their owner to every device of the circle. etcd stores only \
        sealed records under opaque keys: its operator learns counts, sizes and timing.

        Examples:
          secstore sync init --endpoints http://10.0.0.1:2379,http://10.0.0.2:2379,http://10.0.0.3:2379
          secstore sync join --endpoints http://10.0.0.1:2379     (on the new device: prints a code)
          secstore sync approve        (on a member; type the code)
          secstore sync now
          secstore sync daemon
        """,
        subcommands: [
            SyncInitCommand.self, SyncJoinCommand.self, SyncApproveCommand.self, SyncRemoveCommand.self,
            SyncStatusCommand.self, SyncNowCommand.self, SyncDaemonCommand.self,
        ])
}

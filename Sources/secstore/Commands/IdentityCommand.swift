import ArgumentParser

/// `secstore identity show | reset`: the device identifier kept by the DeviceIdentity module.
struct IdentityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "identity",
        abstract: "Show or reset the stable device identifier kept in the store.",
        discussion: """
        The identifier is a UUID stored as a generic password (service secstore.device-identity, \
        account device-uuid) in an access group: --group, else the default group of `secstore add` \
        (see `secstore add --help`). Apps entitled to that group read the same value.

        Examples:
          secstore identity show
          secstore identity show --group ABCDE12345.com.example.shared --lowercase
          secstore identity reset --json
        """,
        subcommands: [IdentityShowCommand.self, IdentityResetCommand.self])
}

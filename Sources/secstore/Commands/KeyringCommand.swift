import ArgumentParser

/// `secstore keyring list | prune`: SecStore's entries in the kernel user keyring.
struct KeyringCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keyring",
        abstract: "List or prune SecStore's entries in the kernel user keyring.",
        discussion: """
        `secstore unlock` puts keys (sealed under a key of their store) in the kernel user \
        keyring, named secstore:<store id>:<name>, beside a record of where the store file and \
        its device key are. They stay until reboot, `secstore lock`, or their timeout; entries of \
        stores that were deleted since only fill the user's key quota \
        (/proc/sys/kernel/keys/maxkeys, maxbytes), until `secstore unlock` fails with EDQUOT. \
        `list` shows them by store (never a key); `prune` removes those of stores that are gone. \
        See docs/accessibility.md, "The kernel keyring, its quota, and pruning".

        Examples:
          secstore keyring list
          secstore keyring prune --dry-run
          secstore keyring prune --json
        """,
        subcommands: [KeyringListCommand.self, KeyringPruneCommand.self])
}

/// `--store` and `--device-key` given to a `keyring` command (before its name, where the root
/// command parses them): refused, since `list` and `prune` cover every store of the user, and
/// an ignored `--store` would let `prune --all` seem scoped to one store.
struct KeyringStoreRefusal: ParsableArguments {
    @OptionGroup(visibility: .private) var storeOptions: StoreOptions

    func validate() throws {
        if storeOptions.storePath != nil || storeOptions.deviceKeyPath != nil {
            throw ValidationError("`secstore keyring` covers every store of the user: it takes no --store or --device-key. To end one store's entries, run `secstore --store PATH lock`.")
        }
    }
}

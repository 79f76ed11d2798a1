import ArgumentParser
import DeviceIdentity
import SecStore

/// `secstore identity reset`.
struct IdentityResetCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Replace the device identifier with a new random one.",
        discussion: """
        Every program that reads the identifier from this group sees the new value. Prints it. \
        At a terminal it asks first (--yes does not ask); --dry-run says whether an \
        identifier would be replaced and changes nothing.

        Examples:
          secstore identity reset
          secstore identity reset --dry-run
          secstore identity reset --group ABCDE12345.com.example.shared --yes --json
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var identityOptions: IdentityOptions
    @Flag(name: [.customShort("y"), .customLong("yes")], help: "Do not ask for confirmation at a terminal.")
    var yes = false
    @Flag(name: .customLong("dry-run"), help: "Say what would be replaced; change nothing.")
    var dryRun = false
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let group = try DefaultGroup.forIdentity(explicit: identityOptions.group)
        if dryRun {
            let session = try StoreSession(store: storeOptions, passphrase: passphrase)
            var attributes = Attributes()
            attributes.service = DeviceIdentity.service
            attributes.account = DeviceIdentity.account
            attributes.accessGroup = group
            let exists = try session.unlockingIfNeeded {
                try !session.store.find(Query(itemClass: .genericPassword, attributes: attributes, synchronizable: .any,
                                              limit: .all, returning: .persistentReference)).isEmpty
            }
            if output.json {
                JSONOutput.print(["dryRun": true, "accessGroup": .string(group), "exists": .bool(exists)])
            } else {
                Console.report(exists ? "Would replace the device identifier of group \(group) with a new random one (dry run: nothing was changed)."
                                      : "Group \(group) has no device identifier yet; a reset would create one (dry run: nothing was changed).")
            }
            return
        }
        if !yes && Terminal.canPrompt {
            guard try Prompter.confirm("Replace the device identifier of group \(group) for every program that reads it?") else {
                throw CLIError(.failure, "Nothing was changed.", name: "declined")
            }
        }
        try identityOptions.run(storeOptions, passphrase, output) { try $0.reset() }
    }
}

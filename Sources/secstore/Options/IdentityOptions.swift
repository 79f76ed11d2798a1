import ArgumentParser
import DeviceIdentity
import SecStore

/// The options `identity show` and `identity reset` share.
struct IdentityOptions: ParsableArguments {
    @Option(name: [.customShort("g"), .customLong("group")], help: ArgumentHelp("The access group whose identifier to use.", valueName: "group"))
    var group: String?

    @Flag(help: "Print the UUID in lowercase (as uuidgen and systemd do).")
    var lowercase = false

    /// Opens the store, runs `operation` on the group's identity, and prints the result.
    func run(_ storeOptions: StoreOptions, _ passphrase: PassphraseOptions, _ output: OutputOptions,
             _ operation: (DeviceIdentity) throws -> Identifier) throws {
        let session = try StoreSession(store: storeOptions, passphrase: passphrase)
        let group = try DefaultGroup.forIdentity(explicit: group)
        let identity = DeviceIdentity(store: session.store, options: .init(scope: .vendor(accessGroup: group)))
        print(try session.unlockingIfNeeded { try operation(identity) }, group: group, output: output)
    }

    private func print(_ identifier: Identifier, group: String, output: OutputOptions) {
        let uuid = lowercase ? identifier.lowercaseString : identifier.string
        if output.json {
            JSONOutput.print(["uuid": .string(uuid), "provenance": .string(identifier.provenance.rawValue),
                              "accessGroup": .string(group)])
        } else {
            Console.line(uuid)
        }
    }
}

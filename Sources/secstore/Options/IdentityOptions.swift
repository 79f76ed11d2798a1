import ArgumentParser
import DeviceIdentity
import SecStore

/// The options `identity show` and `identity reset` share.
struct IdentityOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The access group whose identifier to use.", valueName: "group"))
    var group: String?

    @Flag(help: "Print the UUID in lowercase (as uuidgen and systemd do).")
    var lowercase = false

    func identity(in store: SecretStore) throws -> (DeviceIdentity, String) {
        let group = try DefaultGroup.resolve(explicit: group)
        return (DeviceIdentity(store: store, options: .init(scope: .vendor(accessGroup: group))), group)
    }

    func print(_ identifier: Identifier, group: String, output: OutputOptions) {
        let uuid = lowercase ? identifier.lowercaseString : identifier.string
        if output.json {
            JSONOutput.print(["uuid": .string(uuid), "provenance": .string(identifier.provenance.rawValue),
                              "accessGroup": .string(group)])
        } else {
            Console.line(uuid)
        }
    }
}

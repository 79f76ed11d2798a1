import ArgumentParser
import DeviceIdentity
import Foundation
import SecStore

/// `identity [--vendor-group G] [--mirror PATH] [--derive-vendor V --machine-id PATH]
/// [--reset yes] [--start-after PATH]`: prints `<UUID> <provenance>`, as one app would see
/// its device identity, for the scope, reinstall and concurrent-first-launch tests.
struct IdentityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "identity",
        abstract: "Print the device identity as `<UUID> <provenance>`.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var startGate: StartGateOptions

    @Option(name: .customLong("vendor-group"), help: ArgumentHelp(
        "Use the vendor scope in this access group (default: the application scope).", valueName: "group"))
    var vendorGroup: String?

    @Option(help: ArgumentHelp("The app's mirror file of the identifier.", valueName: "path"))
    var mirror: String?

    @Option(name: .customLong("derive-vendor"), help: ArgumentHelp(
        "Derive the identifier from the machine ID for this vendor; needs --machine-id.", valueName: "vendor"))
    var deriveVendor: String?

    @Option(name: .customLong("machine-id"), help: ArgumentHelp("The machine-id file to derive from.", valueName: "path"))
    var machineID: String?

    @Option(help: ArgumentHelp("yes: reset the identifier instead of reading it.", valueName: "yes|no"))
    var reset: YesNo = .no

    func validate() throws {
        if deriveVendor != nil, machineID == nil {
            throw ValidationError("--derive-vendor needs --machine-id PATH.")
        }
    }

    func run() throws {
        startGate.waitForGate()
        var options = DeviceIdentity.Options()
        if let vendorGroup { options.scope = .vendor(accessGroup: vendorGroup) }
        options.mirrorURL = mirror.map { URL(filePath: $0) }
        if let deriveVendor, let machineID {
            options.derivation = .machineID(vendorID: deriveVendor, machineIDFile: URL(filePath: machineID))
        }
        let identity = DeviceIdentity(store: try storeOptions.openStore(), options: options)
        let identifier = reset == .yes ? try identity.reset() : try identity.identifier()
        print("\(identifier.string) \(identifier.provenance)")
    }
}

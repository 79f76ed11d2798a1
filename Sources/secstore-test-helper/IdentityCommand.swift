import DeviceIdentity
import Foundation
import SecStore

/// `identity [--vendor-group G] [--mirror PATH] [--derive-vendor V --machine-id PATH]
/// [--reset yes] [--start-after PATH]`: prints `<UUID> <provenance>`.
///
/// `--start-after` waits until that file exists, so a test can release many processes at
/// the same moment.
enum IdentityCommand {
    static func run(_ arguments: HelperArguments) throws {
        if let gate = arguments.optional("start-after") {
            while !FileManager.default.fileExists(atPath: gate) { usleep(1_000) }
        }
        var options = DeviceIdentity.Options()
        if let group = arguments.optional("vendor-group") { options.scope = .vendor(accessGroup: group) }
        options.mirrorURL = arguments.optional("mirror").map { URL(filePath: $0) }
        if let vendor = arguments.optional("derive-vendor") {
            options.derivation = .machineID(vendorID: vendor, machineIDFile: URL(filePath: try arguments.required("machine-id")))
        }
        let identity = DeviceIdentity(store: try arguments.openStore(), options: options)
        let identifier = arguments.optional("reset") == "yes" ? try identity.reset() : try identity.identifier()
        print("\(identifier.string) \(identifier.provenance)")
    }
}

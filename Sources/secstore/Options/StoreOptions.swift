import ArgumentParser
import Foundation
import SecStore

/// `--store` and `--device-key`: which store to act on. Declared on the root command and
/// on every subcommand, so they may come before or after the command name.
///
/// ```
/// secstore --store ~/work.secstore list
/// SECSTORE_PATH=~/work.secstore secstore list
/// ```
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("store"), help: ArgumentHelp(
        "The store file. Default: $SECSTORE_PATH, else $XDG_DATA_HOME/secstore/default.secstore (~/.local/share without XDG_DATA_HOME).",
        valueName: "path"), completion: .file())
    var storePath: String?

    @Option(name: .customLong("device-key"), help: ArgumentHelp(
        "The device key file. Default: $SECSTORE_DEVICE_KEY, else device.key next to the default store.",
        valueName: "path"), completion: .file())
    var deviceKeyPath: String?

    /// The store file: `--store`, else `SECSTORE_PATH`, else the per-user default.
    var storeURL: URL {
        storePath.map { URL(filePath: $0) } ?? StoreLocation.defaultStoreURL()
    }

    /// The device key file: `--device-key`, else `SECSTORE_DEVICE_KEY`, else the default.
    var deviceKeyURL: URL {
        deviceKeyPath.map { URL(filePath: $0) } ?? StoreLocation.defaultDeviceKeyURL()
    }

    /// Opens the store as its owner (every access group is visible). Only `create` may
    /// create a missing store.
    func open(creating: Bool = false) throws -> SecretStore {
        try SecretStore(at: storeURL, options: options(creating: creating))
    }

    /// How the tool opens stores: as their owner, with the chosen device key.
    func options(creating: Bool = false) -> SecretStore.Options {
        SecretStore.Options(access: .owner, deviceKeyURL: deviceKeyURL, createIfMissing: creating)
    }
}

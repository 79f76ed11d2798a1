import Foundation

/// Where stores and the device key live when no path is given.
///
/// | file | location |
/// | --- | --- |
/// | default store | `$SECSTORE_PATH`, else `$XDG_DATA_HOME/secstore/default.secstore`, else `~/.local/share/secstore/default.secstore` |
/// | device key | `$SECSTORE_DEVICE_KEY`, else `device.key` in the same `secstore` data directory |
///
/// ```swift
/// let store = try SecretStore(at: StoreLocation.defaultStoreURL())
/// ```
public enum StoreLocation {
    /// The per-user SecStore data directory: `$XDG_DATA_HOME/secstore` or `~/.local/share/secstore`.
    ///
    /// ```swift
    /// StoreLocation.dataDirectory(environment: ["HOME": "/home/alice"]).path   // "/home/alice/.local/share/secstore"
    /// ```
    public static func dataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(filePath: xdg, directoryHint: .isDirectory).appending(path: "secstore", directoryHint: .isDirectory)
        }
        let home = environment["HOME"].map { URL(filePath: $0, directoryHint: .isDirectory) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appending(path: ".local/share/secstore", directoryHint: .isDirectory)
    }

    /// The store used when none is named: `$SECSTORE_PATH` or `default.secstore` in ``dataDirectory(environment:)``.
    ///
    /// ```swift
    /// let url = StoreLocation.defaultStoreURL()                 // where `secstore` and SecItem calls look
    /// let test = StoreLocation.defaultStoreURL(environment: ["SECSTORE_PATH": "/tmp/t.secstore"])
    /// ```
    public static func defaultStoreURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment["SECSTORE_PATH"], !path.isEmpty {
            return URL(filePath: path)
        }
        return dataDirectory(environment: environment).appending(path: "default.secstore")
    }

    /// The per-user device key: `$SECSTORE_DEVICE_KEY` or `device.key` in ``dataDirectory(environment:)``.
    ///
    /// ```swift
    /// var options = SecretStore.Options()
    /// options.deviceKeyURL = StoreLocation.defaultDeviceKeyURL()   // the default; shown for clarity
    /// ```
    public static func defaultDeviceKeyURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment["SECSTORE_DEVICE_KEY"], !path.isEmpty {
            return URL(filePath: path)
        }
        return dataDirectory(environment: environment).appending(path: "device.key")
    }
}

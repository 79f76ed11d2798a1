import Foundation
import SecStore
import SecStoreTestSupport
@testable import DeviceIdentity

/// One app's view of a shared store: its entitlements and its mirror file.
struct TestApp {
    static let vendorGroup = "ABCDE12345.com.example.shared"

    var appID: String
    var directory: TemporaryDirectory

    var entitlements: Entitlements {
        Entitlements(applicationIdentifier: appID, keychainAccessGroups: [appID, Self.vendorGroup])
    }

    /// The app's own files, which a reinstall deletes.
    var mirrorURL: URL { directory.url.appending(path: "apps/\(appID)/device-id") }
    var machineIDURL: URL { directory.url.appending(path: "machine-id") }

    func store() throws -> SecretStore {
        try SecretStore(at: directory.storeURL, options: .init(access: .entitled(entitlements), deviceKeyURL: directory.deviceKeyURL,
                                                               firstUnlockCache: .processMemory))
    }

    func identity(_ scope: DeviceIdentity.Scope = .application, mirror: Bool = true, derive: Bool = false) throws -> DeviceIdentity {
        var options = DeviceIdentity.Options(scope: scope, mirrorURL: mirror ? mirrorURL : nil)
        if derive { options.derivation = .machineID(vendorID: "com.example", machineIDFile: machineIDURL) }
        return DeviceIdentity(store: try store(), options: options)
    }

    /// Runs the identity helper as a separate process of this app.
    func helperArguments(_ extra: [String] = []) -> [String] {
        ["identity", "--store", directory.storeURL.path, "--device-key", directory.deviceKeyURL.path,
         "--app-id", appID, "--group", appID, "--group", Self.vendorGroup, "--first-unlock-cache", "process",
         "--mirror", mirrorURL.path] + extra
    }
}

let helper = HelperProcess(product: "secstore-test-helper")

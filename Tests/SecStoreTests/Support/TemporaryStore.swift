import Foundation
import SecStore

/// A directory under the system temp dir holding one test's store files and device key,
/// removed when the value is released.
final class TemporaryDirectory: @unchecked Sendable {
    let url: URL

    init(_ name: String = "secstore-test") {
        url = FileManager.default.temporaryDirectory
            .appending(path: "\(name)-\(UUID().uuidString)", directoryHint: .isDirectory)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    var storeURL: URL { url.appending(path: "data/test.secstore") }
    var deviceKeyURL: URL { url.appending(path: "keys/device.key") }

    /// Every file below the directory, recursively.
    func allFiles() -> [URL] {
        let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey])
        return (enumerator?.allObjects as? [URL] ?? []).filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }
    }
}

/// Test entitlements: two groups, G1 the default, as in the reference's conformance setup.
enum TestEntitlements {
    static let g1 = "ABCDE12345.com.example.g1"
    static let g2 = "ABCDE12345.com.example.g2"
    static let app = Entitlements(applicationIdentifier: "ABCDE12345.com.example.app", keychainAccessGroups: [g1, g2])
}

extension TemporaryDirectory {
    func openStore(access: StoreAccess = .entitled(TestEntitlements.app), createIfMissing: Bool = true) throws -> SecretStore {
        try SecretStore(at: storeURL, options: .init(access: access, deviceKeyURL: deviceKeyURL, createIfMissing: createIfMissing))
    }
}

extension String {
    var utf8Data: Data { Data(utf8) }
}

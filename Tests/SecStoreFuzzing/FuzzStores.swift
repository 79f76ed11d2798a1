import Foundation
import SecStore

/// The files the store-backed targets use: one private directory per process, in `/dev/shm`
/// when it exists (fsync costs nothing there, so a fuzzer runs thousands of transactions a
/// second without wearing a disk), else in the temporary directory. Removed at exit.
enum FuzzStores {
    static let directory: URL = {
        let shared = URL(filePath: "/dev/shm", directoryHint: .isDirectory)
        let parent = access(shared.path, W_OK) == 0 ? shared : FileManager.default.temporaryDirectory
        let url = parent.appending(path: "secstore-fuzz-\(getpid())-\(UUID().uuidString)", directoryHint: .isDirectory)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        atexit { FuzzStores.removeDirectory() }
        return url
    }()

    static var deviceKeyURL: URL { directory.appending(path: "device.key") }

    /// A file in the directory, for inputs a parser reads from a path.
    static func scratchFile(_ name: String) -> URL { directory.appending(path: name) }

    /// The entitlements of the SecItem target's process: two groups, G1 the default, and an
    /// application identifier, as in the conformance tests.
    static let g1 = "ABCDE12345.com.example.g1"
    static let g2 = "ABCDE12345.com.example.g2"
    static let applicationIdentifier = "ABCDE12345.com.example.app"
    static let foreignGroup = "ZZZZZ99999.com.example.other"

    /// Opens (creating) a store in the directory; `.processMemory` keeps AfterFirstUnlock keys
    /// out of the kernel keyring, whose quota a long run would otherwise use up.
    static func openStore(_ name: String, access: StoreAccess) throws -> SecretStore {
        try SecretStore(at: directory.appending(path: "\(name).secstore"),
                        options: .init(access: access, deviceKeyURL: deviceKeyURL, firstUnlockCache: .processMemory))
    }

    private static func removeDirectory() {
        try? FileManager.default.removeItem(at: directory)
    }
}

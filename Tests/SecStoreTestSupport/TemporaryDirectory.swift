import Foundation

/// A directory under the system temp dir holding one test's store files and device key,
/// removed when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL

    public init(_ name: String = "secstore-test") {
        url = FileManager.default.temporaryDirectory
            .appending(path: "\(name)-\(UUID().uuidString)", directoryHint: .isDirectory)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// `data/test.secstore` inside the directory.
    public var storeURL: URL { url.appending(path: "data/test.secstore") }
    /// `keys/device.key` inside the directory.
    public var deviceKeyURL: URL { url.appending(path: "keys/device.key") }

    /// Every regular file below the directory, recursively.
    public func allFiles() -> [URL] {
        let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey])
        return (enumerator?.allObjects as? [URL] ?? []).filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }
    }

    /// Removes the store file and its `-wal` / `-shm` companions.
    public func deleteStore() {
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: storeURL.path + suffix)
        }
    }
}

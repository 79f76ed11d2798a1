import Foundation

/// The directory a run works in: a fresh temporary one, or `--dir`'s. Each run replaces the
/// folders and files it makes there (`size-N`, `list-N`, `keys`, `secret-service`, `sync`,
/// `secstore-output`…), so a `--dir` that holds anything else is refused rather than having a
/// folder of the user's that shares one of those names deleted: it must be new, empty, or one an
/// earlier run made (it holds ``markerName``).
///
/// ```swift
/// try WorkDirectory.claim(URL(filePath: "/tmp/bench", directoryHint: .isDirectory))
/// ```
enum WorkDirectory {
    /// The file a run leaves in its work directory, so that a later run may reuse it.
    static let markerName = ".secstore-benchmark"

    /// Why a directory cannot be the work directory.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// Makes `directory` this run's: creates it (mode 0700) when it is missing, and marks it.
    /// Throws ``Refusal`` when it exists, holds something, and no earlier run made it.
    static func claim(_ directory: URL) throws {
        let manager = FileManager.default
        let marker = directory.appending(path: markerName)
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw Refusal(description: "--dir \(directory.path) is not a directory. Name a new or empty directory.")
            }
            let contents = try manager.contentsOfDirectory(atPath: directory.path)
            guard contents.isEmpty || contents.contains(markerName) else {
                throw Refusal(description: "--dir \(directory.path) is not empty and no earlier secstore-benchmark run made it: a run replaces the folders it makes there (size-N, list-N, keys, secret-service, sync), which could be yours. Name a new or empty directory.")
            }
        } else {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        guard manager.createFile(atPath: marker.path, contents: Data("Made by secstore-benchmark; a later run replaces what is here.\n".utf8),
                                 attributes: [.posixPermissions: 0o600])
        else {
            throw Refusal(description: "Cannot write \(marker.path): check that --dir is writable.")
        }
    }
}

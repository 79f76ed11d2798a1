import Foundation

/// The optional copy of the identifier outside the store: one line, the uppercase UUID, a
/// space and the access group it belongs to, in a `0600` file replaced atomically. The group
/// keeps one scope's value from being restored into another scope.
struct MirrorFile {
    let url: URL
    let group: String

    /// The mirrored UUID of this group, or `nil` when the file is missing, holds another
    /// group's value, or does not parse.
    func read() -> UUID? {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        let fields = text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ", maxSplits: 1)
        guard fields.count == 2, fields[1].utf8.elementsEqual(group.utf8) else { return nil }
        return UUID(uuidString: String(fields[0]))
    }

    func write(_ uuid: UUID) throws {
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let temporary = directory.appending(path: ".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).\(UInt32.random(in: 0...UInt32.max))")
        guard FileManager.default.createFile(atPath: temporary.path, contents: Data("\(uuid.uuidString) \(group)\n".utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        if rename(temporary.path, url.path) != 0 {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }

    func remove() throws {
        if FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.removeItem(at: url)
        }
    }
}

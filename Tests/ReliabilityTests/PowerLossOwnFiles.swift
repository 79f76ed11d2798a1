import Foundation
@testable import SecStore

/// The power-loss checks of SecStore's own files (issue 15, item 1): the files the workload
/// writes through the `FileSystem` seam, whose writes and directory entries the crash model
/// cuts like SQLite's (Tests/CrashVFS/CrashFiles.c). After each cut:
///
/// - a store made by an acknowledged `create` is at its path, its new device key is complete
///   and opens it with its passphrase, and it verifies; one in flight is absent or just as
///   whole; a device key file is never half written (55 bytes with its header, or absent);
/// - DeviceIdentity's mirror holds exactly one line naming the acknowledged identifier, or,
///   with an identity change in flight, the one the store holds; never a torn line;
/// - the backup at the export path imports and authenticates, holding the acknowledged
///   export's items, or, with an export in flight, it may be the new one (whole: rename).
extension PowerLossCampaign {
    var mirrorURL: URL { directory.url.appending(path: "identity.mirror") }
    var exportURL: URL { directory.url.appending(path: "exports").appending(path: "export.ssb") }

    func observeOwnFiles(_ observed: inout PowerLossModel, acknowledged: PowerLossModel,
                         withInFlight: PowerLossModel) throws {
        try observeCreatedStores(acknowledged: acknowledged, withInFlight: withInFlight)
        observed.mirror = try observeMirror(acknowledged: acknowledged, withInFlight: withInFlight, storeIdentity: observed.identity)
        observed.export = try observeExport(acknowledged: acknowledged, withInFlight: withInFlight)
    }

    private func observeCreatedStores(acknowledged: PowerLossModel, withInFlight: PowerLossModel) throws {
        for (path, created) in withInFlight.createdStores {
            let required = acknowledged.createdStores[path] != nil
            let key = URL(filePath: created.deviceKey)
            let keyExists = FileManager.default.fileExists(atPath: key.path)
            if keyExists {
                let bytes = try Data(contentsOf: key)
                guard bytes.count == DeviceKeyFile.header.count + DeviceKeyFile.keyByteCount,
                      bytes.starts(with: DeviceKeyFile.header) else {
                    throw PowerLossCampaign.Mismatch(description: "the device key \(key.path) is half written (\(bytes.count) bytes)")
                }
            }
            guard FileManager.default.fileExists(atPath: path) else {
                if required { throw PowerLossCampaign.Mismatch(description: "the acknowledged store \(path) is gone") }
                continue
            }
            guard keyExists else {
                throw PowerLossCampaign.Mismatch(description: "the store \(path) is there but its device key \(key.path) is not")
            }
            var createdOptions = options
            createdOptions.deviceKeyURL = key
            let store = try SecretStore(at: URL(filePath: path), options: createdOptions)
            try store.unlock(passphrase: created.passphrase)
            let report = try store.verify()
            guard report.isIntact else {
                throw PowerLossCampaign.Mismatch(description: "the created store \(path): \(report.databaseProblems)")
            }
        }
    }

    /// The UUID the mirror holds, or nil when there is no mirror file.
    private func observeMirror(acknowledged: PowerLossModel, withInFlight: PowerLossModel, storeIdentity: String?) throws -> String? {
        var mirrored: String?
        if let bytes = try? Data(contentsOf: mirrorURL) {
            let text = String(decoding: bytes, as: UTF8.self)
            let suffix = " \(PowerLossCommandNames.identityGroup)\n"
            guard text.hasSuffix(suffix), let uuid = UUID(uuidString: String(text.dropLast(suffix.count))) else {
                throw PowerLossCampaign.Mismatch(description: "the mirror \(mirrorURL.path) is not one whole line: \(bytes.count) bytes")
            }
            mirrored = uuid.uuidString
        }
        // The store's item is written before the mirror: with a change in flight, the mirror
        // is the old value or the one the store now holds.
        guard mirrored == acknowledged.mirror || (withInFlight.identityUnknown && mirrored != nil && mirrored == storeIdentity) else {
            throw PowerLossCampaign.Mismatch(description: """
                the mirror holds \(mirrored ?? "nothing"), expected \(acknowledged.mirror ?? "nothing")\
                \(withInFlight.identityUnknown ? " or the store's \(storeIdentity ?? "nothing")" : "")
                """)
        }
        return mirrored
    }

    /// How many items the backup at the export path holds, or nil when there is none.
    private func observeExport(acknowledged: PowerLossModel, withInFlight: PowerLossModel) throws -> Int? {
        guard FileManager.default.fileExists(atPath: exportURL.path) else {
            if let count = acknowledged.export {
                throw PowerLossCampaign.Mismatch(description: "the acknowledged backup of \(count) items at \(exportURL.path) is gone")
            }
            return nil
        }
        // It must import — authenticated to its last record — into an empty store.
        let scratch = directory.url.appending(path: "export-check.secstore")
        TemporaryFiles.removeWithCompanions(scratch.path)
        defer { TemporaryFiles.removeWithCompanions(scratch.path) }
        let store = try SecretStore.create(at: scratch, options: .init(access: .owner, deviceKeyURL: deviceKeyURL))
        let count: Int
        do {
            count = try store.importBackup(from: exportURL, passphrase: backupPassphrase).added
        } catch {
            throw PowerLossCampaign.Mismatch(description: "the backup at \(exportURL.path) does not import: \(error)")
        }
        guard count == acknowledged.export || withInFlight.exportUnknown else {
            throw PowerLossCampaign.Mismatch(description: "the backup at \(exportURL.path) holds \(count) items, the acknowledged export \(acknowledged.export.map(String.init) ?? "none")")
        }
        return count
    }
}

/// Names the helper's workload uses (Sources/secstore-test-helper/PowerLossCommand.swift).
enum PowerLossCommandNames {
    static let identityGroup = "pl.vendor"
}

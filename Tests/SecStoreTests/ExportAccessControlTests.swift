import Foundation
import Testing
@testable import SecStore

/// Export and import hand out or drop secrets, so an item's access control applies to them
/// as to a read (it did not: a fresh handle exported biometry and presence items).
@Suite struct ExportAccessControlTests {
    let passphrase = "store passphrase"

    func item(_ account: String, _ flags: AccessControlFlags?, _ accessibility: Accessibility = .always) -> Item {
        var item = Item.genericPassword(service: "s", account: account, data: Data(account.utf8), accessGroup: "G",
                                        accessibility: accessibility)
        item.attributes.accessControlFlags = flags
        return item
    }

    @Test func exportAppliesAccessControlAndLeavesOutWhatLinuxCanNeverRead() throws {
        let dir = TemporaryDirectory()
        do {
            let store = try dir.ownerStore("source")
            try store.setPassphrase(passphrase, limits: .minimumForTesting)
            try store.add(item("plain", nil))
            try store.add(item("presence", .userPresence))
            try store.add(item("biometry", .biometryAny))
        }
        let source = try dir.ownerStore("source")   // a new handle: no passphrase proof
        let backup = dir.url.appending(path: "backup.ssb")
        #expect { try source.exportBackup(to: backup, passphrase: "bp", limits: .minimumForTesting) } throws: {
            ($0 as? SecStoreError)?.code == .interactionNotAllowed
        }
        #expect(!FileManager.default.fileExists(atPath: backup.path))

        try source.unlock(passphrase: passphrase)
        let summary = try source.exportBackup(to: backup, passphrase: "bp", limits: .minimumForTesting)
        #expect(summary.exported == 2)
        #expect(summary.skippedUnreadable.count == 1)

        let destination = try dir.ownerStore("destination")
        try destination.setPassphrase(passphrase, limits: .minimumForTesting)
        #expect(try destination.importBackup(from: backup, passphrase: "bp").added == 2)
        #expect(try destination.find(Query(service: "s", account: "biometry")).isEmpty)
    }

    @Test func exportToADescriptorWritesNothingWhileAClassIsLocked() throws {
        let dir = TemporaryDirectory()
        do {
            let store = try dir.ownerStore("source")
            try store.setPassphrase(passphrase, limits: .minimumForTesting)
            try store.add(item("always", nil))
            try store.add(item("unlocked", nil, .whenUnlocked))
        }
        let source = try dir.ownerStore("source")
        let output = dir.url.appending(path: "stdout")
        #expect(FileManager.default.createFile(atPath: output.path, contents: nil))
        let handle = try FileHandle(forWritingTo: output)
        #expect { try source.exportBackup(writingTo: handle, passphrase: "bp", limits: .minimumForTesting) } throws: {
            ($0 as? SecStoreError)?.code == .interactionNotAllowed
        }
        try handle.close()
        #expect(try Data(contentsOf: output).isEmpty, "a retry after unlocking must start on a clean output")
    }

    @Test func replacingAnAccessControlledItemNeedsTheProof() throws {
        let dir = TemporaryDirectory()
        let backup = dir.url.appending(path: "backup.ssb")
        do {
            let store = try dir.ownerStore("a")
            try store.setPassphrase(passphrase, limits: .minimumForTesting)
            try store.add(item("presence", .userPresence))
            try store.unlock(passphrase: passphrase)
            _ = try store.exportBackup(to: backup, passphrase: "bp", limits: .minimumForTesting)
        }
        let fresh = try dir.ownerStore("a")   // no proof
        #expect { try fresh.importBackup(from: backup, passphrase: "bp", conflictPolicy: .replace) } throws: {
            ($0 as? SecStoreError)?.code == .interactionNotAllowed
        }
        try fresh.unlock(passphrase: passphrase)
        #expect(try fresh.importBackup(from: backup, passphrase: "bp", conflictPolicy: .replace).replaced == 1)
    }
}

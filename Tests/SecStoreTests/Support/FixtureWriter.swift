import Foundation
import GRDB
import SecStore

/// Writes a ``StoreFixture`` with the SecStore it is compiled with: the throwaway executable
/// that `scripts/write-fixture.sh` builds at the commit that wrote each fixture runs it (this
/// file is compiled there unchanged, so it too uses only API every format's SecStore has).
enum FixtureWriter {
    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    /// Writes `fixture` (store, device key, passphrase file, README naming `commit`) into
    /// `directory`, replacing what is there. Refuses, writing nothing into `directory`, unless
    /// this SecStore writes format `fixture.version`: any other would overwrite the fixture with
    /// its own format, and the tests would silently stop testing that version's files.
    static func write(_ fixture: StoreFixture, to directory: URL, commit: String) throws {
        let scratch = FileManager.default.temporaryDirectory.appending(path: "secstore-fixture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: scratch) }
        let storeURL = scratch.appending(path: StoreFixture.storeFileName)
        let deviceKeyURL = scratch.appending(path: StoreFixture.deviceKeyFileName)
        do {
            // AfterFirstUnlock keys in this process only: the kernel keyring keeps nothing.
            let store = try SecretStore(at: storeURL, options: .init(access: .entitled(fixture.entitlements), deviceKeyURL: deviceKeyURL,
                                                                     firstUnlockCache: .processMemory))
            try fixture.populate(store)
        }
        // The handle is gone: fold the WAL into the file, so the fixture is one file.
        let queue = try DatabaseQueue(path: storeURL.path)
        let (version, busy) = try queue.writeWithoutTransaction { db -> (Int, Bool) in
            let checkpoint = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            let busy: Int = checkpoint?[0] ?? 1
            return (try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0, busy != 0)
        }
        try queue.close()
        guard version == fixture.version else {
            throw Refusal(description: "This SecStore writes format version \(version); the version-\(fixture.version) fixture can only be written by a SecStore that writes version \(fixture.version) (the commit its README names).")
        }
        let wal = (try? Data(contentsOf: URL(filePath: storeURL.path + "-wal"))) ?? Data()
        guard !busy, wal.isEmpty else {
            throw Refusal(description: "The WAL was not checkpointed into the store (\(wal.count) bytes left).")
        }

        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(contentsOf: storeURL).write(to: directory.appending(path: StoreFixture.storeFileName), options: .atomic)
        try Data(contentsOf: deviceKeyURL).write(to: directory.appending(path: StoreFixture.deviceKeyFileName), options: .atomic)
        if let passphrase = fixture.passphrase {
            try Data("\(passphrase)\n".utf8).write(to: directory.appending(path: StoreFixture.passphraseFileName), options: .atomic)
        }
        try Data(fixture.readme(commit: commit).utf8).write(to: directory.appending(path: "README.md"), options: .atomic)
    }
}

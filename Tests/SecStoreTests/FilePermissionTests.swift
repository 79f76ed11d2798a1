import Foundation
import SecStoreTestSupport
import Testing
import SecStore

/// File modes and the device key (DESIGN.md "Storage" and "Keys").
@Suite struct FilePermissionTests {
    /// The database, -wal, -shm and device key are 0600; every directory SecStore created
    /// (nested ones included) is 0700.
    @Test func createdFilesAre0600AndDirectories0700() throws {
        let directory = TemporaryDirectory()
        let storeURL = directory.url.appending(path: "deep/er/store.secstore")
        let keyURL = directory.url.appending(path: "keys/nested/device.key")
        let store = try SecretStore(at: storeURL, options: .init(access: .entitled(TestEntitlements.app), deviceKeyURL: keyURL))
        try store.add(Sample.a())
        _ = try store.items(matching: Sample.q(returning: .data))

        let files = [storeURL, URL(filePath: storeURL.path + "-wal"), URL(filePath: storeURL.path + "-shm"), keyURL]
        for file in files {
            #expect(FileManager.default.fileExists(atPath: file.path), "\(file.lastPathComponent) missing")
            #expect(try permissionBits(of: file) == 0o600, "\(file.lastPathComponent)")
        }
        for created in ["deep", "deep/er", "keys", "keys/nested"] {
            #expect(try permissionBits(of: directory.url.appending(path: created)) == 0o700, "\(created)")
        }
        // Nothing else was left behind (such as the device key's temporary file).
        let names = Set(directory.allFiles().map { $0.path.replacingOccurrences(of: directory.url.path + "/", with: "") })
        #expect(names == ["deep/er/store.secstore", "deep/er/store.secstore-wal", "deep/er/store.secstore-shm", "keys/nested/device.key"])
    }

    /// Before: an existing data directory of mode 0777 was used as it was, and another user
    /// deleted the device key and the store through it. Now this user's own such directory
    /// loses its group and world write bits at every open (the store's and the key's); a
    /// sticky one (`/tmp`) is left alone.
    @Test(arguments: [0o777, 0o775, 0o757])
    func aDirectoryOthersCanWriteIsRepaired(mode: Int) throws {
        let directory = TemporaryDirectory()
        let data = directory.url.appending(path: "data")
        let keys = directory.url.appending(path: "keys")
        for shared in [data, keys] {
            try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: shared.path)
        }
        let storeURL = data.appending(path: "store.secstore"), keyURL = keys.appending(path: "device.key")
        do {
            let store = try SecretStore(at: storeURL, options: .init(access: .owner, deviceKeyURL: keyURL))
            try store.add(.genericPassword(service: "s", account: "a", accessGroup: "G"))
        }
        #expect(try permissionBits(of: data) == mode & 0o755)
        #expect(try permissionBits(of: keys) == mode & 0o755)
        // Loosened again between two opens: repaired again.
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: data.path)
        _ = try SecretStore(at: storeURL, options: .init(access: .owner, deviceKeyURL: keyURL))
        #expect(try permissionBits(of: data) == mode & 0o755)

        let sticky = directory.url.appending(path: "sticky")
        try FileManager.default.createDirectory(at: sticky, withIntermediateDirectories: true)
        #expect(chmod(sticky.path, 0o1777) == 0)
        _ = try SecretStore(at: sticky.appending(path: "s.secstore"), options: .init(access: .owner, deviceKeyURL: keyURL))
        #expect(try permissionBits(of: sticky) == 0o1777)
    }

    /// Another user's directory that others can write is refused, not changed (needs root to
    /// give the directory away).
    @Test(.enabled(if: geteuid() == 0)) func anotherUsersSharedDirectoryIsRefused() throws {
        let directory = TemporaryDirectory()
        let shared = directory.url.appending(path: "shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        #expect(chmod(shared.path, 0o777) == 0 && chown(shared.path, 65534, 65534) == 0)
        let error = try #require(throws: SecStoreError.self) {
            _ = try SecretStore(at: shared.appending(path: "s.secstore"), options: .init(access: .owner, deviceKeyURL: directory.deviceKeyURL))
        }
        #expect(error.code == .storeUnavailable && error.message.contains("can be written by other users"))
        #expect(try permissionBits(of: shared) == 0o777)
        #expect(!FileManager.default.fileExists(atPath: shared.appending(path: "s.secstore").path))
    }

    /// Before: a `-wal` that was a FIFO failed the open as an I/O failure ("the disk may be
    /// full"); it is named for what it is.
    @Test(arguments: ["-wal", "-shm"])
    func aCompanionThatIsNotAFileIsNamed(suffix: String) throws {
        let directory = TemporaryDirectory()
        let storeURL = directory.url.appending(path: "store.secstore")
        do {
            let store = try SecretStore(at: storeURL, options: .init(access: .owner, deviceKeyURL: directory.deviceKeyURL))
            try store.add(.genericPassword(service: "s", account: "a", accessGroup: "G"))
        }
        try? FileManager.default.removeItem(atPath: storeURL.path + suffix)
        #expect(mkfifo(storeURL.path + suffix, 0o600) == 0)
        let error = try #require(throws: SecStoreError.self) {
            let store = try SecretStore(at: storeURL, options: .init(access: .owner, deviceKeyURL: directory.deviceKeyURL))
            try store.add(.genericPassword(service: "s", account: "b", accessGroup: "G"))
        }
        #expect(error.code == .storeUnavailable && error.message.contains("\(suffix), the store's SQLite"), "\(error)")
    }

    /// Before: a `-wal` or `-shm` that someone else made was used as it was: in a shared sticky
    /// directory (which SecStore accepts, above) another user could leave a `0666` file of
    /// theirs at the name before the next open, and SQLite then wrote the store's log into it,
    /// or replayed pages that user wrote into it; one of this user's own that others could read
    /// or write kept its mode unless the store file's was loose too. Another user's is now
    /// refused, like another user's store file, and this user's own is repaired to `0600`.
    @Test(arguments: ["-wal", "-shm"])
    func aCompanionOthersCouldUseIsRepairedOrRefused(suffix: String) throws {
        let directory = TemporaryDirectory()
        let storeURL = directory.url.appending(path: "store.secstore")
        let options = SecretStore.Options(access: .owner, deviceKeyURL: directory.deviceKeyURL)
        do {
            let store = try SecretStore(at: storeURL, options: options)
            try store.add(.genericPassword(service: "s", account: "a", accessGroup: "G"))
        }
        let companion = storeURL.path + suffix
        try? FileManager.default.removeItem(atPath: companion)
        // Not empty: SQLite itself gives an empty companion the store file's mode when it opens it.
        #expect(FileManager.default.createFile(atPath: companion, contents: Data(count: 32)))
        #expect(chmod(companion, 0o666) == 0)
        do {
            let store = try SecretStore(at: storeURL, options: options)
            try store.add(.genericPassword(service: "s", account: "b", accessGroup: "G"))
            #expect(try permissionBits(of: URL(filePath: companion)) == 0o600)
        }
        guard geteuid() == 0 else { return }   // giving the file away needs root
        try? FileManager.default.removeItem(atPath: companion)
        #expect(FileManager.default.createFile(atPath: companion, contents: nil))
        #expect(chmod(companion, 0o666) == 0 && chown(companion, 65534, 65534) == 0)
        let error = try #require(throws: SecStoreError.self) {
            let store = try SecretStore(at: storeURL, options: options)
            try store.add(.genericPassword(service: "s", account: "c", accessGroup: "G"))
        }
        #expect(error.code == .storeUnavailable && error.message.contains("\(suffix), the store's SQLite") && error.message.contains("65534"), "\(error)")
    }

    /// The device key file: 0600, the documented header, 32 key bytes.
    @Test func deviceKeyFileFormat() throws {
        let harness = try StoreHarness()
        let contents = try Data(contentsOf: harness.directory.deviceKeyURL)
        let header = Data("secstore-device-key-v1\n".utf8)
        #expect(contents.count == header.count + 32)
        #expect(contents.prefix(header.count) == header)
        #expect(try permissionBits(of: harness.directory.deviceKeyURL) == 0o600)
    }

    /// A key file readable or writable by group or others is refused, and the message
    /// says how to fix it.
    @Test(arguments: [0o640, 0o604, 0o660, 0o644, 0o602, 0o620])
    func exposedDeviceKeyIsRefused(mode: Int) throws {
        let directory = TemporaryDirectory()
        do {
            let store = try directory.openStore()
            try store.add(Sample.a())
        }
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: directory.deviceKeyURL.path)
        let error = expectError(.insecureKeyFile) { try directory.openStore() }
        #expect(error?.status == OSStatusValue.notAvailable)
        #expect(error?.message.contains("chmod 600") == true)
        #expect(error?.message.contains(directory.deviceKeyURL.path) == true)

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: directory.deviceKeyURL.path)
        #expect(try directory.openStore().secret(Sample.q()) == "pw".utf8Data)
    }

    /// A key file that is not a key (a directory, the wrong size) is refused.
    @Test func malformedDeviceKeyIsRefused() throws {
        let directory = TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.deviceKeyURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: directory.deviceKeyURL.path, contents: Data(repeating: 7, count: 40),
                                       attributes: [.posixPermissions: 0o600])
        expectError(.insecureKeyFile) { try directory.openStore() }
        #expect(!FileManager.default.fileExists(atPath: directory.storeURL.path))
    }

    /// A store opened with another device key fails with wrongDeviceKey and is not harmed.
    @Test func anotherDeviceKeyIsRefused() throws {
        let first = TemporaryDirectory()
        do { try first.openStore().add(Sample.a()) }
        let second = TemporaryDirectory()
        _ = try second.openStore()  // creates a second, different device key
        let options = SecretStore.Options(access: .entitled(TestEntitlements.app), deviceKeyURL: second.deviceKeyURL)
        let error = expectError(.wrongDeviceKey) { try SecretStore(at: first.storeURL, options: options) }
        #expect(error?.status == OSStatusValue.authFailed)
        #expect(try first.openStore().secret(Sample.q()) == "pw".utf8Data)
    }

    /// An existing store whose device key is missing is not silently given a new key.
    @Test func missingDeviceKeyForExistingStore() throws {
        let directory = TemporaryDirectory()
        do { try directory.openStore().add(Sample.a()) }
        try FileManager.default.removeItem(at: directory.deviceKeyURL)
        expectError(.storeUnavailable) { try directory.openStore() }
        #expect(!FileManager.default.fileExists(atPath: directory.deviceKeyURL.path))
        expectError(.storeUnavailable) { try TemporaryDirectory().openStore(createIfMissing: false) }
    }
}

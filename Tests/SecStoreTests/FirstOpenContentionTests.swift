import Foundation
@testable import SecStore
import SecStoreTestSupport
import Testing

/// A store appears at its path only complete (built under a temporary name and linked into
/// place), so an empty or table-less file there is damage, never a new store; and a
/// process that finds another one writing waits within the busy timeout.
@Suite struct FirstOpenContentionTests {
    func options(_ dir: TemporaryDirectory) -> SecretStore.Options {
        .init(access: .entitled(TestEntitlements.app), deviceKeyURL: dir.deviceKeyURL)
    }

    @Test("An existing empty or table-less file is corruptData, left as it is, never re-created as a new store")
    func emptyFileIsDamage() throws {
        let dir = TemporaryDirectory()
        _ = try SecretStore(at: dir.url.appending(path: "data/other.secstore"), options: options(dir))
        // Zero bytes, as a truncated file or a crashed early version left it.
        #expect(FileManager.default.createFile(atPath: dir.storeURL.path, contents: Data(), attributes: [.posixPermissions: 0o600]))
        #expect { try SecretStore(at: dir.storeURL, options: options(dir)) } throws: { ($0 as? SecStoreError)?.code == .corruptData }
        #expect(try FileManager.default.attributesOfItem(atPath: dir.storeURL.path)[.size] as? Int == 0)
        // An SQLite file with no tables: the same.
        let holder = try helper.start(["hold-lock", "--store", dir.storeURL.path, "--seconds", "0"])
        #expect(try holder.finish().status == 0)
        #expect { try SecretStore(at: dir.storeURL, options: options(dir)) } throws: { ($0 as? SecStoreError)?.code == .corruptData }
    }

    @Test("SecretStore.create builds the whole store, passphrase included, before it appears; a failure leaves nothing")
    func createIsAtomic() throws {
        let dir = TemporaryDirectory()
        let store = try SecretStore.create(at: dir.storeURL, options: options(dir), passphrase: "pw", limits: .minimumForTesting)
        #expect(try store.lockState == .locked)
        #expect { try SecretStore.create(at: dir.storeURL, options: options(dir)) } throws: { ($0 as? SecStoreError)?.code == .duplicateItem }

        // Limits SecStore refuses (64 GiB) fail after the temporary store was built: no file
        // at the path, no temporary left.
        let other = dir.url.appending(path: "data/big.secstore")
        let huge = PasswordHashingLimits(operations: 1, memoryBytes: 64 << 30)
        #expect { try SecretStore.create(at: other, options: options(dir), passphrase: "pw", limits: huge) } throws: {
            ($0 as? SecStoreError)?.code == .invalidParameter
        }
        #expect(!FileManager.default.fileExists(atPath: other.path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: other.deletingLastPathComponent().path)
        #expect(leftovers.allSatisfy { !$0.contains(".new-") }, "\(leftovers)")
    }

    @Test("A writer waits out another process's write lock on the store")
    func writerWaitsForTheLock() throws {
        let dir = TemporaryDirectory()
        _ = try SecretStore(at: dir.storeURL, options: options(dir))
        let holder = try helper.start(["hold-lock", "--store", dir.storeURL.path, "--seconds", "0.5"])
        defer { holder.kill() }
        #expect(holder.waitForLine("holding"))

        let started = Date()
        let store = try SecretStore(at: dir.storeURL, options: options(dir))
        try store.add(.genericPassword(service: "s", account: "a", data: Data("pw".utf8)))
        #expect(Date().timeIntervalSince(started) >= 0.2, "the write waited for the lock")
        #expect(try store.items(matching: Query(service: "s", account: "a", returning: .data)).first?.data == Data("pw".utf8))
        #expect(try holder.finish().status == 0)
    }

    /// A store that vanished between the existence check and the open is not re-created
    /// as an empty file (which every later open would report as damage).
    @Test("Opening an existing store never creates its file")
    func openingNeverCreates() throws {
        let dir = TemporaryDirectory()
        _ = try SecretStore(at: dir.url.appending(path: "data/other.secstore"), options: options(dir))
        #expect { try SecretStore(opening: dir.storeURL, options: options(dir), initializing: false) } throws: {
            ($0 as? SecStoreError)?.code == .storeUnavailable
        }
        #expect(!FileManager.default.fileExists(atPath: dir.storeURL.path))
    }
}

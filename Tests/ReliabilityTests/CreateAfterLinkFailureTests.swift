import Foundation
import SecStoreTestSupport
import Synchronization
import Testing
@testable import SecStore

/// `SecretStore.create` links the finished store into place, syncs the directory, then opens
/// it. When a step after the link fails, the store exists: the error must say so, or a retry
/// of `create` meets "already exists" with no idea why (docs/reliability.md). These tests
/// make one system call fail through SecStore's `FileSystem` seam, for this test's store
/// path only (other tests in the process go on using the system calls).
@Suite(.serialized) struct CreateAfterLinkFailureTests {
    /// An implementation that fails the calls `fails` picks with EIO, once the store is linked.
    private static func failingAfterLink(of url: URL, fails: @escaping @Sendable (_ call: String, _ path: String) -> Bool) -> FileSystem {
        let system = FileSystem.system
        let linked = Mutex(false)
        let directories = Mutex<[Int32: String]>([:])
        var failing = system
        failing.linkEntry = { existing, new in
            let result = system.linkEntry(existing, new)
            if result == 0 && new == url.path { linked.withLock { $0 = true } }
            return result
        }
        failing.openFile = { path, flags, mode in
            if linked.withLock({ $0 }) && fails("open", path) {
                errno = EIO
                return -1
            }
            let descriptor = system.openFile(path, flags, mode)
            if descriptor >= 0 && flags & O_DIRECTORY != 0 { directories.withLock { $0[descriptor] = path } }
            return descriptor
        }
        failing.sync = { descriptor in
            if linked.withLock({ $0 }), let path = directories.withLock({ $0[descriptor] }), fails("fsync", path) {
                errno = EIO
                return -1
            }
            return system.sync(descriptor)
        }
        failing.closeFile = { descriptor in
            directories.withLock { _ = $0.removeValue(forKey: descriptor) }
            return system.closeFile(descriptor)
        }
        return failing
    }

    private func create(_ directory: TemporaryDirectory, failing: FileSystem) -> SecStoreError? {
        FileSystem.current = failing
        defer { FileSystem.current = .system }
        do {
            _ = try SecretStore.create(at: directory.storeURL, options: .init(access: .owner, deviceKeyURL: directory.deviceKeyURL))
            return nil
        } catch {
            return error as? SecStoreError
        }
    }

    @Test func aReopenThatFailsAfterTheLinkSaysTheStoreWasCreated() throws {
        let directory = TemporaryDirectory("secstore-create-reopen")
        let url = directory.storeURL
        let error = create(directory, failing: Self.failingAfterLink(of: url) { call, path in call == "open" && path == url.path })
        let failure = try #require(error, "create succeeded although opening the linked store failed")
        #expect(failure.code == .ioFailure)
        #expect(failure.message.hasPrefix("The store was created at \(url.path), but opening it failed: "), "\(failure.message)")
        #expect(failure.message.contains("Cannot open \(url.path): Input/output error"), "\(failure.message)")
        // It was: the store opens, and a second create says it exists.
        let store = try SecretStore(at: url, options: .init(access: .owner, deviceKeyURL: directory.deviceKeyURL))
        #expect(try store.verify().isIntact)
        #expect(throws: SecStoreError.self) { try SecretStore.create(at: url, options: .init(access: .owner, deviceKeyURL: directory.deviceKeyURL)) }
    }

    @Test func aDirectorySyncThatFailsAfterTheLinkSaysTheStoreWasCreated() throws {
        let directory = TemporaryDirectory("secstore-create-dirsync")
        let url = directory.storeURL
        let parent = url.deletingLastPathComponent().path
        let error = create(directory, failing: Self.failingAfterLink(of: url) { call, path in call == "fsync" && path == parent })
        let failure = try #require(error, "create succeeded although the directory sync after the link failed")
        #expect(failure.code == .ioFailure)
        #expect(failure.message.hasPrefix("The store was created at \(url.path), but cannot flush the directory \(parent) to disk"),
                "\(failure.message)")
        #expect(FileManager.default.fileExists(atPath: url.path))
    }
}

import Foundation
import GRDB
import SecStoreTestSupport
import Testing
@testable import SecStore

/// Failures at the file-system boundary say what happened (found by the fault-injection
/// machine, docs/reliability.md): a quota or a full disk behind SQLite's generic I/O error,
/// and a directory that cannot be synced is an error, never a silent success.
@Suite struct IOFailureMessagesTests {
    /// Before: EDQUOT, and ENOSPC on a sync, read "SQLite failed …: 10 (disk I/O error)".
    @Test func sqliteIOErrorsNameTheirCause() {
        let ioError = DatabaseError(resultCode: .SQLITE_IOERR)
        #expect(StoreDatabase.translate(ioError, path: "/s", systemErrno: EDQUOT).message.contains("quota"))
        #expect(StoreDatabase.translate(ioError, path: "/s", systemErrno: ENOSPC).message.contains("full"))
        #expect(StoreDatabase.translate(ioError, path: "/s", systemErrno: EIO).message.contains("EIO"))
        let unknown = StoreDatabase.translate(ioError, path: "/s").message
        #expect(unknown.contains("full, over quota or failing") && !unknown.contains("SQLITE"), "\(unknown)")
    }

    /// Before: `syncDirectory` ignored every failure, so a rename or link that might not
    /// survive a power cut was reported as done.
    @Test func aDirectoryThatCannotBeSyncedIsAnError() throws {
        let dir = TemporaryDirectory()
        #expect(throws: SecStoreError.self) { try FileSecurity.syncDirectory(dir.url.appending(path: "missing")) }
        try FileManager.default.createDirectory(at: dir.url, withIntermediateDirectories: true)
        try FileSecurity.syncDirectory(dir.url)
    }

    /// New directories are synced into their parent (the fsync audit's rule R5).
    @Test func newDirectoriesAreCreatedPrivate() throws {
        let dir = TemporaryDirectory()
        let nested = dir.url.appending(path: "a/b/c")
        try FileSecurity.ensurePrivateDirectory(nested)
        let mode = try FileManager.default.attributesOfItem(atPath: nested.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }
}

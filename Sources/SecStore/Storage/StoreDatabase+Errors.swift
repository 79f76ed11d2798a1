import Foundation
internal import GRDB

/// SQLite's failures as the store's errors: the one place GRDB's `DatabaseError` is turned into
/// a ``SecStoreError``.
extension StoreDatabase {
    /// SQLite's errors become the store's here, where GRDB is met; a body's own errors (a
    /// caller's, in `SecretStore.write`) pass through untouched.
    func translatingErrors<T>(_ work: () throws -> T) throws -> T {
        do {
            return try work()
        } catch let error as DatabaseError {
            throw Self.translate(error, path: path)
        }
    }

    /// Maps a SQLite failure to SecStore's error kinds. `systemErrno`, when known, names the
    /// cause of an I/O failure.
    static func translate(_ error: DatabaseError, path: String, systemErrno: Int32 = 0) -> SecStoreError {
        switch systemErrno {
        case ENOSPC:
            return SecStoreError(.ioFailure, "The disk holding \(path) is full. Free some space and retry; nothing was written.")
        case EDQUOT:
            return SecStoreError(.ioFailure, "Your disk quota on the file system holding \(path) is used up. Free some space and retry; nothing was written.")
        case EIO:
            return SecStoreError(.ioFailure, "The disk holding \(path) failed to read or write (EIO); nothing was written. Check the disk, then run `secstore verify`.")
        case EACCES, EPERM, EROFS:
            return SecStoreError(.readOnly, "The store \(path) cannot be written (\(String(cString: strerror(systemErrno)))); nothing was written. Check the permissions of the file and its directory.")
        default:
            break
        }
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            if let holder = LockHolder.describe(storePath: path) {
                return SecStoreError(.storeBusy, "The store \(path) stayed locked by another writer, \(holder), past the busy timeout (Options.busyTimeout, 10 s by default). Retry when it is done, or stop it.")
            }
            return SecStoreError(.storeBusy, "The store \(path) stayed locked by another writer past the busy timeout (Options.busyTimeout, 10 s by default). Retry, or find the process holding it (`fuser \(path)`).")
        case .SQLITE_READONLY:
            return SecStoreError(.readOnly, "The store \(path) is read-only: it can be read, but changing it needs write access to the file and its directory. Check their permissions.")
        case .SQLITE_IOERR where CompanionFiles.logIsNotTheSharedMemorys(storePath: path),
             .SQLITE_CORRUPT where CompanionFiles.logIsNotTheSharedMemorys(storePath: path):
            // What the other programs meet after a store's -wal was deleted under one that had
            // it open: not a failing disk, nor a damaged store.
            return storeCompanionReplaced(path, suffix: CompanionFiles.log, whileOpenHere: false)
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return SecStoreError(.corruptData, "The store \(path) is not a readable SQLite database (\(error.resultCode)). Restore it from a backup (`secstore import`).")
        case .SQLITE_TOOBIG:
            return SecStoreError(.dataTooLarge, "The item is larger than SQLite stores in one value (1 GB by default). Keep large data in a file and store its key here.")
        case .SQLITE_ERROR:
            // SecStore's statements are fixed text, prepared against the tables its format
            // version promises: a table or column that is missing or already there means the
            // schema no longer matches that version (a damaged `sqlite_master`, or a
            // `user_version` changed by hand).
            return SecStoreError(.corruptData, "The tables of the store \(path) do not match its format version (SQLite: \(error.message ?? "SQL logic error")): the file was damaged or altered. Restore it from a backup (`secstore import`).")
        case .SQLITE_NOMEM:
            return SecStoreError(.outOfMemory, "SQLite ran out of memory.")
        case .SQLITE_CANTOPEN where isGone(path):
            return storeFileGone(path)
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
            return SecStoreError(.storeUnavailable, "Cannot open the store \(path) (\(error.resultCode)). Check that the path exists and is readable and writable by you.")
        case .SQLITE_FULL:
            return SecStoreError(.ioFailure, "The disk holding \(path) is full. Free some space and retry; nothing was written.")
        case .SQLITE_IOERR:
            return SecStoreError(.ioFailure, "Reading or writing \(path) failed: the disk may be full, over quota or failing. Nothing was written; check the disk and retry.")
        default:
            return SecStoreError(.ioFailure, "SQLite failed on \(path): \(error.resultCode), \(error.message ?? "no message").")
        }
    }

    /// The store's file was moved or deleted after the handle opened it (or while it was
    /// opening): a connection opened since finds nothing at its path, and no connection makes
    /// it again (``DatabaseFile``).
    static func storeFileGone(_ path: String) -> SecStoreError {
        let name = (path as NSString).lastPathComponent
        return SecStoreError(.storeUnavailable, "The store file \(path) is gone: it was moved or deleted after this program opened it, and SecStore does not make it again. If it was moved, open it where it now is (with its \(name)-wal and \(name)-shm); if it was deleted, restore it from a backup (`secstore import`) or create a new store (`secstore create --store \(path)`).")
    }

    /// The store's name reaches another file than the one this handle opened (``DatabaseFile``).
    static func storeFileReplaced(_ path: String) -> SecStoreError {
        guard FileIdentity.ofFile(atPath: path) != nil else { return storeFileGone(path) }
        return SecStoreError(.storeUnavailable, "The store file \(path) is no longer the file this program opened: it was moved away and another file put in its place (a restored copy, or a new store). Close the store and open it again; nothing was read from or written to the other file.")
    }

    /// The store's `-wal` or `-shm` was deleted or replaced while this handle had it open
    /// (``CompanionFiles/check()``), or — `whileOpenHere` false — while another program had
    /// the store open, so that this one finds a log its shared memory does not describe
    /// (``CompanionFiles/logIsNotTheSharedMemorys(storePath:)``).
    static func storeCompanionReplaced(_ path: String, suffix: String, whileOpenHere: Bool = true) -> SecStoreError {
        let what = "The store's SQLite \(CompanionFiles.role(suffix)) file \(path)\(suffix) was deleted or replaced"
        let never = "Never delete a store's -wal or -shm file while a program has the store open."
        guard whileOpenHere else {
            return SecStoreError(.storeUnavailable, "\(what) while another program had the store open: the store's shared memory describes a log that is no longer there, so the store cannot be read until every program that has it open closes it (the last to close writes what it committed into the store). Nothing was written, and the disk is not at fault; close those programs (`fuser \(path)` lists them) and try again. \(never)")
        }
        return SecStoreError(.storeUnavailable, "\(what) while this program had the store open, so this program no longer shares it with the programs that opened the store since, and its writes and theirs would overwrite each other. Nothing was written; close the store and open it again. \(never)")
    }

    /// Whether nothing is at `path` (its directory included).
    private static func isGone(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) != 0 && errno == ENOENT
    }
}

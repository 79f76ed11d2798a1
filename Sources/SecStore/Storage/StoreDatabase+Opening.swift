import Foundation
internal import GRDB

/// How ``StoreDatabase`` opens a store's file: the writer connection in WAL mode, what to open
/// when the file cannot be written, and how SQLite is given the file (``DatabaseFile``: never
/// created by SQLite).
extension StoreDatabase {
    /// Whether a store that cannot be written is opened as immutable. In a writable directory,
    /// no: SQLite makes its `-shm` there. In a read-only directory without a `-shm` file SQLite
    /// cannot share a WAL index, so yes: right only because no WAL is left to apply (nobody can
    /// write there either). A WAL left behind in a read-only directory cannot be read safely:
    /// that is an error.
    static func opensImmutable(_ url: URL, directoryWritable: Bool) throws -> Bool {
        let manager = FileManager.default
        guard !directoryWritable, !manager.fileExists(atPath: url.path + CompanionFiles.sharedMemory) else { return false }
        let walSize = (try? manager.attributesOfItem(atPath: url.path + CompanionFiles.log)[.size] as? Int) ?? 0
        guard walSize == 0 else {
            throw SecStoreError(.readOnly, "The store \(url.path) has changes in its write-ahead log that were never folded into it, and its directory is read-only. Open it once with write access to its directory.")
        }
        return true
    }

    /// Opens the writer connection and puts a new file in WAL mode (an existing store is in
    /// WAL mode already: SQLite keeps the mode in the file). Several processes creating one
    /// store at the same moment: `PRAGMA journal_mode = WAL` then fails with SQLITE_BUSY at
    /// once — SQLite skips the busy handler because the connection already holds a shared
    /// lock and waiting could deadlock — so the open is retried, with the connection released
    /// between tries, for as long as the busy timeout allows any other wait.
    static func openWriter(file: DatabaseFile, configuration: Configuration, busyTimeout: TimeInterval) throws -> DatabaseQueue {
        let deadline = Date(timeIntervalSinceNow: busyTimeout)
        var pause: useconds_t = 1_000
        while true {
            do {
                let writer = try file.connect(configuration)
                if !configuration.readonly {
                    try writer.writeWithoutTransaction { db in
                        if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
                            guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                                throw SecStoreError(.storeUnavailable, "The store \(file.path) cannot be put in WAL mode, which SecStore needs to share it between processes: its file system may not support shared memory (a network file system), or another program holds it in exclusive locking mode. Keep the store on a local file system.")
                            }
                        }
                    }
                }
                return writer
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && Date() < deadline {
                // Randomized so the waiting processes do not retry in lockstep.
                usleep(pause + useconds_t.random(in: 0...pause))
                pause = min(pause * 2, 50_000)
            }
        }
    }
}

/// A store's file as SQLite is given it: every SQLite connection SecStore opens to a store —
/// the writer, the statement readers (``ReaderConnections``), the snapshot readers
/// (``SnapshotConnections``) — is opened by ``connect(_:)``, here.
///
/// **No connection may create the file.** SecStore makes a store's file itself, `0600`
/// (``FileSecurity/ensurePrivateFile(_:creating:)``), a new store under a temporary name that
/// is linked into place whole; SQLite only ever opens a file that is there. But GRDB always
/// asks SQLite to create a missing file (`SQLITE_OPEN_CREATE`: `O_CREAT`, mode `0644` less the
/// umask), so a store moved or deleted between the open's checks and the writer's open came
/// back as an empty file that others could read, which the open then called a damaged store
/// and which stood in the way of `secstore create`. So the file is named by a SQLite URI
/// filename whose `mode=rw` (`mode=ro` for a read-only connection) takes that flag away: a
/// file that is gone is `SQLITE_CANTOPEN`, which ``StoreDatabase/translate(_:path:systemErrno:)``
/// reports as the store's file being gone. Nothing else in the open changes: SQLite still makes
/// the `-wal` and `-shm` it needs, with the main file's mode.
///
/// A SQLite that does not read URI filenames (``SQLiteRows/readsURIFilenames``; not Debian's or
/// Ubuntu's) is given the plain path: read-only connections create nothing anyway, and the
/// writer opens right after ``FileSecurity/ensurePrivateFile(_:creating:)`` found the file.
///
/// **Every connection reaches the file the open checked** (``identity``). Connections are
/// opened by name, some long after the open (a reader when reads first overlap), and a name
/// can come to reach another file: the store moved away and another store, or a restored
/// copy, put in its place. The handle's writer kept the old file, so its readers would read
/// one store and its writes go to another. A connection whose name reaches a file other than
/// the one the open checked (owner, type, mode) is closed and the call fails with
/// `storeUnavailable`; the writer's own connection is checked the same way, so a file put in
/// place between the open's checks and SQLite's open is refused too. The look is by name, after
/// SQLite opened it: it catches a file moved or replaced, not one swapped in and back out during
/// SQLite's open (SQLite does not hand out its descriptor); anyone who can do that can write
/// the store file itself, which the sealed rows and the schema check answer.
struct DatabaseFile: Sendable {
    /// The store's path, as errors name it.
    let path: String
    /// Opened as immutable: a store in a read-only directory with no `-shm`
    /// (``StoreDatabase/opensImmutable(_:directoryWritable:)``).
    var immutable = false
    /// The file the open checked; `nil` in tests of the connection pools alone.
    var identity: FileIdentity?

    /// A new connection to the file, which must exist and be the file the open checked,
    /// hardened for a file someone else may have written
    /// (``SQLiteRows/hardenForUntrustedFile(_:)``) before GRDB's first statement reads the
    /// file's schema: GRDB runs `prepareDatabase` just before it.
    ///
    /// Foreign keys off (GRDB turns them on): SecStore defines none, and the action of one
    /// planted in the file (`ON DELETE CASCADE`) runs like a trigger, which
    /// `SQLITE_DBCONFIG_ENABLE_TRIGGER` does not stop.
    func connect(_ configuration: Configuration) throws -> DatabaseQueue {
        var configuration = configuration
        configuration.foreignKeysEnabled = false
        configuration.prepareDatabase(SQLiteRows.hardenForUntrustedFile)
        let connection = try DatabaseQueue(path: sqliteName(readOnly: configuration.readonly), configuration: configuration)
        // Checked after SQLite opened it: the descriptor SQLite holds was opened by the name
        // before this look at what the name reaches.
        do {
            try checkStillReached()
        } catch {
            try? connection.close()
            throw error
        }
        return connection
    }

    /// Throws `storeUnavailable` when ``path`` no longer reaches the file the open checked: it
    /// is gone (moved or deleted), or another file was put in its place. Every new connection
    /// checks it, and every write transaction once it holds the write lock
    /// (``StoreDatabase/write(_:)``): the writer, open before, would write on into a deleted
    /// file, whose commits end with the process, or through the log at the old path, which a
    /// file renamed into that path then reads as its own.
    func checkStillReached() throws {
        if let identity, FileIdentity.ofFile(atPath: path) != identity {
            throw StoreDatabase.storeFileReplaced(path)
        }
    }

    /// The name SQLite opens: a URI filename (`file:///…?mode=rw`) where SQLite reads them.
    func sqliteName(readOnly: Bool) -> String {
        guard SQLiteRows.readsURIFilenames else { return path }
        // In a URI, `%` escapes and `?` and `#` end the path. Escaped scalar by scalar:
        // Foundation's `replacingOccurrences` costs a one-shot process (`secstore get`) about
        // 0.6M instructions of first use.
        var escaped = String.UnicodeScalarView()
        for scalar in path.unicodeScalars {
            switch scalar {
            case "%": escaped.append(contentsOf: "%25".unicodeScalars)
            case "?": escaped.append(contentsOf: "%3f".unicodeScalars)
            case "#": escaped.append(contentsOf: "%23".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        // `file://` and an empty authority before an absolute path; a relative one follows `file:`.
        let name = path.hasPrefix("/") ? "file://\(String(escaped))" : "file:\(String(escaped))"
        return "\(name)?mode=\(readOnly ? "ro" : "rw")\(immutable ? "&immutable=1" : "")"
    }
}

/// The store's `-wal` and `-shm` as this handle's writer uses them. SQLite opens them by name,
/// and only the last connection to close removes them, so while a handle is open they stay the
/// same files, unless someone deletes or replaces them (they look like leftovers). The
/// processes that open the store afterwards then make new ones: a second shared memory is a
/// second write lock and a second index of the one log, so their commits and this handle's
/// overwrite each other, each acknowledged. The writer records the files after its first
/// transaction (the store's open reads on it first thing) and checks them at every write, with
/// the store file itself (``DatabaseFile/checkStillReached()``). A handle whose `-shm` changed
/// also skips the checkpoint on close, which would fold its stale index of the log into the
/// file and delete the log the others use; one whose `-wal` alone went checkpoints as usual:
/// its commits are then only in the log it still has open, and the others cannot read the
/// store meanwhile (their shared memory describes a log that is not there).
///
/// Used only with the writer held (`writerInUse`, or in `deinit`).
final class CompanionFiles: @unchecked Sendable {
    /// The log's suffix (`-wal`) and the shared memory's (`-shm`).
    static let log = "-wal", sharedMemory = "-shm"

    /// SQLite's companions of a WAL-mode store, which it opens by name.
    static let suffixes = [log, sharedMemory]

    /// What a companion is, for messages: "log" (`-wal`) or "shared memory" (`-shm`).
    static func role(_ suffix: String) -> String { suffix == log ? "log" : "shared memory" }

    private let path: String
    private var recorded: [FileIdentity?]?

    init(path: String) {
        self.path = path
    }

    /// Records the files the writer uses, once: after a transaction on it, which opened them.
    func recordIfNeeded() {
        if recorded == nil { recorded = Self.suffixes.map { FileIdentity.ofFile(atPath: path + $0) } }
    }

    /// The suffixes of the companions whose names no longer reach the files recorded. One that
    /// did not exist when recorded (a store opened read-only, immutable) is not checked.
    func replaced() -> [String] {
        guard let recorded else { return [] }
        return zip(Self.suffixes, recorded).compactMap { suffix, identity in
            identity != nil && FileIdentity.ofFile(atPath: path + suffix) != identity ? suffix : nil
        }
    }

    /// Throws `storeUnavailable` when a companion was deleted or replaced (``replaced()``).
    func check() throws {
        if let suffix = replaced().first { throw StoreDatabase.storeCompanionReplaced(path, suffix: suffix) }
    }

    /// Whether the store's shared memory describes a log that is not the one at the name: what
    /// the other programs see once a store's `-wal` was deleted or replaced while a program
    /// had the store open (that program is told by ``check()``). SQLite makes a new, empty log
    /// at the name and reads past its end, an I/O error that would otherwise read as a failing
    /// disk. Read from SQLite's file formats (its WAL documentation): the `-shm`'s wal-index
    /// header (two equal copies of 48 bytes, initialised, with committed frames) and the
    /// `-wal`'s header — missing, shorter than the frames the index counts, or with other salts
    /// than the index's, it is another log. Only asked about a failed read or write.
    static func logIsNotTheSharedMemorys(storePath path: String) -> Bool {
        guard let (index, _) = leadingBytes(of: path + sharedMemory, count: 96), index.count == 96,
              index[0..<48] == index[48..<96], index[12] == 1
        else { return false }
        let frames = index.withUnsafeBytes { UInt64($0.loadUnaligned(fromByteOffset: 16, as: UInt32.self)) }
        guard frames > 0 else { return false }
        let encodedPageSize = index.withUnsafeBytes { UInt64($0.loadUnaligned(fromByteOffset: 14, as: UInt16.self)) }
        let pageSize = (encodedPageSize & 0xFE00) + ((encodedPageSize & 1) << 16)
        guard let (header, logSize) = leadingBytes(of: path + log, count: 32), header.count == 32,
              header[16..<24] == index[32..<40]
        else { return true }
        return logSize < 32 + frames * (pageSize + 24)
    }

    /// Up to `count` bytes from the start of the regular file at `path`, and the file's size,
    /// both from one descriptor; nil when there is none (or it cannot be read).
    private static func leadingBytes(of path: String, count: Int) -> ([UInt8], size: UInt64)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var buffer = [UInt8](repeating: 0, count: count)
        let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, 0) }
        return read < 0 ? nil : (Array(buffer[..<read]), UInt64(info.st_size))
    }
}

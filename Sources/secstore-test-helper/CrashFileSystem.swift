import CrashVFS
import SecStore

extension FileSystem {
    /// SecStore's own file writes through the crash-simulating model (Tests/CrashVFS,
    /// `crashvfs_fs_*`): each call does the system call, records it for the power cut, and
    /// counts as an event of the same crash point as SQLite's writes and syncs.
    /// ``TestHelperCommand/main()`` installs it with the VFS when `CRASHVFS=1`.
    ///
    /// ```swift
    /// FileSystem.current = .crashSimulating
    /// ```
    static let crashSimulating = FileSystem(
        openFile: { path, flags, mode in crashvfs_fs_open(path, flags, UInt32(mode)) },
        writeBytes: { descriptor, bytes, count in Int(crashvfs_fs_write(descriptor, bytes, UInt(count))) },
        sync: { descriptor in crashvfs_fs_fsync(descriptor) },
        closeFile: { descriptor in crashvfs_fs_close(descriptor) },
        renameEntry: { from, to in crashvfs_fs_rename(from, to) },
        linkEntry: { existing, new in crashvfs_fs_link(existing, new) },
        unlinkEntry: { path in crashvfs_fs_unlink(path) },
        makeDirectory: { path, mode in crashvfs_fs_mkdir(path, UInt32(mode)) })
}

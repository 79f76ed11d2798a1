import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system calls with which SecStore changes its own files — the device key, a new store's
/// link, DeviceIdentity's mirror, backups, the temporaries behind them and their directories —
/// in one place. The database itself goes through SQLite's VFS instead.
///
/// Production uses ``system``: each member calls the system call of its name and nothing
/// else. A test program may install another implementation with the same semantics (POSIX
/// return values, `errno` set on failure) before it opens a store: `secstore-test-helper`
/// installs one that records each change and can cut the power (issue 15), and the
/// reliability tests one that fails a chosen call.
///
/// ```swift
/// let descriptor = FileSystem.open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
/// guard descriptor >= 0 else { … strerror(errno) … }
/// ```
package struct FileSystem: Sendable {
    /// open(2).
    package var openFile: @Sendable (_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32
    /// write(2): how many bytes were written, or -1.
    package var writeBytes: @Sendable (_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int
    /// fsync(2), of a file or of a directory opened with `O_DIRECTORY`.
    package var sync: @Sendable (_ descriptor: Int32) -> Int32
    /// close(2).
    package var closeFile: @Sendable (_ descriptor: Int32) -> Int32
    /// rename(2).
    package var renameEntry: @Sendable (_ from: String, _ to: String) -> Int32
    /// link(2).
    package var linkEntry: @Sendable (_ existing: String, _ new: String) -> Int32
    /// unlink(2).
    package var unlinkEntry: @Sendable (_ path: String) -> Int32
    /// mkdir(2).
    package var makeDirectory: @Sendable (_ path: String, _ mode: mode_t) -> Int32

    /// Creates an implementation from its calls (a test's recording or failing one).
    package init(openFile: @escaping @Sendable (String, Int32, mode_t) -> Int32,
                 writeBytes: @escaping @Sendable (Int32, UnsafeRawPointer, Int) -> Int,
                 sync: @escaping @Sendable (Int32) -> Int32,
                 closeFile: @escaping @Sendable (Int32) -> Int32,
                 renameEntry: @escaping @Sendable (String, String) -> Int32,
                 linkEntry: @escaping @Sendable (String, String) -> Int32,
                 unlinkEntry: @escaping @Sendable (String) -> Int32,
                 makeDirectory: @escaping @Sendable (String, mode_t) -> Int32) {
        self.openFile = openFile
        self.writeBytes = writeBytes
        self.sync = sync
        self.closeFile = closeFile
        self.renameEntry = renameEntry
        self.linkEntry = linkEntry
        self.unlinkEntry = unlinkEntry
        self.makeDirectory = makeDirectory
    }

    /// The system calls themselves.
    package static let system = FileSystem(
        openFile: { path, flags, mode in systemOpen(path, flags, mode) },
        writeBytes: { descriptor, bytes, count in systemWrite(descriptor, bytes, count) },
        sync: { descriptor in systemSync(descriptor) },
        closeFile: { descriptor in systemClose(descriptor) },
        renameEntry: { from, to in systemRename(from, to) },
        linkEntry: { existing, new in systemLink(existing, new) },
        unlinkEntry: { path in systemUnlink(path) },
        makeDirectory: { path, mode in systemMkdir(path, mode) })

    // A lock, not a bare static: a test may install an implementation while other threads
    // write files. Its cost is nothing next to the system call behind it.
    private static let installed = Mutex(system)

    /// The implementation every call below goes through; ``system`` unless a test program
    /// installed another.
    package static var current: FileSystem {
        get { installed.withLock { $0 } }
        set { installed.withLock { $0 = newValue } }
    }

    // MARK: The calls SecStore's file writers make

    /// open(2) through ``current``.
    package static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        current.openFile(path, flags, mode)
    }

    /// write(2) through ``current``.
    package static func write(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        current.writeBytes(descriptor, bytes, count)
    }

    /// fsync(2) through ``current``.
    package static func fsync(_ descriptor: Int32) -> Int32 { current.sync(descriptor) }

    /// close(2) through ``current``.
    @discardableResult
    package static func close(_ descriptor: Int32) -> Int32 { current.closeFile(descriptor) }

    /// rename(2) through ``current``.
    package static func rename(_ from: String, _ to: String) -> Int32 { current.renameEntry(from, to) }

    /// link(2) through ``current``.
    package static func link(_ existing: String, _ new: String) -> Int32 { current.linkEntry(existing, new) }

    /// unlink(2) through ``current``.
    @discardableResult
    package static func unlink(_ path: String) -> Int32 { current.unlinkEntry(path) }

    /// mkdir(2) through ``current``.
    package static func mkdir(_ path: String, _ mode: mode_t) -> Int32 { current.makeDirectory(path, mode) }
}

// The system calls by other names: inside `FileSystem` the short names are its own members.
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(descriptor, bytes, count) }
private func systemSync(_ descriptor: Int32) -> Int32 { fsync(descriptor) }
private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func systemRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }
private func systemLink(_ existing: String, _ new: String) -> Int32 { link(existing, new) }
private func systemUnlink(_ path: String) -> Int32 { unlink(path) }
private func systemMkdir(_ path: String, _ mode: mode_t) -> Int32 { mkdir(path, mode) }

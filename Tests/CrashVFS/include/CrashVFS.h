#ifndef SECSTORE_CRASHVFS_H
#define SECSTORE_CRASHVFS_H

// A test-only SQLite VFS that simulates a power cut (issue 15, item 1), after SQLite's own
// crash test (src/test6.c). It wraps the default unix VFS and is registered as the new
// default, so GRDB and SecStore use it without knowing.
//
// For every file SQLite opens it records each xWrite / xTruncate since that file's last
// xSync: the offset, the bytes written and the bytes they replaced. At a simulated crash —
// the N-th xWrite / xSync / xTruncate of the process, a signal, or a call — it rewrites each
// file to a state a power cut could leave, holding a lock so no other thread writes meanwhile:
//
//   * everything written before the file's last xSync is kept;
//   * each later write is, independently, kept, dropped (its pre-image restored) or torn
//     (only some of its 512-byte sectors written), applied in order onto the synced image;
//     a later truncation is kept or dropped;
//   * a file this process created whose directory entry was never made durable may vanish:
//     SQLite's unix VFS fsyncs the directory at the first sync of a new WAL or rollback
//     journal, so those become durable at their first xSync; a main database file created
//     through the VFS never does (SQLite leaves that to the application);
//
// and then ends the process at once with `_exit(CRASHVFS_EXIT_STATUS)`. The -shm file is
// left as it is: it is mapped memory, not a durable file, and the next process to open the
// database alone rebuilds it from the WAL (SQLite takes the DMS lock and resets it).
//
// SecStore's own files (the device key, a new store's link, DeviceIdentity's mirror, backups)
// go through the crashvfs_fs_* calls below, which secstore-test-helper installs as SecStore's
// `FileSystem` seam: their writes follow the same rules, and their directory entries
// (create, mkdir, rename, link, unlink) are journaled until an fsync of the directory — at
// the cut a random prefix of the pending entries survives, the rest are undone newest first
// (a rename undone brings the replaced file back, an unlink undone the removed one). Every
// such call counts as an event of the same crash point as SQLite's writes and syncs.
//
// Not modelled: a file SQLite deletes coming back, and reordering inside one write's sectors
// beyond "kept or restored".

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The exit status of a process that simulated a power cut.
#define CRASHVFS_EXIT_STATUS 86

/// Registers the shim as SQLite's default VFS. `crash_at`: the event (1-based: xWrite,
/// xSync and xTruncate calls, counted over all files) after which to crash; 0 for never.
/// `seed` drives every random choice, so a crash can be replayed. `report_path`, when not
/// NULL, names a file that receives one line describing the crash when it happens. Returns
/// 0, or an SQLite error code. Call it once, before any database is opened.
int crashvfs_install(uint64_t seed, int64_t crash_at, const char *report_path);

/// Installs from the environment when `CRASHVFS=1`: `CRASHVFS_SEED`, `CRASHVFS_CRASH_AT`,
/// `CRASHVFS_REPORT`. Also makes SIGUSR1 crash at the next event. Returns 1 when installed,
/// 0 when the environment does not ask for it, a negative value on failure.
///
/// The real fsync is skipped (the simulation makes xSync the barrier; a campaign runs ten
/// times faster without the disk's flushes) unless `CRASHVFS_REAL_SYNC=1`.
/// `CRASHVFS_LYING_SYNC=1` models a disk that acknowledges syncs it never did: nothing ever
/// becomes durable, so a campaign must find acknowledged writes lost (its negative control).
int crashvfs_install_from_environment(void);

/// How many events the process had so far: xWrite / xSync / xTruncate calls through the shim
/// and own-file calls (below).
int64_t crashvfs_event_count(void);

/// How many of those events were SecStore's own-file calls (crashvfs_fs_*, below).
/// `CRASHVFS_CRASH_AT_FILE_EVENT=N` crashes at the N-th of them (a campaign aiming at its own
/// files); `CRASHVFS_IGNORE_DIRECTORY_SYNC=1` models a disk whose directory fsyncs do nothing
/// (a control: acknowledged renames and links must then be found lost).
int64_t crashvfs_file_event_count(void);

/// Simulates the power cut now, from any thread, and does not return.
void crashvfs_crash_now(void) __attribute__((noreturn));

/// Makes the next xWrite / xSync / xTruncate crash (after it ran). Async-signal-safe.
void crashvfs_crash_at_next_event(void);

// SecStore's own files: the system call of the same name, recorded for the power cut (see
// above). Each sets errno as the system call does. A directory is recognised by the
// O_DIRECTORY it was opened with; its fsync makes the entries made in it durable.
int crashvfs_fs_open(const char *path, int flags, unsigned mode);
long crashvfs_fs_write(int fd, const void *bytes, unsigned long count);
int crashvfs_fs_fsync(int fd);
int crashvfs_fs_close(int fd);
int crashvfs_fs_rename(const char *from, const char *to);
int crashvfs_fs_link(const char *existing, const char *new_path);
int crashvfs_fs_unlink(const char *path);
int crashvfs_fs_mkdir(const char *path, unsigned mode);

#ifdef __cplusplus
}
#endif

#endif

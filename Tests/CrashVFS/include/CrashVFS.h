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
// Not modelled: a deleted or renamed file coming back, data written to files outside SQLite
// (SecStore's device key, backups and mirror file: see scripts/fsync-audit.sh), and
// reordering inside one write's sectors beyond "kept or restored".

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

/// How many xWrite / xSync / xTruncate calls the process made through the shim so far.
int64_t crashvfs_event_count(void);

/// Simulates the power cut now, from any thread, and does not return.
void crashvfs_crash_now(void) __attribute__((noreturn));

/// Makes the next xWrite / xSync / xTruncate crash (after it ran). Async-signal-safe.
void crashvfs_crash_at_next_event(void);

#ifdef __cplusplus
}
#endif

#endif

// A power-cut simulating SQLite VFS for tests: see include/CrashVFS.h.
#define _GNU_SOURCE
#include "CrashVFS.h"
#include "CrashShared.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct CrashFile {
    sqlite3_file base;       // our methods
    FileState *state;
    sqlite3_file *real;      // the unix VFS's file, allocated right after this struct
} CrashFile;

static sqlite3_vfs *realVFS;
static sqlite3_vfs shimVFS;
static sqlite3_io_methods shimMethods;
pthread_mutex_t crashLock = PTHREAD_MUTEX_INITIALIZER;
FileState *files;
static _Atomic int64_t events;
static int64_t crashAt;
static atomic_int crashNext;
static uint64_t randomState;
static char *reportPath;
int realSync;
int lyingSync;
int64_t crashAtFileEvent;
int ignoreDirectorySync;

// MARK: Randomness (SplitMix64: the seed replays a crash)

uint64_t nextRandom(void) {
    uint64_t z = (randomState += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// MARK: Bookkeeping

FileState *stateFor(const char *path) {
    for (FileState *f = files; f; f = f->next) {
        if (strcmp(f->path, path) == 0) return f;
    }
    FileState *f = calloc(1, sizeof *f);
    f->path = strdup(path);
    f->directoryDurable = 1;
    f->next = files;
    files = f;
    return f;
}

void freeChanges(FileState *f) {
    for (Change *c = f->head; c;) {
        Change *next = c->next;
        free(c->data);
        free(c->before);
        free(c);
        c = next;
    }
    f->head = f->tail = NULL;
}

void appendChange(FileState *f, Change *c) {
    if (f->tail) f->tail->next = c; else f->head = c;
    f->tail = c;
}

static int64_t realSize(sqlite3_file *real) {
    sqlite3_int64 size = 0;
    if (real->pMethods->xFileSize(real, &size) != SQLITE_OK) return 0;
    return size;
}

/// The bytes of [offset, offset + length) that exist in the file now (up to its end).
static unsigned char *readBefore(sqlite3_file *real, int64_t offset, int64_t length, int64_t size, int64_t *count) {
    *count = 0;
    if (offset >= size || length <= 0) return NULL;
    int64_t n = size - offset < length ? size - offset : length;
    unsigned char *buffer = malloc((size_t)n);
    int rc = real->pMethods->xRead(real, buffer, (int)n, offset);
    if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ) {
        free(buffer);
        return NULL;
    }
    *count = n;
    return buffer;
}

// MARK: The power cut

int pwriteAll(int fd, const unsigned char *bytes, int64_t length, int64_t offset) {
    while (length > 0) {
        ssize_t n = pwrite(fd, bytes, (size_t)length, offset);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        bytes += n;
        length -= n;
        offset += n;
    }
    return 0;
}

/// Rewrites one file to a state a power cut could leave (see the header), or removes it.
static void cutPower(FileState *f, Tally *tally) {
    if (!f->head && f->directoryDurable) return;
    if (f->created && !f->directoryDurable && (nextRandom() & 1)) {
        // Its directory entry never reached the disk.
        if (unlink(f->path) == 0) tally->vanished++;
        return;
    }
    if (!f->head) return;
    int fd = open(f->path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return;   // deleted meanwhile (through another path): nothing to restore
    tally->files++;
    // 1. Back to the synced image: undo every change, newest first.
    int count = 0;
    for (Change *c = f->head; c; c = c->next) count++;
    Change **order = malloc(sizeof(Change *) * (size_t)count);
    int i = 0;
    for (Change *c = f->head; c; c = c->next) order[i++] = c;
    for (i = count - 1; i >= 0; i--) {
        Change *c = order[i];
        if (c->beforeLength > 0) pwriteAll(fd, c->before, c->beforeLength, c->offset);
        if (ftruncate(fd, c->sizeBefore) != 0) { /* keep going: best effort */ }
    }
    // 2. Replay each change in order: kept, dropped or torn.
    for (i = 0; i < count; i++) {
        Change *c = order[i];
        if (c->isTruncate) {
            if (nextRandom() & 1) {
                if (ftruncate(fd, c->offset) != 0) { /* best effort */ }
                tally->truncationsKept++;
            } else {
                tally->truncationsDropped++;
            }
            continue;
        }
        int64_t firstSector = c->offset / SECTOR, lastSector = (c->offset + c->length - 1) / SECTOR;
        uint64_t roll = nextRandom() % 3;
        if (roll == 2 && firstSector == lastSector) roll = nextRandom() & 1;
        if (roll == 0) {
            pwriteAll(fd, c->data, c->length, c->offset);
            tally->kept++;
        } else if (roll == 1) {
            tally->dropped++;
        } else {
            // Torn: each sector of the write independently reaches the disk or not, with at
            // least one of each so the write really is torn.
            int64_t sectors = lastSector - firstSector + 1;
            int64_t forced = (int64_t)(nextRandom() % (uint64_t)sectors);
            int forcedKeep = nextRandom() & 1;
            for (int64_t s = firstSector; s <= lastSector; s++) {
                int keep = (s - firstSector == forced) ? forcedKeep
                         : (s - firstSector == (forced + 1) % sectors) ? !forcedKeep
                         : (int)(nextRandom() & 1);
                if (!keep) continue;
                int64_t from = s * SECTOR > c->offset ? s * SECTOR : c->offset;
                int64_t to = (s + 1) * SECTOR < c->offset + c->length ? (s + 1) * SECTOR : c->offset + c->length;
                pwriteAll(fd, c->data + (from - c->offset), to - from, from);
            }
            tally->torn++;
        }
    }
    free(order);
    close(fd);
}

static void writeReport(const char *why, Tally *t) {
    if (!reportPath) return;
    int fd = open(reportPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) return;
    char line[640];
    int n = snprintf(line, sizeof line,
                     "crash %s event=%lld files=%d kept=%d dropped=%d torn=%d truncations-kept=%d truncations-dropped=%d vanished=%d "
                     "entries-kept=%d entries-undone=%d\n",
                     why, (long long)atomic_load(&events), t->files, t->kept, t->dropped, t->torn,
                     t->truncationsKept, t->truncationsDropped, t->vanished, t->entriesKept, t->entriesUndone);
    if (n > 0) pwriteAll(fd, (const unsigned char *)line, n, 0);   // O_APPEND: the offset is ignored
    close(fd);
}

/// With `crashLock` held: the power cut, then the end of the process.
static void crashLocked(const char *why) __attribute__((noreturn));
static void crashLocked(const char *why) {
    Tally tally = {0};
    for (FileState *f = files; f; f = f->next) cutPower(f, &tally);
    // Then the directory entries (SecStore's own files: CrashFiles.c), on the data cut above.
    cutEntries(&tally);
    writeReport(why, &tally);
    _exit(CRASHVFS_EXIT_STATUS);
}

void crashvfs_crash_now(void) {
    pthread_mutex_lock(&crashLock);
    crashLocked("requested");
}

void crashvfs_crash_at_next_event(void) { atomic_store(&crashNext, 1); }

int64_t crashvfs_event_count(void) { return atomic_load(&events); }

/// With `crashLock` held, after an event ran: crashes when this is the chosen one.
void countEvent(void) {
    int64_t n = atomic_fetch_add(&events, 1) + 1;
    if ((crashAt > 0 && n == crashAt) || atomic_load(&crashNext)) {
        crashLocked(crashAt > 0 && n == crashAt ? "scheduled" : "signalled");
    }
}

// MARK: I/O methods

#define REAL(file) (((CrashFile *)(file))->real)

static int shimClose(sqlite3_file *file) {
    int rc = REAL(file)->pMethods ? REAL(file)->pMethods->xClose(REAL(file)) : SQLITE_OK;
    return rc;
}

static int shimRead(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    return REAL(file)->pMethods->xRead(REAL(file), buffer, amount, offset);
}

static int shimWrite(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
    CrashFile *p = (CrashFile *)file;
    if (!p->state) return p->real->pMethods->xWrite(p->real, buffer, amount, offset);
    pthread_mutex_lock(&crashLock);
    Change *c = calloc(1, sizeof *c);
    c->offset = offset;
    c->length = amount;
    c->sizeBefore = realSize(p->real);
    c->before = readBefore(p->real, offset, amount, c->sizeBefore, &c->beforeLength);
    c->data = malloc((size_t)amount > 0 ? (size_t)amount : 1);
    memcpy(c->data, buffer, (size_t)amount);
    int rc = p->real->pMethods->xWrite(p->real, buffer, amount, offset);
    if (rc == SQLITE_OK) {
        appendChange(p->state, c);
        countEvent();
    } else {
        free(c->data);
        free(c->before);
        free(c);
    }
    pthread_mutex_unlock(&crashLock);
    return rc;
}

static int shimTruncate(sqlite3_file *file, sqlite3_int64 size) {
    CrashFile *p = (CrashFile *)file;
    if (!p->state) return p->real->pMethods->xTruncate(p->real, size);
    pthread_mutex_lock(&crashLock);
    Change *c = calloc(1, sizeof *c);
    c->isTruncate = 1;
    c->offset = size;
    c->sizeBefore = realSize(p->real);
    c->before = readBefore(p->real, size, c->sizeBefore - size, c->sizeBefore, &c->beforeLength);
    int rc = p->real->pMethods->xTruncate(p->real, size);
    if (rc == SQLITE_OK) {
        appendChange(p->state, c);
        countEvent();
    } else {
        free(c->before);
        free(c);
    }
    pthread_mutex_unlock(&crashLock);
    return rc;
}

static int shimSync(sqlite3_file *file, int flags) {
    CrashFile *p = (CrashFile *)file;
    if (!p->state) return p->real->pMethods->xSync(p->real, flags);
    pthread_mutex_lock(&crashLock);
    // The simulated power cut makes the sync a barrier by itself: the real fsync would only
    // slow the campaign down (CRASHVFS_REAL_SYNC=1 asks for it anyway).
    int rc = realSync ? p->real->pMethods->xSync(p->real, flags) : SQLITE_OK;
    if (rc == SQLITE_OK) {
        // A disk that acknowledges syncs it never did (the campaign's control: it must fail).
        if (!lyingSync) freeChanges(p->state);
        if (p->state->syncEntryAtFirstSync && !p->state->directoryDurable) {
            // SQLite's unix VFS fsyncs the directory here: every entry made in it is durable.
            p->state->directoryDurable = 1;
            if (!lyingSync && !ignoreDirectorySync) directorySyncedFor(p->state->path);
        }
        countEvent();
    }
    pthread_mutex_unlock(&crashLock);
    return rc;
}

static int shimFileSize(sqlite3_file *file, sqlite3_int64 *size) { return REAL(file)->pMethods->xFileSize(REAL(file), size); }
static int shimLock(sqlite3_file *file, int level) { return REAL(file)->pMethods->xLock(REAL(file), level); }
static int shimUnlock(sqlite3_file *file, int level) { return REAL(file)->pMethods->xUnlock(REAL(file), level); }
static int shimCheckReservedLock(sqlite3_file *file, int *out) { return REAL(file)->pMethods->xCheckReservedLock(REAL(file), out); }
static int shimFileControl(sqlite3_file *file, int op, void *arg) { return REAL(file)->pMethods->xFileControl(REAL(file), op, arg); }
static int shimSectorSize(sqlite3_file *file) { return REAL(file)->pMethods->xSectorSize(REAL(file)); }
static int shimDeviceCharacteristics(sqlite3_file *file) { return REAL(file)->pMethods->xDeviceCharacteristics(REAL(file)); }
static int shimShmMap(sqlite3_file *file, int page, int size, int extend, void volatile **out) {
    return REAL(file)->pMethods->xShmMap(REAL(file), page, size, extend, out);
}
static int shimShmLock(sqlite3_file *file, int offset, int n, int flags) { return REAL(file)->pMethods->xShmLock(REAL(file), offset, n, flags); }
static void shimShmBarrier(sqlite3_file *file) { REAL(file)->pMethods->xShmBarrier(REAL(file)); }
static int shimShmUnmap(sqlite3_file *file, int deleteFlag) { return REAL(file)->pMethods->xShmUnmap(REAL(file), deleteFlag); }
// No memory-mapped reads: every read goes through xRead, which sees what xWrite left.
static int shimFetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **out) {
    (void)file; (void)offset; (void)amount;
    *out = NULL;
    return SQLITE_OK;
}
static int shimUnfetch(sqlite3_file *file, sqlite3_int64 offset, void *pointer) {
    (void)file; (void)offset; (void)pointer;
    return SQLITE_OK;
}

// MARK: VFS methods

static int shimOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *outFlags) {
    (void)vfs;
    CrashFile *p = (CrashFile *)file;
    memset(p, 0, sizeof *p);
    p->real = (sqlite3_file *)(p + 1);
    int existed = name ? access(name, F_OK) == 0 : 1;
    int rc = realVFS->xOpen(realVFS, name, p->real, flags, outFlags);
    if (rc != SQLITE_OK) {
        p->base.pMethods = NULL;
        return rc;
    }
    pthread_mutex_lock(&crashLock);
    if (name && !(flags & SQLITE_OPEN_DELETEONCLOSE)) {
        p->state = stateFor(name);
        if (!existed) {
            p->state->created = 1;
            p->state->directoryDurable = 0;
            p->state->syncEntryAtFirstSync =
                (flags & (SQLITE_OPEN_WAL | SQLITE_OPEN_MAIN_JOURNAL | SQLITE_OPEN_SUPER_JOURNAL)) != 0;
        }
    }
    // A temporary file (no name, or deleted on close) is gone after a crash anyway: not
    // tracked, not counted (state stays NULL).
    pthread_mutex_unlock(&crashLock);
    shimMethods.iVersion = p->real->pMethods->iVersion < 3 ? p->real->pMethods->iVersion : 3;
    p->base.pMethods = &shimMethods;
    return SQLITE_OK;
}

static int shimDelete(sqlite3_vfs *vfs, const char *name, int syncDirectory) {
    (void)vfs;
    pthread_mutex_lock(&crashLock);
    int rc = realVFS->xDelete(realVFS, name, syncDirectory);
    if (rc == SQLITE_OK && syncDirectory && !lyingSync && !ignoreDirectorySync) directorySyncedFor(name);
    if (rc == SQLITE_OK) {
        for (FileState *f = files; f; f = f->next) {
            if (strcmp(f->path, name) == 0) {
                // Gone: its pending writes no longer matter. (A deletion that a power cut
                // would undo is not modelled.)
                freeChanges(f);
                f->created = 0;
                f->directoryDurable = 1;
                f->syncEntryAtFirstSync = 0;
            }
        }
    }
    pthread_mutex_unlock(&crashLock);
    return rc;
}

static int shimAccess(sqlite3_vfs *vfs, const char *name, int flags, int *out) { (void)vfs; return realVFS->xAccess(realVFS, name, flags, out); }
static int shimFullPathname(sqlite3_vfs *vfs, const char *name, int size, char *out) { (void)vfs; return realVFS->xFullPathname(realVFS, name, size, out); }

// MARK: Installation

static void onSignal(int signal) {
    (void)signal;
    crashvfs_crash_at_next_event();
}

int crashvfs_install(uint64_t seed, int64_t crash_at, const char *report_path) {
    if (realVFS) return SQLITE_MISUSE;
    realVFS = sqlite3_vfs_find(NULL);
    if (!realVFS) return SQLITE_ERROR;
    randomState = seed;
    crashAt = crash_at;
    reportPath = report_path ? strdup(report_path) : NULL;
    const char *sync = getenv("CRASHVFS_REAL_SYNC");
    realSync = sync && strcmp(sync, "1") == 0;
    const char *lying = getenv("CRASHVFS_LYING_SYNC");
    lyingSync = lying && strcmp(lying, "1") == 0;
    const char *atFile = getenv("CRASHVFS_CRASH_AT_FILE_EVENT");
    crashAtFileEvent = atFile ? strtoll(atFile, NULL, 10) : 0;
    const char *ignoreDirectories = getenv("CRASHVFS_IGNORE_DIRECTORY_SYNC");
    ignoreDirectorySync = ignoreDirectories && strcmp(ignoreDirectories, "1") == 0;
    atexit(removeSavedEntries);

    shimMethods = (sqlite3_io_methods){
        .iVersion = 3,
        .xClose = shimClose, .xRead = shimRead, .xWrite = shimWrite, .xTruncate = shimTruncate,
        .xSync = shimSync, .xFileSize = shimFileSize, .xLock = shimLock, .xUnlock = shimUnlock,
        .xCheckReservedLock = shimCheckReservedLock, .xFileControl = shimFileControl,
        .xSectorSize = shimSectorSize, .xDeviceCharacteristics = shimDeviceCharacteristics,
        .xShmMap = shimShmMap, .xShmLock = shimShmLock, .xShmBarrier = shimShmBarrier,
        .xShmUnmap = shimShmUnmap, .xFetch = shimFetch, .xUnfetch = shimUnfetch,
    };
    shimVFS = *realVFS;
    shimVFS.zName = "secstore-crash";
    shimVFS.szOsFile = (int)sizeof(CrashFile) + realVFS->szOsFile;
    shimVFS.pNext = NULL;
    shimVFS.pAppData = NULL;
    shimVFS.xOpen = shimOpen;
    shimVFS.xDelete = shimDelete;
    shimVFS.xAccess = shimAccess;
    shimVFS.xFullPathname = shimFullPathname;
    // The remaining methods (dlopen, randomness, sleep, time, system calls) take the VFS
    // pointer but the unix VFS ignores it: they are the real VFS's as copied.
    return sqlite3_vfs_register(&shimVFS, 1);
}

int crashvfs_install_from_environment(void) {
    const char *enabled = getenv("CRASHVFS");
    if (!enabled || strcmp(enabled, "1") != 0) return 0;
    const char *seed = getenv("CRASHVFS_SEED");
    const char *at = getenv("CRASHVFS_CRASH_AT");
    int rc = crashvfs_install(seed ? strtoull(seed, NULL, 10) : 1, at ? strtoll(at, NULL, 10) : 0, getenv("CRASHVFS_REPORT"));
    if (rc != SQLITE_OK) return -rc;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = onSignal;
    sigaction(SIGUSR1, &action, NULL);
    return 1;
}

// The power-cut model for the files SecStore writes itself (the device key, a new store's
// link, DeviceIdentity's mirror, backups and their temporaries): see include/CrashVFS.h.
// SecStore's `FileSystem` seam calls these instead of the system calls in
// secstore-test-helper; they do the call, record it, and count it as an event of the same
// crash point as the SQLite shim's writes and syncs.
//
// File data: as for SQLite's files, each write since the file's last fsync is kept, dropped
// or torn at the cut (CrashVFS.c's cutPower, on the same FileState list).
//
// Directory entries: every create, mkdir, rename, link and unlink is journaled until an
// fsync of its directory (through the seam, or the one SQLite's unix VFS makes at the first
// sync of a new WAL or journal). At the cut a random prefix of the pending entries survives
// and the rest are undone, newest first — a journaling file system commits metadata in
// order, so a later change never survives an earlier one. To undo a rename over a file or an
// unlink, the replaced or removed inode is kept under a hard link (`.crashvfs-<pid>-<n>` in
// the same directory) until the entry is durable.
#define _GNU_SOURCE
#include "CrashVFS.h"
#include "CrashShared.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct OpenFile {
    int fd;
    int isDirectory;
    char *directory;         // canonical, for a directory
    FileState *state;        // for a file opened for writing
    struct OpenFile *next;
} OpenFile;

typedef enum { ENTRY_CREATE, ENTRY_MKDIR, ENTRY_RENAME, ENTRY_LINK, ENTRY_UNLINK } EntryKind;

typedef struct Entry {
    EntryKind kind;
    char *path;              // the name created, replaced or removed
    char *from;              // a rename's old name
    char *directories[2];    // whose fsync makes it durable (a rename: both ends)
    int pending[2];
    char *saved;             // a hard link to the inode it replaced or removed, or NULL
    struct Entry *next;
} Entry;

static OpenFile *openFiles;
static Entry *entries, *lastEntry;
static unsigned savedCounter;
static int64_t fileEvents;

/// With crashLock held, after an own-file call ran: one event of the shared crash point, and
/// of the own-file count CRASHVFS_CRASH_AT_FILE_EVENT aims at.
static void countFileEvent(void) {
    fileEvents++;
    if (crashAtFileEvent > 0 && fileEvents == crashAtFileEvent) crashvfs_crash_at_next_event();
    countEvent();
}

int64_t crashvfs_file_event_count(void) {
    pthread_mutex_lock(&crashLock);
    int64_t count = fileEvents;
    pthread_mutex_unlock(&crashLock);
    return count;
}

// MARK: Paths

static char *canonical(const char *directory) {
    char resolved[PATH_MAX];
    return strdup(realpath(directory, resolved) ? resolved : directory);
}

static char *directoryOf(const char *path) {
    char *copy = strdup(path);
    char *result = canonical(dirname(copy));
    free(copy);
    return result;
}

/// A hard link to `path` beside it, or NULL when there is nothing to keep.
static char *keepInode(const char *path) {
    struct stat info;
    if (lstat(path, &info) != 0 || !S_ISREG(info.st_mode)) return NULL;
    char *copy = strdup(path);
    char name[PATH_MAX];
    snprintf(name, sizeof name, "%s/.crashvfs-%d-%u", dirname(copy), (int)getpid(), savedCounter++);
    free(copy);
    return link(path, name) == 0 ? strdup(name) : NULL;
}

static FileState *existingState(const char *path) {
    for (FileState *f = files; f; f = f->next) {
        if (strcmp(f->path, path) == 0) return f;
    }
    return NULL;
}

/// The data of `from`'s inode is now reached as `to` (a rename, an unlink keeping it saved).
static void moveState(const char *from, const char *to) {
    FileState *f = existingState(from);
    if (!f) return;
    free(f->path);
    f->path = strdup(to ? to : "");
}

// MARK: The journal of entries

static void record(EntryKind kind, const char *path, const char *from, char *saved) {
    Entry *e = calloc(1, sizeof *e);
    e->kind = kind;
    e->path = strdup(path);
    e->from = from ? strdup(from) : NULL;
    e->saved = saved;
    e->directories[0] = directoryOf(path);
    e->pending[0] = 1;
    if (from) {
        e->directories[1] = directoryOf(from);
        e->pending[1] = strcmp(e->directories[0], e->directories[1]) != 0;
    }
    if (lastEntry) lastEntry->next = e; else entries = e;
    lastEntry = e;
}

static void freeEntry(Entry *e) {
    if (e->saved) unlink(e->saved);
    free(e->path);
    free(e->from);
    free(e->directories[0]);
    free(e->directories[1]);
    free(e->saved);
    free(e);
}

/// With crashLock held: `directory` (canonical) was fsynced.
static void directorySynced(const char *directory) {
    Entry **link = &entries;
    lastEntry = NULL;
    while (*link) {
        Entry *e = *link;
        for (int i = 0; i < 2; i++) {
            if (e->directories[i] && strcmp(e->directories[i], directory) == 0) e->pending[i] = 0;
        }
        if (!e->pending[0] && !e->pending[1]) {
            *link = e->next;
            freeEntry(e);
        } else {
            lastEntry = e;
            link = &e->next;
        }
    }
    // Files SQLite created there (a new store's database) are durable now too.
    for (FileState *f = files; f; f = f->next) {
        if (!f->created || f->directoryDurable) continue;
        char *own = directoryOf(f->path);
        if (strcmp(own, directory) == 0) f->directoryDurable = 1;
        free(own);
    }
}

void directorySyncedFor(const char *file) {
    char *directory = directoryOf(file);
    directorySynced(directory);
    free(directory);
}

static void undo(Entry *e) {
    switch (e->kind) {
    case ENTRY_CREATE:
    case ENTRY_LINK:
        unlink(e->path);
        break;
    case ENTRY_MKDIR:
        rmdir(e->path);   // empty: whatever was made inside came later and is undone already
        break;
    case ENTRY_RENAME:
        rename(e->path, e->from);
        if (e->saved && rename(e->saved, e->path) == 0) { free(e->saved); e->saved = NULL; }
        break;
    case ENTRY_UNLINK:
        if (e->saved && rename(e->saved, e->path) == 0) { free(e->saved); e->saved = NULL; }
        break;
    }
}

void cutEntries(Tally *tally) {
    int count = 0;
    for (Entry *e = entries; e; e = e->next) count++;
    if (count == 0) return;
    Entry **order = malloc(sizeof(Entry *) * (size_t)count);
    int i = 0;
    for (Entry *e = entries; e; e = e->next) order[i++] = e;
    int kept = (int)(nextRandom() % (uint64_t)(count + 1));
    for (i = count - 1; i >= kept; i--) undo(order[i]);
    tally->entriesKept += kept;
    tally->entriesUndone += count - kept;
    for (i = 0; i < count; i++) freeEntry(order[i]);
    free(order);
    entries = lastEntry = NULL;
}

void removeSavedEntries(void) {
    pthread_mutex_lock(&crashLock);
    for (Entry *e = entries; e;) {
        Entry *next = e->next;
        freeEntry(e);
        e = next;
    }
    entries = lastEntry = NULL;
    pthread_mutex_unlock(&crashLock);
}

// MARK: The calls

static OpenFile *findOpen(int fd) {
    for (OpenFile *o = openFiles; o; o = o->next) {
        if (o->fd == fd) return o;
    }
    return NULL;
}

int crashvfs_fs_open(const char *path, int flags, unsigned mode) {
    pthread_mutex_lock(&crashLock);
    struct stat info;
    int existed = !(flags & O_CREAT) || lstat(path, &info) == 0;
    int fd = open(path, flags, (mode_t)mode);
    int saved = errno;
    if (fd >= 0) {
        OpenFile *o = calloc(1, sizeof *o);
        o->fd = fd;
        o->isDirectory = (flags & O_DIRECTORY) != 0;
        if (o->isDirectory) o->directory = canonical(path);
        else if (flags & (O_WRONLY | O_RDWR)) o->state = stateFor(path);
        o->next = openFiles;
        openFiles = o;
        if (!existed) {
            record(ENTRY_CREATE, path, NULL, NULL);
            countFileEvent();
        }
    }
    pthread_mutex_unlock(&crashLock);
    errno = saved;
    return fd;
}

long crashvfs_fs_write(int fd, const void *bytes, unsigned long count) {
    pthread_mutex_lock(&crashLock);
    OpenFile *o = findOpen(fd);
    Change *c = NULL;
    if (o && o->state) {
        c = calloc(1, sizeof *c);
        struct stat info;
        c->offset = lseek(fd, 0, SEEK_CUR);
        c->sizeBefore = fstat(fd, &info) == 0 ? info.st_size : 0;
        if (c->offset < c->sizeBefore) {
            // The bytes this write replaces, through a readable descriptor of the same file.
            char proc[64];
            snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
            int reader = open(proc, O_RDONLY | O_CLOEXEC);
            int64_t n = c->sizeBefore - c->offset < (int64_t)count ? c->sizeBefore - c->offset : (int64_t)count;
            c->before = malloc((size_t)n);
            if (reader >= 0 && pread(reader, c->before, (size_t)n, c->offset) == n) c->beforeLength = n;
            if (reader >= 0) close(reader);
        }
    }
    ssize_t written = write(fd, bytes, count);
    int saved = errno;
    if (c && written > 0) {
        c->length = written;
        c->data = malloc((size_t)written);
        memcpy(c->data, bytes, (size_t)written);
        appendChange(o->state, c);
        countFileEvent();
    } else if (c) {
        free(c->before);
        free(c);
    }
    pthread_mutex_unlock(&crashLock);
    errno = saved;
    return written;
}

int crashvfs_fs_fsync(int fd) {
    pthread_mutex_lock(&crashLock);
    OpenFile *o = findOpen(fd);
    // As in the shim: the cut makes the sync a barrier; the disk's flush only slows the run.
    int rc = realSync || !o ? fsync(fd) : 0;
    int saved = errno;
    if (rc == 0 && o) {
        if (!lyingSync) {
            if (o->isDirectory) { if (!ignoreDirectorySync) directorySynced(o->directory); }
            else if (o->state) freeChanges(o->state);
        }
        countFileEvent();
    }
    pthread_mutex_unlock(&crashLock);
    errno = saved;
    return rc;
}

int crashvfs_fs_close(int fd) {
    pthread_mutex_lock(&crashLock);
    for (OpenFile **link = &openFiles; *link; link = &(*link)->next) {
        if ((*link)->fd == fd) {
            OpenFile *o = *link;
            *link = o->next;
            free(o->directory);
            free(o);
            break;
        }
    }
    int rc = close(fd);
    int saved = errno;
    pthread_mutex_unlock(&crashLock);
    errno = saved;
    return rc;
}

int crashvfs_fs_rename(const char *from, const char *to) {
    pthread_mutex_lock(&crashLock);
    char *kept = keepInode(to);
    int rc = rename(from, to);
    int saved = errno;
    if (rc == 0) {
        moveState(to, kept);
        moveState(from, to);
        record(ENTRY_RENAME, to, from, kept);
        countFileEvent();
    } else if (kept) {
        unlink(kept);
        free(kept);
    }
    pthread_mutex_unlock(&crashLock);
    errno = saved;
    return rc;
}

int crashvfs_fs_link(const char *existing, const char *newPath) {
    pthread_mutex_lock(&crashLock);
    int rc = link(existing, newPath);
    int saved = errno;
    if (rc == 0) {
        record(ENTRY_LINK, newPath, NULL, NULL);
        countFileEvent();
    }
    pthread_mutex_unlock(&crashLock);
    errno = saved;
    return rc;
}

int crashvfs_fs_unlink(const char *path) {
    pthread_mutex_lock(&crashLock);
    char *kept = keepInode(path);
    int rc = unlink(path);
    int saved = errno;
    if (rc == 0) {
        moveState(path, kept);
        record(ENTRY_UNLINK, path, NULL, kept);
        countFileEvent();
    } else if (kept) {
        unlink(kept);
        free(kept);
    }
    pthread_mutex_unlock(&crashLock);
    errno = saved;
    return rc;
}

int crashvfs_fs_mkdir(const char *path, unsigned mode) {
    pthread_mutex_lock(&crashLock);
    int rc = mkdir(path, (mode_t)mode);
    int saved = errno;
    if (rc == 0) {
        record(ENTRY_MKDIR, path, NULL, NULL);
        countFileEvent();
    }
    pthread_mutex_unlock(&crashLock);
    errno = saved;
    return rc;
}

// What the SQLite shim (CrashVFS.c) and the own-file model (CrashFiles.c) share: one lock,
// one event counter, one random sequence and one list of files, so a single crash point
// counts both and one power cut rewrites both. Not a public header.
#ifndef SECSTORE_CRASHSHARED_H
#define SECSTORE_CRASHSHARED_H

#include <pthread.h>
#include <stdint.h>

#define SECTOR 512

// One change to a file since its last sync.
typedef struct Change {
    int isTruncate;
    int64_t offset;          // write: where; truncate: the new size
    int64_t length;          // write: how many bytes
    unsigned char *data;     // write: the bytes written
    int64_t sizeBefore;      // the file's size before the change
    unsigned char *before;   // the bytes the change replaced or removed (within sizeBefore)
    int64_t beforeLength;
    struct Change *next;
} Change;

// What the shim knows of one path (shared by every handle open on it: a sync through any
// handle makes the file's earlier writes durable, as fsync does for an inode). The path
// follows the inode through the own-file model's renames and unlinks.
typedef struct FileState {
    char *path;
    int created;             // created by this process through the VFS
    int directoryDurable;    // its directory entry survives a power cut
    int syncEntryAtFirstSync;// a new WAL or journal: SQLite fsyncs its directory at the first sync
    Change *head, *tail;
    struct FileState *next;
} FileState;

typedef struct Tally {
    int files, kept, dropped, torn, truncationsKept, truncationsDropped, vanished;
    int entriesKept, entriesUndone;
} Tally;

extern pthread_mutex_t crashLock;   // guards everything below and every recorded call
extern FileState *files;
extern int realSync;                // CRASHVFS_REAL_SYNC=1
extern int lyingSync;               // CRASHVFS_LYING_SYNC=1: no sync makes anything durable
extern int64_t crashAtFileEvent;    // CRASHVFS_CRASH_AT_FILE_EVENT: crash at this own-file event
extern int ignoreDirectorySync;     // CRASHVFS_IGNORE_DIRECTORY_SYNC=1: no directory fsync counts

uint64_t nextRandom(void);
FileState *stateFor(const char *path);
void freeChanges(FileState *f);
void appendChange(FileState *f, Change *c);
int pwriteAll(int fd, const unsigned char *bytes, int64_t length, int64_t offset);
/// With crashLock held, after an event ran: crashes (and does not return) when it is the one.
void countEvent(void);

// CrashFiles.c
/// With crashLock held: every entry made in the directory of `file` became durable.
void directorySyncedFor(const char *file);
/// With crashLock held, at the cut, after the file data: undoes the entries a power cut may lose.
void cutEntries(Tally *tally);
/// At a normal exit: removes the links kept to undo entries (atexit).
void removeSavedEntries(void);

#endif

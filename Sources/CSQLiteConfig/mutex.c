#define _GNU_SOURCE
#include "CSQLiteConfig.h"
#include <pthread.h>
#include <stdlib.h>
#include <sqlite3.h>

// SQLite's mutexes as pthread mutexes, of the kinds SQLite's own Unix implementation uses,
// except that the non-recursive ones are glibc's adaptive kind: a thread that finds one taken
// spins a little (glibc.pthread.mutex_spin_count tries) before it sleeps in the kernel. SQLite
// holds them for a few hundred nanoseconds; sleeping and being woken cost microseconds. Why
// and when: csqlite_use_adaptive_mutexes in CSQLiteConfig.h, and docs/concurrency.md.
//
// Adaptive mutexes are glibc's alone (PTHREAD_MUTEX_ADAPTIVE_NP): with another C library the
// setting is refused and SQLite keeps its own mutexes.

#ifdef __GLIBC__

struct sqlite3_mutex {
    pthread_mutex_t mutex;
    int id;
};

// SQLite's static mutexes, SQLITE_MUTEX_STATIC_MAIN (2) to SQLITE_MUTEX_STATIC_VFS3 (13); all
// of them non-recursive, as in SQLite's own implementation.
#define STATIC_FIRST SQLITE_MUTEX_STATIC_MAIN
#define STATIC_COUNT (SQLITE_MUTEX_STATIC_VFS3 - SQLITE_MUTEX_STATIC_MAIN + 1)
static struct sqlite3_mutex statics[STATIC_COUNT];
static pthread_once_t staticsMade = PTHREAD_ONCE_INIT;

// Returns 0 when the mutex was made.
static int make(struct sqlite3_mutex *made, int id) {
    pthread_mutexattr_t attributes;
    if (pthread_mutexattr_init(&attributes) != 0) return -1;
    int status = pthread_mutexattr_settype(&attributes, id == SQLITE_MUTEX_RECURSIVE ? PTHREAD_MUTEX_RECURSIVE : PTHREAD_MUTEX_ADAPTIVE_NP);
    if (status == 0) status = pthread_mutex_init(&made->mutex, &attributes);
    pthread_mutexattr_destroy(&attributes);
    made->id = id;
    return status;
}

// glibc cannot fail these (no resources are allocated for a process-private mutex).
static void makeStatics(void) {
    for (int index = 0; index < STATIC_COUNT; index++) (void)make(&statics[index], STATIC_FIRST + index);
}

// SQLite calls this more than once, from several threads (every sqlite3_mutex_alloc of a static
// mutex does): only the first call does anything.
static int mutexInit(void) {
    pthread_once(&staticsMade, makeStatics);
    return SQLITE_OK;
}

// The static mutexes stay: SQLite may initialize again after sqlite3_shutdown().
static int mutexEnd(void) { return SQLITE_OK; }

// Dynamic mutexes come from malloc, not SQLite's allocator: sqlite3_malloc would initialize
// SQLite, which allocates mutexes, from inside its own initialization. So they are outside
// SQLite's memory accounting (a few dozen bytes each).
static sqlite3_mutex *mutexAlloc(int id) {
    if (id >= STATIC_FIRST && id < STATIC_FIRST + STATIC_COUNT) {
        pthread_once(&staticsMade, makeStatics);
        return &statics[id - STATIC_FIRST];
    }
    if (id != SQLITE_MUTEX_FAST && id != SQLITE_MUTEX_RECURSIVE) return NULL;
    struct sqlite3_mutex *made = malloc(sizeof *made);
    if (made != NULL && make(made, id) != 0) {
        free(made);
        return NULL;
    }
    return made;
}

static void mutexFree(sqlite3_mutex *mutex) {
    if (mutex == NULL || (mutex->id != SQLITE_MUTEX_FAST && mutex->id != SQLITE_MUTEX_RECURSIVE)) return;
    pthread_mutex_destroy(&mutex->mutex);
    free(mutex);
}

static void mutexEnter(sqlite3_mutex *mutex) { pthread_mutex_lock(&mutex->mutex); }
static int mutexTry(sqlite3_mutex *mutex) { return pthread_mutex_trylock(&mutex->mutex) == 0 ? SQLITE_OK : SQLITE_BUSY; }
static void mutexLeave(sqlite3_mutex *mutex) { pthread_mutex_unlock(&mutex->mutex); }

// Asked only by SQLite's debug builds, in assertions (release builds leave the calls out); 1
// is the answer SQLite's documentation asks of an implementation that does not track owners.
static int mutexHeld(sqlite3_mutex *mutex) { (void)mutex; return 1; }
static int mutexNotheld(sqlite3_mutex *mutex) { (void)mutex; return 1; }

static sqlite3_mutex_methods adaptive = {
    mutexInit, mutexEnd, mutexAlloc, mutexFree, mutexEnter, mutexTry, mutexLeave, mutexHeld, mutexNotheld,
};

int csqlite_use_adaptive_mutexes(void) {
    return sqlite3_config(SQLITE_CONFIG_MUTEX, &adaptive);
}

int csqlite_adaptive_mutexes_in_use(void) {
    // Initialized first, so that the question cannot come between SQLite's mutexes and a setting.
    if (sqlite3_initialize() != SQLITE_OK) return 0;
    return sqlite3_mutex_alloc(SQLITE_MUTEX_STATIC_APP3) == &statics[SQLITE_MUTEX_STATIC_APP3 - STATIC_FIRST];
}

#else

int csqlite_use_adaptive_mutexes(void) { return SQLITE_ERROR; }

int csqlite_adaptive_mutexes_in_use(void) { return 0; }

#endif

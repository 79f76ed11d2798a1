#define _GNU_SOURCE
#include "CSQLiteConfig.h"
#include <pthread.h>
#include <stdlib.h>
#include <sqlite3.h>

// SQLite's mutexes, as SQLite's own Unix implementation makes them, except that the
// non-recursive ones are glibc's adaptive kind: a thread that finds one taken spins a little
// (glibc.pthread.mutex_spin_count tries) before it sleeps in the kernel. SQLite holds them
// for a few hundred nanoseconds; sleeping and being woken cost microseconds. Why and when:
// csqlite_use_adaptive_mutexes in CSQLiteConfig.h, and docs/concurrency.md.

struct sqlite3_mutex {
    pthread_mutex_t mutex;
    int id;
};

// SQLite's static mutexes, SQLITE_MUTEX_STATIC_MAIN (2) to SQLITE_MUTEX_STATIC_VFS3 (13).
#define STATIC_FIRST SQLITE_MUTEX_STATIC_MAIN
#define STATIC_COUNT (SQLITE_MUTEX_STATIC_VFS3 - SQLITE_MUTEX_STATIC_MAIN + 1)
static struct sqlite3_mutex statics[STATIC_COUNT];
static pthread_once_t staticsMade = PTHREAD_ONCE_INIT;

static void make(struct sqlite3_mutex *made, int id) {
    pthread_mutexattr_t attributes;
    pthread_mutexattr_init(&attributes);
    pthread_mutexattr_settype(&attributes, id == SQLITE_MUTEX_RECURSIVE ? PTHREAD_MUTEX_RECURSIVE : PTHREAD_MUTEX_ADAPTIVE_NP);
    pthread_mutex_init(&made->mutex, &attributes);
    pthread_mutexattr_destroy(&attributes);
    made->id = id;
}

static void makeStatics(void) {
    for (int index = 0; index < STATIC_COUNT; index++) make(&statics[index], STATIC_FIRST + index);
}

// SQLite may call this more than once, from several threads: only the first call does anything.
static int mutexInit(void) {
    pthread_once(&staticsMade, makeStatics);
    return SQLITE_OK;
}

// The static mutexes stay: SQLite may initialize again after sqlite3_shutdown().
static int mutexEnd(void) { return SQLITE_OK; }

static sqlite3_mutex *mutexAlloc(int id) {
    if (id >= STATIC_FIRST && id < STATIC_FIRST + STATIC_COUNT) {
        pthread_once(&staticsMade, makeStatics);
        return &statics[id - STATIC_FIRST];
    }
    if (id != SQLITE_MUTEX_FAST && id != SQLITE_MUTEX_RECURSIVE) return NULL;
    struct sqlite3_mutex *made = malloc(sizeof *made);
    if (made != NULL) make(made, id);
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

// Only SQLite's debug builds ask these, in assertions; its release builds answer 1 as well.
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

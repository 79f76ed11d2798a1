#ifndef SECSTORE_CSQLITECONFIG_H
#define SECSTORE_CSQLITECONFIG_H

// SQLite settings behind variadic functions Swift cannot call (sqlite3_config(3) for the
// process, sqlite3_db_config(3) for a connection): each setting SecStore makes gets one plain
// function. Reached from Sources/SecStore/Storage/SQLiteRows.swift only.

struct sqlite3;

/// sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0): no memory statistics. Returns SQLite's result
/// code: SQLITE_OK, or SQLITE_MISUSE when SQLite is already initialized in this process (the
/// setting is not made; SQLite reports the misuse to a SQLITE_CONFIG_LOG callback, if any).
int csqlite_disable_memory_statistics(void);

/// sqlite3_config(SQLITE_CONFIG_MUTEX, …): SQLite's mutexes as pthread mutexes of the kinds its
/// Unix build uses, except that the non-recursive ones are glibc's adaptive mutexes, which spin
/// briefly before sleeping. SQLite takes one such mutex (the shared-memory index's) at the start
/// and end of every read of a WAL database, and threads of one process reading the same store
/// take the same one. Same result codes as above, and SQLITE_ERROR with a C library other than
/// glibc or a SQLite built without threads (nothing changes then).
int csqlite_use_adaptive_mutexes(void);

/// 1 when SQLite hands out the mutexes of csqlite_use_adaptive_mutexes (it took the setting and
/// has initialized since), else 0. Initializes SQLite if it has not yet, which closes its
/// process-wide settings.
int csqlite_adaptive_mutexes_in_use(void);

/// sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL): when `db` is the last
/// connection to the database to close, SQLite leaves the write-ahead log as it is instead of
/// checkpointing it into the database file and deleting it. Returns SQLite's result code
/// (SQLITE_MISUSE for a NULL handle: a closed connection).
int csqlite_skip_checkpoint_on_close(struct sqlite3 *db);

/// Readies `db` for a database file that someone else may have written (docs/reliability.md,
/// "The file's format and tables"), before the connection reads the file's schema, following
/// https://www.sqlite.org/security.html: sqlite3_db_config(3) with SQLITE_DBCONFIG_DEFENSIVE 1
/// (no writable_schema, no journal_mode=OFF, no writes to sqlite_dbpage or shadow tables),
/// SQLITE_DBCONFIG_TRUSTED_SCHEMA 0 (schema objects may call innocuous functions only),
/// SQLITE_DBCONFIG_ENABLE_TRIGGER 0 and SQLITE_DBCONFIG_ENABLE_VIEW 0 (a trigger in the file
/// never fires and a view is never read: SecStore defines neither) and
/// SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION 0; then PRAGMA cell_size_check = ON (damaged b-tree
/// pages are refused as they are read) and PRAGMA mmap_size = 0 (no memory-mapped reads of the
/// file, whatever this SQLite's default). Returns SQLITE_OK, or the first failing call's result
/// code with `*setting` naming it (a static string); SQLITE_MISUSE for a NULL handle.
int csqlite_harden_connection(struct sqlite3 *db, const char **setting);

#endif

#ifndef SECSTORE_CSQLITECONFIG_H
#define SECSTORE_CSQLITECONFIG_H

// Process-wide SQLite settings. Swift cannot call the variadic sqlite3_config(3), so each
// setting SecStore makes gets one plain function. Reached from Sources/SecStore/Storage/SQLiteRows.swift only.

/// sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0): no memory statistics. Returns SQLite's result
/// code: SQLITE_OK, or SQLITE_MISUSE when SQLite is already initialized in this process (the
/// setting is not made; SQLite reports the misuse to a SQLITE_CONFIG_LOG callback, if any).
int csqlite_disable_memory_statistics(void);

#endif

#include "CSQLiteConfig.h"
#include <sqlite3.h>

int csqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

int csqlite_skip_checkpoint_on_close(struct sqlite3 *db) {
    // SQLite dereferences the handle unchecked (Debian builds it without SQLITE_ENABLE_API_ARMOR).
    if (db == 0) return SQLITE_MISUSE;
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

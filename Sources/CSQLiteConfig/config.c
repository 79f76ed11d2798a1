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

int csqlite_harden_connection(struct sqlite3 *db, const char **setting) {
    static const struct { int option; int value; const char *name; } options[] = {
        { SQLITE_DBCONFIG_DEFENSIVE, 1, "SQLITE_DBCONFIG_DEFENSIVE" },
        { SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, "SQLITE_DBCONFIG_TRUSTED_SCHEMA" },
        { SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, "SQLITE_DBCONFIG_ENABLE_TRIGGER" },
        { SQLITE_DBCONFIG_ENABLE_VIEW, 0, "SQLITE_DBCONFIG_ENABLE_VIEW" },
        { SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, "SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION" },
    };
    *setting = "the connection";
    if (db == 0) return SQLITE_MISUSE;
    for (unsigned i = 0; i < sizeof options / sizeof options[0]; i++) {
        int now = -1;
        int rc = sqlite3_db_config(db, options[i].option, options[i].value, &now);
        // A SQLite too old to know the option answers SQLITE_ERROR; one that took it reports
        // the value now in force, which must be the one asked for.
        if (rc != SQLITE_OK || now != options[i].value) {
            *setting = options[i].name;
            return rc != SQLITE_OK ? rc : SQLITE_ERROR;
        }
    }
    // Neither pragma reads the schema, so both are in force before anything of the file's is parsed.
    *setting = "PRAGMA cell_size_check = ON; PRAGMA mmap_size = 0";
    return sqlite3_exec(db, "PRAGMA cell_size_check = ON; PRAGMA mmap_size = 0", 0, 0, 0);
}

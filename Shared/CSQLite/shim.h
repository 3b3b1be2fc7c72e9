// The SQLite C API (Debian: libsqlite3-dev).
#include <sqlite3.h>

// sqlite3_db_config is variadic, which Swift cannot call: its one setting the roster uses.
// `on` non-zero: closing the connection neither checkpoints the WAL into the database nor
// deletes it (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE).
static inline int monsterbus_sqlite3_no_checkpoint_on_close(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on, (int *)0);
}

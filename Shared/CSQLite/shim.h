// The SQLite C API (Debian: libsqlite3-dev).
#include <sqlite3.h>

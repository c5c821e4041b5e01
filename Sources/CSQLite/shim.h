// The system SQLite3 library (libsqlite3-dev on Debian and Ubuntu, part of macOS's SDK), seen by
// Swift as the module CSQLite. Nothing is added to it.
#include <sqlite3.h>

// GNU libmicrohttpd's C API (Debian: libmicrohttpd-dev). It needs the socket types first.
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>

// MHD_set_connection_option is variadic, which Swift cannot call: its one use, the timeout.
static inline enum MHD_Result monster_bus_set_connection_timeout(struct MHD_Connection *connection, unsigned int seconds) {
    return MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

// The libzmq C API (Debian: libzmq3-dev).
#include <zmq.h>

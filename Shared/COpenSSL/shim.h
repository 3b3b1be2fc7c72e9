// OpenSSL's TLS client API (Debian: libssl-dev), and functions for the parts of it that are
// macros, which Swift cannot call.
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

/// TLS 1.2 at least; partial writes (a non-blocking socket's), and a connection's end without
/// close_notify read as its end rather than an error (HTTP frames its own answers).
static inline int monsterbus_tls_configure(SSL_CTX *context) {
    SSL_CTX_set_mode(context, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    SSL_CTX_set_options(context, SSL_OP_IGNORE_UNEXPECTED_EOF);
    return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}

/// Names the server for SNI (a host name, never an address).
static inline int monsterbus_tls_set_server_name(SSL *connection, const char *name) {
    return (int)SSL_set_tlsext_host_name(connection, name);
}

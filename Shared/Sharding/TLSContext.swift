import COpenSSL
import Glibc

/// What a TLS client trusts and presents, loaded once (OpenSSL's `SSL_CTX`): the certificate
/// authority a server's certificate must chain to (the system's when none is named), and a
/// certificate and key of its own when the server asks for one. Connections made from it check
/// the server's certificate and its name (a host name, or an IP address) and speak TLS 1.2 or
/// later. OpenSSL allows one context to be shared by threads once it is set up, as here.
final class TLSContext: @unchecked Sendable {
    private let context: OpaquePointer

    /// A context from `files`; an unreadable file, a bad PEM or a key that does not match its
    /// certificate is an error naming the file.
    init(_ files: EtcdTLS) throws(EtcdError) {
        // OpenSSL writes to its socket with write(2), which raises SIGPIPE on a connection the
        // server has closed (plain HTTP passes MSG_NOSIGNAL, libzmq too): a closed etcd
        // connection is an error of one request, never the end of the process.
        signal(SIGPIPE, SIG_IGN)
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw EtcdError(description: "TLS: \(Self.openSSLError())")
        }
        self.context = context
        guard monsterbus_tls_configure(context) == 1 else {
            throw EtcdError(description: "TLS: cannot require TLS 1.2: \(Self.openSSLError())")
        }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        if let authority = files.authority {
            try Self.readable(authority, as: "ETCD_TLS_CA")
            guard SSL_CTX_load_verify_locations(context, authority, nil) == 1 else {
                throw EtcdError(description: "ETCD_TLS_CA '\(authority)': not a PEM certificate: \(Self.openSSLError())")
            }
        } else if SSL_CTX_set_default_verify_paths(context) != 1 {
            throw EtcdError(description: "TLS: cannot load the system's certificate authorities: \(Self.openSSLError())")
        }
        if let certificate = files.certificate, let key = files.key {
            try Self.readable(certificate, as: "ETCD_TLS_CERT")
            try Self.readable(key, as: "ETCD_TLS_KEY")
            guard SSL_CTX_use_certificate_chain_file(context, certificate) == 1 else {
                throw EtcdError(description: "ETCD_TLS_CERT '\(certificate)': not a PEM certificate: \(Self.openSSLError())")
            }
            guard SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) == 1 else {
                // OpenSSL checks the key against the certificate as it loads it.
                guard ERR_GET_REASON(ERR_peek_last_error()) != X509_R_KEY_VALUES_MISMATCH else {
                    ERR_clear_error()
                    throw EtcdError(description: "ETCD_TLS_KEY '\(key)' is not the key of ETCD_TLS_CERT '\(certificate)'")
                }
                throw EtcdError(description: "ETCD_TLS_KEY '\(key)': not a PEM private key: \(Self.openSSLError())")
            }
        }
    }

    deinit { SSL_CTX_free(context) }

    /// A TLS connection over `socket` (connected, non-blocking) to `host`, its handshake done
    /// by `deadline`: the server's certificate checked against the authority and `host`.
    func connect(_ socket: Int32, to host: String, deadline: Double) throws(HTTPClient.Failure) -> OpaquePointer {
        ERR_clear_error()
        guard let connection = SSL_new(context) else { throw HTTPClient.Failure(description: "TLS: \(Self.openSSLError())") }
        var address = in6_addr()
        let isAddress = inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1
        let named = isAddress
            ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(connection), host) == 1
            : SSL_set1_host(connection, host) == 1 && monsterbus_tls_set_server_name(connection, host) == 1
        guard named, SSL_set_fd(connection, socket) == 1 else {
            SSL_free(connection)
            throw HTTPClient.Failure(description: "TLS: cannot name the server \(host): \(Self.openSSLError())")
        }
        while true {
            let result = SSL_connect(connection)
            if result == 1 { return connection }
            do {
                try Self.wait(connection, after: result, on: socket, deadline: deadline, doing: "handshake")
            } catch {
                SSL_free(connection)
                throw error
            }
        }
    }

    /// After an operation on `connection` returned `result` (not done): waits until the socket
    /// is ready for what OpenSSL wants, or throws what went wrong, for a person.
    static func wait(_ connection: OpaquePointer, after result: Int32, on socket: Int32, deadline: Double, doing what: String) throws(HTTPClient.Failure) {
        let error = SSL_get_error(connection, result)
        switch error {
        case SSL_ERROR_WANT_READ: try HTTPClient.waitFor(Int16(POLLIN), on: socket, deadline: deadline)
        case SSL_ERROR_WANT_WRITE: try HTTPClient.waitFor(Int16(POLLOUT), on: socket, deadline: deadline)
        case SSL_ERROR_SYSCALL where errno == EINTR: return
        default:
            let verified = SSL_get_verify_result(connection)
            if verified != X509_V_OK {
                throw HTTPClient.Failure(description: "TLS \(what): the server's certificate is refused: \(String(cString: X509_verify_cert_error_string(verified)))")
            }
            let reset = error == SSL_ERROR_SYSCALL && (errno == ECONNRESET || errno == EPIPE)
            let reason = error == SSL_ERROR_SYSCALL && ERR_peek_error() == 0 ? String(cString: strerror(errno)) : openSSLError()
            throw HTTPClient.Failure(description: "TLS \(what): \(reason)", stale: reset)
        }
    }

    /// OpenSSL's queued errors for this thread, as one line (and the queue emptied).
    static func openSSLError() -> String {
        var reasons: [String] = []
        var code = ERR_get_error()
        while code != 0 {
            var text = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &text, text.count)
            reasons.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            code = ERR_get_error()
        }
        return reasons.isEmpty ? "unknown error" : reasons.joined(separator: "; ")
    }

    /// Throws unless `path` can be opened for reading: a clearer line than OpenSSL's for a typo.
    private static func readable(_ path: String, as variable: String) throws(EtcdError) {
        guard access(path, R_OK) == 0 else {
            throw EtcdError(description: "\(variable) '\(path)': \(String(cString: strerror(errno)))")
        }
    }
}

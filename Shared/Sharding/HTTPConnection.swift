import COpenSSL
import Glibc

/// One connection of `HTTPClient`: a connected, non-blocking TCP socket, with TLS over it
/// (`TLSContext`) or not. One caller uses it at a time (the client hands a kept connection to
/// one exchange); it is closed when dropped.
final class HTTPConnection: @unchecked Sendable {
    private let socket: Int32
    private let tls: OpaquePointer?

    /// The connection over `socket`, through the TLS connection `tls` when there is one; both
    /// are owned from now on.
    init(socket: Int32, tls: OpaquePointer?) {
        self.socket = socket
        self.tls = tls
    }

    deinit {
        if let tls { SSL_free(tls) }
        close(socket)
    }

    /// Sends all of `bytes`, waiting for the socket as needed until `deadline`.
    func send(_ bytes: [UInt8], deadline: Double) throws(HTTPClient.Failure) {
        var sent = 0
        while sent < bytes.count {
            if let tls {
                ERR_clear_error()
                let count = bytes.withUnsafeBytes { SSL_write(tls, $0.baseAddress! + sent, Int32(clamping: bytes.count - sent)) }
                if count > 0 { sent += Int(count) } else {
                    try TLSContext.wait(tls, after: count, on: socket, deadline: deadline, doing: "send")
                }
                continue
            }
            let count = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                sent += count
            } else if errno == EAGAIN || errno == EINTR {
                try HTTPClient.waitFor(Int16(POLLOUT), on: socket, deadline: deadline)
            } else {
                throw HTTPClient.Failure(description: "cannot send: \(String(cString: strerror(errno)))", stale: errno == EPIPE || errno == ECONNRESET)
            }
        }
    }

    /// Receives into `chunk` what has arrived, waiting for something until `deadline`: the
    /// count of bytes, 0 at the connection's end. A reset throws a failure marked `stale`.
    func receive(into chunk: UnsafeMutableBufferPointer<UInt8>, deadline: Double) throws(HTTPClient.Failure) -> Int {
        while true {
            if let tls {
                ERR_clear_error()
                let count = SSL_read(tls, chunk.baseAddress, Int32(clamping: chunk.count))
                if count > 0 { return Int(count) }
                if SSL_get_error(tls, count) == SSL_ERROR_ZERO_RETURN { return 0 }
                try TLSContext.wait(tls, after: count, on: socket, deadline: deadline, doing: "receive")
                continue
            }
            let count = recv(socket, chunk.baseAddress, chunk.count, 0)
            if count >= 0 { return count }
            if errno == EAGAIN || errno == EINTR {
                try HTTPClient.waitFor(Int16(POLLIN), on: socket, deadline: deadline)
            } else if errno == ECONNRESET {
                throw HTTPClient.Failure(description: "the server reset the connection", stale: true)
            } else {
                throw HTTPClient.Failure(description: "cannot receive: \(String(cString: strerror(errno)))")
            }
        }
    }
}

import CMicroHTTPD
import Glibc
import MonitorKit

/// A response to one request: a status, a content type and a body; or an event stream.
enum HTTPResponse {
    /// A whole body.
    case page(status: UInt32, contentType: String, body: String)
    /// Server-Sent Events, produced by the stream as the client reads.
    case events(EventStream)
}

/// GNU libmicrohttpd serving the monitor's routes: one thread per connection (so a stream may
/// block waiting for a change, and a client that stops reading holds up only its own thread),
/// at most `maxConnections` at once, idle connections closed after 30 s. The listening socket
/// is bound here, so that port 0 gives a free port that `port` then reports.
final class HTTPServer {
    /// Connections served at once, at most (each has a thread).
    static let maxConnections: UInt32 = 64

    /// The port listened on.
    let port: UInt16
    private let daemon: OpaquePointer
    private let router: Unmanaged<Router>

    /// Listens on `address` and serves `router` until `stop`.
    init(address: MonitorAddress, router: Router) throws {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw ServerError("socket() failed: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = address.port.bigEndian
        guard inet_pton(AF_INET, address.host, &socketAddress.sin_addr) == 1 else {
            close(socketFD)
            throw ServerError("'\(address.host)' is not an IPv4 address")
        }
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socketFD, 128) == 0 else {
            let reason = String(cString: strerror(errno))
            close(socketFD)
            throw ServerError("cannot listen on \(address): \(reason)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        port = UInt16(bigEndian: socketAddress.sin_port)

        self.router = Unmanaged.passRetained(router)
        let flags = MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_POLL_INTERNAL_THREAD.rawValue | MHD_USE_ERROR_LOG.rawValue
        let options: [CVarArg] = [
            MHD_OPTION.LISTEN_SOCKET.rawValue, socketFD,
            MHD_OPTION.CONNECTION_LIMIT.rawValue, Self.maxConnections,
            MHD_OPTION.CONNECTION_TIMEOUT.rawValue, UInt32(30),
            MHD_OPTION.END.rawValue,
        ]
        let context = self.router.toOpaque()
        guard let started = withVaList(options, { MHD_start_daemon_va(flags, 0, nil, nil, handleRequest, context, $0) }) else {
            self.router.release()
            close(socketFD)
            throw ServerError("libmicrohttpd could not start on \(address)")
        }
        daemon = started
    }

    /// Stops serving: waits for every connection's thread (streams end once the hub stops).
    func stop() {
        MHD_stop_daemon(daemon)
        router.release()
    }
}

/// Why the server could not start.
struct ServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// libmicrohttpd's request callback: asks the router, queues its answer.
private let handleRequest: MHD_AccessHandlerCallback = { context, connection, url, method, _, _, _, _ in
    guard let context, let connection else { return .NO }
    let router = Unmanaged<Router>.fromOpaque(context).takeUnretainedValue()
    let methodName = method.map { String(cString: $0) } ?? "GET"
    let path = url.map { String(cString: $0) } ?? "/"
    let device = MHD_lookup_connection_value(connection, .GET_ARGUMENT_KIND, "device").map { String(cString: $0) }
    let answer = router.respond(method: methodName, path: path, device: device)
    let response: OpaquePointer?
    let status: UInt32
    switch answer {
    case .page(let code, let contentType, let body):
        status = code
        var bytes = Array(body.utf8)
        response = bytes.withUnsafeMutableBytes {
            MHD_create_response_from_buffer($0.count, $0.baseAddress, .RESPMEM_MUST_COPY)
        }
        if let response { MHD_add_response_header(response, "Content-Type", contentType) }
    case .events(let stream):
        status = 200
        response = MHD_create_response_from_callback(
            UInt64.max, 16 * 1024, readEvents, Unmanaged.passRetained(stream).toOpaque(), releaseEvents)
        if let response {
            MHD_add_response_header(response, "Content-Type", "text/event-stream; charset=utf-8")
            MHD_add_response_header(response, "Cache-Control", "no-cache")
        }
    }
    guard let response else { return .NO }
    MHD_add_response_header(response, "X-Content-Type-Options", "nosniff")
    defer { MHD_destroy_response(response) }
    return MHD_queue_response(connection, status, response)
}

/// libmicrohttpd asks for more of an event stream (on the connection's own thread: it may block).
private let readEvents: MHD_ContentReaderCallback = { context, _, buffer, size in
    guard let context, let buffer else { return -2 }
    let stream = Unmanaged<EventStream>.fromOpaque(context).takeUnretainedValue()
    return stream.fill(buffer, capacity: size)
}

/// libmicrohttpd is done with an event stream (the client left, or the server stops).
private let releaseEvents: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    Unmanaged<EventStream>.fromOpaque(context).release()
}

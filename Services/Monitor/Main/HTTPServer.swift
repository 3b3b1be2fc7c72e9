import CMicroHTTPD
import Glibc
import MonitorKit
import ProcessSupport
import Wire

/// GNU libmicrohttpd serving a router's routes, event-driven: a few threads polling every
/// connection (epoll), none of them ever waiting on the model (streams and device pages that
/// wait are suspended with the waker). A client holds at most `perAddress` connections (more
/// are closed at once) and the server `connections` in all (past them, new ones wait in the
/// listening socket's backlog until one closes); a request must arrive with no
/// silence longer than `requestTimeout`; `/events` streams beyond `maxStreams` are answered
/// `503` with `Retry-After`. libmicrohttpd's own messages go through the log, rate-limited.
/// The listening socket is bound here, so that port 0 gives a free port that `port` reports.
final class HTTPServer {
    /// What one listener allows.
    struct Settings {
        /// Connections held at once.
        var connections: Int
        /// Connections held at once from one address.
        var perAddress: Int
        /// `/events` streams at once (0 on the health listener: none).
        var maxStreams: Int
        /// Seconds of silence allowed before a request has arrived whole, and between requests.
        var requestTimeout: Int
        /// libmicrohttpd's threads.
        var threads: Int
    }

    /// Each connection's memory (libmicrohttpd's pool: the request's head, the answer's buffer):
    /// the largest header block is a little less. Above 32 KiB libmicrohttpd maps it (`mmap`)
    /// rather than `malloc` it, so that only the pages a connection uses are resident and all of
    /// them go back to the system when it closes.
    static let connectionMemory = 36 * 1024

    /// The port listened on.
    let port: UInt16
    private let daemon: OpaquePointer
    private let context: Unmanaged<ServerContext>

    /// Listens on `address` and serves `router` until `stop`; streams are suspended with `waker`.
    /// Connections opening and closing are told to `memory`.
    init(
        address: MonitorAddress, router: Router, hub: MonitorHub, waker: ConnectionWaker, memory: MemoryReturn,
        settings: Settings, log: Log
    ) throws {
        let socketFD = try Self.listen(on: address)
        var socketAddress = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        port = UInt16(bigEndian: socketAddress.sin_port)

        context = Unmanaged.passRetained(ServerContext(router: router, hub: hub, waker: waker, memory: memory, maxStreams: settings.maxStreams, log: log))
        let flags = MHD_USE_AUTO_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
        let opaque = context.toOpaque()
        var options: [CVarArg] = [
            // First, so that even the start's messages go through the log.
            MHD_OPTION.EXTERNAL_LOGGER.rawValue, unsafeBitCast(logMessage, to: OpaquePointer.self), OpaquePointer(opaque),
            MHD_OPTION.LISTEN_SOCKET.rawValue, socketFD,
            MHD_OPTION.CONNECTION_LIMIT.rawValue, UInt32(settings.connections),
            MHD_OPTION.PER_IP_CONNECTION_LIMIT.rawValue, UInt32(settings.perAddress),
            MHD_OPTION.CONNECTION_TIMEOUT.rawValue, UInt32(settings.requestTimeout),
            MHD_OPTION.CONNECTION_MEMORY_LIMIT.rawValue, Self.connectionMemory,
            MHD_OPTION.NOTIFY_COMPLETED.rawValue, unsafeBitCast(requestCompleted, to: OpaquePointer.self), OpaquePointer(opaque),
            MHD_OPTION.NOTIFY_CONNECTION.rawValue, unsafeBitCast(connectionChanged, to: OpaquePointer.self), OpaquePointer(opaque),
        ]
        if settings.threads > 1 { options += [MHD_OPTION.THREAD_POOL_SIZE.rawValue, UInt32(settings.threads)] }
        options.append(MHD_OPTION.END.rawValue)
        guard let started = withVaList(options, { MHD_start_daemon_va(flags, 0, nil, nil, handleRequest, opaque, $0) }) else {
            context.release()
            close(socketFD)
            throw ServerError("libmicrohttpd could not start on \(address)")
        }
        daemon = started
    }

    /// Stops serving (the waker must have been stopped first: no connection is suspended).
    func stop() {
        MHD_stop_daemon(daemon)
        context.release()
    }

    /// A non-blocking TCP socket bound to `address` and listening.
    private static func listen(on address: MonitorAddress) throws -> Int32 {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
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
        // A deep backlog: a burst of connections waits to be accepted (and refused, past a limit) rather than retried.
        guard bound == 0, Glibc.listen(socketFD, 4096) == 0 else {
            let reason = String(cString: strerror(errno))
            close(socketFD)
            throw ServerError("cannot listen on \(address): \(reason)")
        }
        return socketFD
    }
}

/// Why the server could not start.
struct ServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// What libmicrohttpd's callbacks share: the routes, the model, the waker, the streams open,
/// the log and its throttle.
private final class ServerContext: @unchecked Sendable {
    let router: Router
    let hub: MonitorHub
    let waker: ConnectionWaker
    let memory: MemoryReturn
    let maxStreams: Int
    let log: Log
    /// `/events` streams open.
    let streams = Locked(0)
    let messages = Locked(ServerMessageThrottle(interval: 10))

    init(router: Router, hub: MonitorHub, waker: ConnectionWaker, memory: MemoryReturn, maxStreams: Int, log: Log) {
        self.router = router; self.hub = hub; self.waker = waker; self.memory = memory; self.maxStreams = maxStreams; self.log = log
    }
}

/// A request that waits (a device page): the deadline its first answer gave.
private final class WaitingRequest {
    let deadline: Double
    init(deadline: Double) { self.deadline = deadline }
}

/// libmicrohttpd's request callback: asks the router, queues its answer, or suspends the
/// connection until the router may answer.
private let handleRequest: MHD_AccessHandlerCallback = { context, connection, url, method, _, _, _, state in
    guard let context, let connection else { return .NO }
    let server = Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue()
    let methodName = method.map { String(cString: $0) } ?? "GET"
    let path = url.map { String(cString: $0) } ?? "/"
    let device = MHD_lookup_connection_value(connection, .GET_ARGUMENT_KIND, "device").map { String(cString: $0) }
    let waiting = state?.pointee.map { Unmanaged<WaitingRequest>.fromOpaque($0).takeUnretainedValue() }
    let response: OpaquePointer?
    let status: UInt32
    switch server.router.respond(method: methodName, path: path, device: device, deadline: waiting?.deadline) {
    case .wait(let seen, let deadline):
        guard let state else { return .NO }
        if state.pointee == nil { state.pointee = Unmanaged.passRetained(WaitingRequest(deadline: deadline)).toOpaque() }
        return server.waker.park(connection, wake: .any, seen: seen, notBefore: 0, deadline: deadline) ? .YES : .NO
    case .page(let code, let contentType, let body):
        status = code
        response = makePage(body, contentType: contentType)
    case .events(let device):
        let admitted = server.streams.withLock { open in
            guard open < server.maxStreams else { return false }
            open += 1
            return true
        }
        guard admitted else {
            status = 503
            response = makePage("too many viewers at once: try again in \(MonitorLimits.retryAfter) s\n", contentType: "text/plain; charset=utf-8")
            if let response {
                MHD_add_response_header(response, "Retry-After", String(MonitorLimits.retryAfter))
                MHD_add_response_header(response, "Connection", "close")
            }
            break
        }
        let stream = Unmanaged.passRetained(EventStream(hub: server.hub, waker: server.waker, connection: connection, device: device, slots: server.streams))
        status = 200
        response = MHD_create_response_from_callback(UInt64.max, 16 * 1024, readEvents, stream.toOpaque(), releaseEvents)
        guard let response else {
            stream.release()
            return .NO
        }
        MHD_add_response_header(response, "Content-Type", "text/event-stream; charset=utf-8")
        MHD_add_response_header(response, "Cache-Control", "no-cache")
        // A stream is written for as long as its client reads; only one that reads nothing is closed.
        _ = monster_bus_set_connection_timeout(connection, UInt32(MonitorLimits.streamStallTimeout))
    }
    guard let response else { return .NO }
    MHD_add_response_header(response, "X-Content-Type-Options", "nosniff")
    defer { MHD_destroy_response(response) }
    return MHD_queue_response(connection, status, response)
}

/// A response holding a copy of `body`, with its content type.
private func makePage(_ body: String, contentType: String) -> OpaquePointer? {
    var bytes = Array(body.utf8)
    let response = bytes.withUnsafeMutableBytes {
        MHD_create_response_from_buffer($0.count, $0.baseAddress, .RESPMEM_MUST_COPY)
    }
    if let response { MHD_add_response_header(response, "Content-Type", contentType) }
    return response
}

/// libmicrohttpd is done with a request: a waiting one's state is released.
private let requestCompleted: MHD_RequestCompletedCallback = { _, _, state, _ in
    guard let state, let waiting = state.pointee else { return }
    Unmanaged<WaitingRequest>.fromOpaque(waiting).release()
    state.pointee = nil
}

/// libmicrohttpd accepted or closed a connection.
private let connectionChanged: MHD_NotifyConnectionCallback = { context, _, _, code in
    guard let context else { return }
    let server = Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue()
    if code == .CONNECTION_NOTIFY_STARTED { server.memory.opened() } else { server.memory.closed() }
}

/// libmicrohttpd asks for more of an event stream (on one of its threads: it never waits).
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

/// libmicrohttpd's messages (a refused connection, a client's bad request), each kind written
/// once and then summarised every 10 s, at `warn`.
private let logMessage: MHD_LogCallback = { context, format, arguments in
    guard let context, let format, let arguments else { return }
    let server = Unmanaged<ServerContext>.fromOpaque(context).takeUnretainedValue()
    var buffer = [CChar](repeating: 0, count: 512)
    _ = vsnprintf(&buffer, buffer.count, format, arguments)
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let kind = String(cString: format)
    if let line = server.messages.withLock({ $0.line(for: text, kind: kind, now: Timestamp.monotonic()) }) {
        server.log.warn(line)
    }
}

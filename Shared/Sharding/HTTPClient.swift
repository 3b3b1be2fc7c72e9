import Glibc
import ProcessSupport
import Wire

/// A small HTTP/1.1 client over TCP, with TLS or without, for etcd's JSON gateway: a POST with a body,
/// an answer with a `Content-Length` or chunked. It keeps its connections open between requests
/// (one per concurrent caller). Each call blocks the calling thread (never the cooperative pool)
/// until the answer is complete or the timeout has passed. Its own, not Foundation's
/// `URLSession`, which would load libcurl and its TLS and Kerberos libraries in every process.
final class HTTPClient: Sendable {
    /// One exchange's answer.
    struct Response {
        /// The HTTP status (200: OK).
        var status: Int
        /// The body, de-chunked.
        var body: [UInt8]
    }

    /// What went wrong, for a person; `stale` when a kept connection turned out to be closed by
    /// the server before it answered anything (the request is then sent again on a new one).
    struct Failure: Error {
        var description: String
        var stale = false
        /// Closed by the server without a byte of answer, on a new connection too: what a
        /// server speaking TLS does with a plain request.
        var unanswered = false
    }

    private let host: String
    private let port: UInt16
    private let tls: TLSContext?
    private let maxBodyBytes: Int
    private let idle = Locked<[HTTPConnection]>([])

    /// The largest answer body accepted by default: far above anything etcd answers here, far
    /// below what would exhaust a service's memory.
    static let defaultMaxBodyBytes = 64 << 20

    /// A client of the server at `host` (a name, or an address; IPv6 without brackets) and
    /// `port`, over TLS set up by `tls` when given, refusing answers whose body is larger than
    /// `maxBodyBytes`.
    init(host: String, port: UInt16, tls: TLSContext? = nil, maxBodyBytes: Int = defaultMaxBodyBytes) {
        self.host = host
        self.port = port
        self.tls = tls
        self.maxBodyBytes = maxBodyBytes
    }

    /// POSTs `body` to `path` with `contentType`, and returns the answer, within `timeout` seconds.
    func post(_ path: String, body: [UInt8], contentType: String, timeout: Double) throws(Failure) -> Response {
        let deadline = Timestamp.monotonic() + timeout
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let head = "POST \(path) HTTP/1.1\r\nHost: \(authority)\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n\r\n"
        let request = Array(head.utf8) + body
        if let kept = idle.withLock({ $0.popLast() }) {
            do {
                return try exchange(kept, request, deadline: deadline)
            } catch where !error.stale {
                throw error
            } catch {
                // Closed by the server while it was idle: a new connection below.
            }
        }
        return try exchange(try connect(deadline: deadline), request, deadline: deadline)
    }

    /// Sends `request` on `connection` and reads the answer; the connection is kept for the next
    /// request when the answer leaves it reusable, closed otherwise.
    private func exchange(_ connection: HTTPConnection, _ request: [UInt8], deadline: Double) throws(Failure) -> Response {
        var reader = ResponseReader(connection: connection, deadline: deadline, maxBodyBytes: maxBodyBytes)
        try connection.send(request, deadline: deadline)
        let response = try reader.read()
        if reader.reusable { idle.withLock { $0.append(connection) } }
        return response
    }

    /// A new connection to the host, with its TLS handshake done when the client has TLS.
    private func connect(deadline: Double) throws(Failure) -> HTTPConnection {
        let socket = try connectSocket(deadline: deadline)
        guard let tls else { return HTTPConnection(socket: socket, tls: nil) }
        do {
            return HTTPConnection(socket: socket, tls: try tls.connect(socket, to: host, deadline: deadline))
        } catch {
            close(socket)
            throw error
        }
    }

    /// A new TCP socket, non-blocking, connected to the first of the host's addresses that accepts one.
    private func connectSocket(deadline: Double) throws(Failure) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &list)
        guard resolved == 0, let first = list else {
            throw Failure(description: "cannot resolve \(host): \(String(cString: gai_strerror(resolved)))")
        }
        defer { freeaddrinfo(first) }
        var reason = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let socket = Glibc.socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
            guard socket >= 0 else {
                reason = Self.systemError()
                continue
            }
            var error = Glibc.connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 ? 0 : errno
            // Non-blocking: the connection completes (or fails) later, and says so in SO_ERROR.
            if error == EINPROGRESS {
                do {
                    try Self.waitFor(Int16(POLLOUT), on: socket, deadline: deadline)
                } catch {
                    close(socket)
                    throw error
                }
                var size = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &size)
            }
            if error == 0 { return socket }
            reason = String(cString: strerror(error))
            close(socket)
        }
        throw Failure(description: "cannot connect: \(reason)")
    }

    /// Waits until `socket` is ready for `events`, or throws when `deadline` has passed.
    static func waitFor(_ events: Int16, on socket: Int32, deadline: Double) throws(Failure) {
        while true {
            let left = deadline - Timestamp.monotonic()
            guard left > 0 else { throw Failure(description: "no answer in time") }
            var entry = pollfd(fd: socket, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(min(left * 1000 + 1, Double(Int32.max))))
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw Failure(description: "poll: \(systemError())") }
        }
    }

    fileprivate static func systemError() -> String { String(cString: strerror(errno)) }
}

/// Reads one HTTP/1.1 answer from a socket: the status line, the headers, and the body by
/// `Content-Length`, chunked, or up to the end of the connection — none larger than
/// `maxBodyBytes`, and a length or chunk size that is not a number in range is an error. The
/// header block (and the trailers) are capped too, and so is the whole answer as received
/// (head, chunk framing and body), so that no answer, however framed, holds more memory.
private struct ResponseReader {
    let connection: HTTPConnection
    let deadline: Double
    let maxBodyBytes: Int
    private var buffer: [UInt8] = []
    private var position = 0
    /// Whether the connection can carry another request after this answer.
    private(set) var reusable = false
    /// The largest header block accepted (every line of it), and the largest trailer block.
    static let maxHeaderBytes = 65_536
    /// The most bytes received for one answer: its body, its head and its chunks' framing.
    private var maxAnswerBytes: Int { maxBodyBytes + Self.maxHeaderBytes }

    init(connection: HTTPConnection, deadline: Double, maxBodyBytes: Int) {
        self.connection = connection
        self.deadline = deadline
        self.maxBodyBytes = maxBodyBytes
    }

    mutating func read() throws(HTTPClient.Failure) -> HTTPClient.Response {
        let headerLines = try readHeaders()
        guard let statusLine = headerLines.first, statusLine.starts(with: "HTTP/1.".utf8),
              let status = statusLine.split(separator: UInt8(ascii: " ")).dropFirst().first.flatMap({ Int(String(decoding: $0, as: UTF8.self)) })
        else {
            throw HTTPClient.Failure(description: "not an HTTP answer: \(String(decoding: headerLines.first?.prefix(80) ?? [], as: UTF8.self))")
        }
        var length: String?
        var chunked = false
        var closes = false
        for line in headerLines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let value = line[(colon + 1)...]
            switch Self.lowercased(line[..<colon]) {
            case "content-length": length = String(decoding: Self.trimmed(value), as: UTF8.self)
            case "transfer-encoding": chunked = Self.tokens(value).contains("chunked")
            case "connection": closes = Self.tokens(value).contains("close")
            default: break
            }
        }
        let body: [UInt8]
        if chunked {
            body = try readChunks()
        } else if let length {
            let count = try size(length, radix: 10, of: "Content-Length", within: maxBodyBytes)
            try need(position + count)
            body = Array(buffer[position..<position + count])
            position += count
        } else {
            repeat {
                guard buffer.count - position <= maxBodyBytes else { throw tooLarge() }
            } while try receive()
            body = Array(buffer[position...])
            position = buffer.count
            closes = true
        }
        reusable = !closes && position == buffer.count
        return HTTPClient.Response(status: status, body: body)
    }

    /// The lines of the status and headers (the blank line consumed), or of the trailers.
    private mutating func readHeaders(_ what: String = "header block") throws(HTTPClient.Failure) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        let start = position
        while true {
            let line = try readLine()
            if line.isEmpty { return lines }
            guard position - start <= Self.maxHeaderBytes else {
                throw HTTPClient.Failure(description: "a \(what) longer than \(Self.maxHeaderBytes) bytes in the answer")
            }
            lines.append(line)
        }
    }

    private mutating func readChunks() throws(HTTPClient.Failure) -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let line = try readLine()
            // The size, before any extension (`7;ext=1`).
            let digits = String(decoding: Self.trimmed(line.prefix { $0 != UInt8(ascii: ";") }), as: UTF8.self)
            let size = try size(digits, radix: 16, of: "chunk size", within: maxBodyBytes - body.count)
            if size == 0 {
                _ = try readHeaders("trailer block")
                return body
            }
            try need(position + size + 2)
            body += buffer[position..<position + size]
            position += size + 2
        }
    }

    /// `bytes` without the spaces and tabs at both ends.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return [] }
        return bytes[first...last]
    }

    /// `bytes` as text, its ASCII letters in lower case (header names and their tokens are ASCII).
    private static func lowercased(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// A header's comma-separated tokens, trimmed and in lower case (`Connection: keep-alive, close`).
    private static func tokens(_ value: ArraySlice<UInt8>) -> [String] {
        value.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map { lowercased(trimmed($0)) }
    }

    /// `text` as a size: digits only (in `radix`), at most `limit`.
    private func size(_ text: String, radix: Int, of what: String, within limit: Int) throws(HTTPClient.Failure) -> Int {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") }),
              let size = Int(text, radix: radix)
        else {
            throw HTTPClient.Failure(description: "a bad \(what) '\(text.prefix(20))'")
        }
        guard size <= limit else { throw tooLarge() }
        return size
    }

    private func tooLarge() -> HTTPClient.Failure {
        HTTPClient.Failure(description: "an answer larger than \(maxBodyBytes) bytes")
    }

    /// The next line (without its CRLF).
    private mutating func readLine() throws(HTTPClient.Failure) -> [UInt8] {
        var searched = position
        while true {
            if let end = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[position..<end].last == UInt8(ascii: "\r") ? buffer[position..<end - 1] : buffer[position..<end]
                position = end + 1
                return Array(line)
            }
            guard buffer.count - position < Self.maxHeaderBytes else {
                throw HTTPClient.Failure(description: "a line longer than \(Self.maxHeaderBytes) bytes in the answer")
            }
            searched = buffer.count
            guard try receive() else {
                // Nothing at all: the server had closed this kept connection before the request.
                throw HTTPClient.Failure(description: "the server closed the connection before answering", stale: buffer.isEmpty, unanswered: buffer.isEmpty)
            }
        }
    }

    /// Reads until `count` bytes are buffered.
    private mutating func need(_ count: Int) throws(HTTPClient.Failure) {
        while buffer.count < count {
            guard try receive() else { throw HTTPClient.Failure(description: "the server closed the connection in the middle of its answer") }
        }
    }

    /// Appends what the connection has; false at its end.
    private mutating func receive() throws(HTTPClient.Failure) -> Bool {
        guard buffer.count <= maxAnswerBytes else {
            throw HTTPClient.Failure(description: "an answer larger than \(maxAnswerBytes) bytes as sent (head, framing and body)")
        }
        // Received on the stack, not into a new zero-filled array each time.
        let received = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16_384) { chunk -> Result<Int, HTTPClient.Failure> in
            do throws(HTTPClient.Failure) {
                let count = try connection.receive(into: chunk, deadline: deadline)
                buffer.append(contentsOf: chunk[..<count])
                return .success(count)
            } catch {
                return .failure(error)
            }
        }
        switch received {
        case .success(let count): return count > 0
        case .failure(var failure):
            // Stale only when nothing at all had come: the server closed a kept connection.
            failure.stale = failure.stale && buffer.isEmpty
            throw failure
        }
    }
}

import Domain
@testable import Sharding
import Foundation
import Processes
import Testing
import TestTiers

/// The pieces of the etcd client that speak HTTP/1.1 and base64 themselves (no Foundation in
/// the services), against a scripted server on an ephemeral port: answers with a length or
/// chunked, kept connections (and one the server closed meanwhile), timeouts, refusals, and
/// answers whose lengths are not numbers in range or whose bodies pass the cap.
@Suite(.serialized, .tags(.unit)) struct EtcdHTTPTests {
    @Test func base64MatchesRFC4648AndFoundation() throws {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(Base64.decode(encoded) == Array(plain.utf8))
        }
        let every = (0...255).map(UInt8.init) + [0xff, 0x00]
        for length in 0...every.count {
            let bytes = Array(every.prefix(length))
            #expect(Base64.encode(bytes) == Data(bytes).base64EncodedString())
            #expect(Base64.decode(Data(bytes).base64EncodedString()) == bytes)
        }
        for bad in ["Zg=", "Z===", "Zm9v!A==", "Zg==Zg==", "Zm=v", "=Zm9", "Zm 9"] {
            #expect(Base64.decode(bad) == nil, "\(bad)")
        }
    }

    @Test func anAnswerWithALengthAndTheRequestAsSent() throws {
        let server = try ScriptedServer([.answer(Self.answer("{\"ok\":true}"))])
        let client = HTTPClient(host: "127.0.0.1", port: server.port)
        let response = try client.post("/v3/kv/range", body: Array("{\"key\":\"eA==\"}".utf8), contentType: "application/json", timeout: 5)
        #expect(response.status == 200)
        #expect(response.body == Array("{\"ok\":true}".utf8))
        let request = try #require(server.requests.first)
        #expect(request.hasPrefix("POST /v3/kv/range HTTP/1.1\r\n"))
        #expect(request.contains("\r\nHost: 127.0.0.1:\(server.port)\r\n"))
        #expect(request.contains("\r\nContent-Type: application/json\r\n"))
        #expect(request.hasSuffix("Content-Length: 14\r\n\r\n{\"key\":\"eA==\"}"))
    }

    @Test func aChunkedAnswerIsJoined() throws {
        // Header names in any case, values' tokens too, around spaces and tabs.
        let chunked = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\ntransfer-ENCODING:\t Chunked \r\n\r\n"
            + "7;ext=1\r\n{\"resul\r\n" + "C\r\nt\":{\"TTL\":5}\r\n" + "2\r\n}\n\r\n" + "0\r\nX-Trailer: yes\r\n\r\n"
        let server = try ScriptedServer([.answer(Array(chunked.utf8)), .answer(Self.answer("{}"))])
        let client = HTTPClient(host: "127.0.0.1", port: server.port)
        let response = try client.post("/v3/lease/keepalive", body: [], contentType: "application/json", timeout: 5)
        #expect(String(decoding: response.body, as: UTF8.self) == "{\"result\":{\"TTL\":5}}\n")
        // The connection is kept: the next request goes on it.
        #expect(try client.post("/x", body: [], contentType: "application/json", timeout: 5).body == Array("{}".utf8))
        #expect(server.connections == 1)
    }

    @Test func aKeptConnectionClosedByTheServerIsReplaced() throws {
        let server = try ScriptedServer([.answerThenClose(Self.answer("1")), .answer(Self.answer("2"))])
        let client = HTTPClient(host: "127.0.0.1", port: server.port)
        #expect(try client.post("/a", body: [], contentType: "text/plain", timeout: 5).body == Array("1".utf8))
        #expect(try client.post("/b", body: [], contentType: "text/plain", timeout: 5).body == Array("2".utf8))
        #expect(server.connections == 2)
        #expect(server.requests.count == 2)
    }

    @Test func connectionCloseIsHonoured() throws {
        let closing = "HTTP/1.1 503 Service Unavailable\r\nCONNECTION: keep-alive,Close\r\ncontent-length:4\r\n\r\nbusy"
        let server = try ScriptedServer([.answer(Array(closing.utf8)), .answer(Self.answer("ok"))])
        let client = HTTPClient(host: "127.0.0.1", port: server.port)
        let first = try client.post("/a", body: [], contentType: "text/plain", timeout: 5)
        #expect(first.status == 503 && first.body == Array("busy".utf8))
        #expect(try client.post("/b", body: [], contentType: "text/plain", timeout: 5).body == Array("ok".utf8))
        #expect(server.connections == 2)
    }

    @Test func silenceRefusalAndGarbageAreErrors() throws {
        let silent = try ScriptedServer([.silence])
        #expect(throws: HTTPClient.Failure.self) {
            try HTTPClient(host: "127.0.0.1", port: silent.port).post("/a", body: [], contentType: "text/plain", timeout: 0.3)
        }
        let garbage = try ScriptedServer([.answerThenClose(Array("SMTP ready\r\n\r\n".utf8))])
        #expect(throws: HTTPClient.Failure.self) {
            try HTTPClient(host: "127.0.0.1", port: garbage.port).post("/a", body: [], contentType: "text/plain", timeout: 5)
        }
        let cut = try ScriptedServer([.answerThenClose(Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc".utf8))])
        #expect(throws: HTTPClient.Failure.self) {
            try HTTPClient(host: "127.0.0.1", port: cut.port).post("/a", body: [], contentType: "text/plain", timeout: 5)
        }
        let port = silent.port
        silent.stop()
        #expect(throws: HTTPClient.Failure.self) {
            try HTTPClient(host: "127.0.0.1", port: port).post("/a", body: [], contentType: "text/plain", timeout: 5)
        }
        #expect(throws: HTTPClient.Failure.self) {
            try HTTPClient(host: "no-such-host.invalid", port: 2379).post("/a", body: [], contentType: "text/plain", timeout: 5)
        }
    }

    @Test func badLengthsAndOversizedBodiesAreErrors() throws {
        let head = "HTTP/1.1 200 OK\r\n"
        let refused: [(String, String)] = [
            ("a negative length", head + "Content-Length: -5\r\n\r\nabc"),
            ("a signed length", head + "Content-Length: +3\r\n\r\nabc"),
            ("a length past Int", head + "Content-Length: 99999999999999999999\r\n\r\nabc"),
            ("a length over the cap", head + "Content-Length: 1001\r\n\r\n" + String(repeating: "x", count: 1001)),
            ("a chunk size past Int when added", head + "Transfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\nabc\r\n0\r\n\r\n"),
            ("a negative chunk size", head + "Transfer-Encoding: chunked\r\n\r\n-1\r\nabc\r\n0\r\n\r\n"),
            ("chunks over the cap together", head + "Transfer-Encoding: chunked\r\n\r\n258\r\n" + String(repeating: "x", count: 600)
                + "\r\n258\r\n" + String(repeating: "x", count: 600) + "\r\n0\r\n\r\n"),
        ]
        for (what, answer) in refused {
            let server = try ScriptedServer([.answer(Array(answer.utf8))])
            #expect(throws: HTTPClient.Failure.self, "\(what)") {
                try HTTPClient(host: "127.0.0.1", port: server.port, maxBodyBytes: 1000).post("/a", body: [], contentType: "text/plain", timeout: 5)
            }
        }
        // Up to the end of the connection, also capped.
        let endless = try ScriptedServer([.answerThenClose(Array((head + "\r\n" + String(repeating: "x", count: 1001)).utf8))])
        #expect(throws: HTTPClient.Failure.self) {
            try HTTPClient(host: "127.0.0.1", port: endless.port, maxBodyBytes: 1000).post("/a", body: [], contentType: "text/plain", timeout: 5)
        }
        // At the cap exactly, accepted.
        let full = String(repeating: "y", count: 1000)
        let server = try ScriptedServer([.answer(Self.answer(full)), .answerThenClose(Array((head + "\r\n" + full).utf8))])
        let client = HTTPClient(host: "127.0.0.1", port: server.port, maxBodyBytes: 1000)
        #expect(try client.post("/a", body: [], contentType: "text/plain", timeout: 5).body == Array(full.utf8))
        #expect(try client.post("/b", body: [], contentType: "text/plain", timeout: 5).body == Array(full.utf8))
    }

    @Test func headerBlocksAndChunkFramingAreCappedToo() throws {
        let head = "HTTP/1.1 200 OK\r\n"
        let manyHeaders = head + String(repeating: "X-Filler: " + String(repeating: "h", count: 90) + "\r\n", count: 2000) + "Content-Length: 2\r\n\r\n{}"
        let server = try ScriptedServer([.answer(Array(manyHeaders.utf8))])
        let error = Self.failure { try HTTPClient(host: "127.0.0.1", port: server.port, maxBodyBytes: 1000).post("/a", body: [], contentType: "text/plain", timeout: 5) }
        #expect(error?.description == "a header block longer than 65536 bytes in the answer", "\(String(describing: error))")

        // One body byte per chunk, each with a 30 KB extension: the body stays tiny, the framing does not.
        let framing = head + "Transfer-Encoding: chunked\r\n\r\n"
            + String(repeating: "1;x=" + String(repeating: "e", count: 30_000) + "\r\nz\r\n", count: 10) + "0\r\n\r\n"
        let framed = try ScriptedServer([.answer(Array(framing.utf8))])
        let framingError = Self.failure { try HTTPClient(host: "127.0.0.1", port: framed.port, maxBodyBytes: 1000).post("/a", body: [], contentType: "text/plain", timeout: 5) }
        #expect(framingError?.description.hasPrefix("an answer larger than 66536 bytes as sent") == true, "\(String(describing: framingError))")

        let trailers = head + "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n"
            + String(repeating: "X-Trailer: " + String(repeating: "t", count: 90) + "\r\n", count: 1000) + "\r\n"
        let trailing = try ScriptedServer([.answer(Array(trailers.utf8))])
        let trailerError = Self.failure { try HTTPClient(host: "127.0.0.1", port: trailing.port).post("/a", body: [], contentType: "text/plain", timeout: 5) }
        #expect(trailerError?.description == "a trailer block longer than 65536 bytes in the answer", "\(String(describing: trailerError))")

        // A body over the cap names the cap.
        let large = try ScriptedServer([.answer(Self.answer(String(repeating: "x", count: 1001)))])
        let largeError = Self.failure { try HTTPClient(host: "127.0.0.1", port: large.port, maxBodyBytes: 1000).post("/a", body: [], contentType: "text/plain", timeout: 5) }
        #expect(largeError?.description == "an answer larger than 1000 bytes", "\(String(describing: largeError))")
    }

    /// docs/security.md: etcd's answer headers are capped at 64 KiB — a header block of exactly
    /// 65,536 bytes (the status line and the headers, with their CRLFs) is read, a byte more is
    /// refused.
    @Test func aHeaderBlockOfExactly64KiBIsRead_aByteMoreIsRefused() throws {
        // 17 bytes of status line, 12 of "X-Filler: " and its CRLF, 19 of Content-Length: 48 besides the filler.
        func answer(filler: Int) -> [UInt8] {
            Array(("HTTP/1.1 200 OK\r\nX-Filler: " + String(repeating: "h", count: filler) + "\r\nContent-Length: 2\r\n\r\n{}").utf8)
        }
        let server = try ScriptedServer([.answer(answer(filler: 65_536 - 48))])
        let read = try HTTPClient(host: "127.0.0.1", port: server.port, maxBodyBytes: 1000).post("/a", body: [], contentType: "text/plain", timeout: 5)
        #expect(read.body == Array("{}".utf8))
        let over = try ScriptedServer([.answer(answer(filler: 65_536 - 48 + 1))])
        let error = Self.failure { try HTTPClient(host: "127.0.0.1", port: over.port, maxBodyBytes: 1000).post("/a", body: [], contentType: "text/plain", timeout: 5) }
        #expect(error?.description == "a header block longer than 65536 bytes in the answer", "\(String(describing: error))")
    }

    @Test func anOversizedEtcdAnswerIsAClearErrorOfTheEtcdClientBeforeItIsRead() throws {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        for answer in [head + "Content-Length: 1000000000\r\n\r\n{", head + "Transfer-Encoding: chunked\r\n\r\n7fffffff\r\n{"] {
            let server = try ScriptedServer([.answer(Array(answer.utf8))])
            let client = try EtcdClient(endpoint: "http://127.0.0.1:\(server.port)", timeout: 5)
            do {
                _ = try client.get("key")
                Issue.record("an answer of a gigabyte was accepted")
            } catch {
                #expect(error.description.contains("an answer larger than \(HTTPClient.defaultMaxBodyBytes) bytes"), "\(error)")
            }
        }
    }

    /// The client's failure from `body`, or nil when it did not fail (or failed otherwise).
    private static func failure(_ body: () throws -> HTTPClient.Response) -> HTTPClient.Failure? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? HTTPClient.Failure
        }
    }

    /// A member that refuses connections, then one that has no leader: the request is answered
    /// by the third, which requests go to from then on.
    @Test func aRequestMovesToTheNextMemberAndTheNextRequestStaysThere() throws {
        let gone = try ScriptedServer([])
        gone.stop()
        let unavailable = Self.answer("{\"error\":\"etcdserver: no leader\",\"code\":14,\"message\":\"etcdserver: no leader\"}", status: "503 Service Unavailable")
        let electing = try ScriptedServer([.answer(unavailable)])
        let serving = try ScriptedServer([.answer(Self.answer("{\"kvs\":[]}")), .answer(Self.answer("{\"kvs\":[]}"))])
        let endpoints = try [gone, electing, serving].map { try EtcdEndpoint("http://127.0.0.1:\($0.port)") }
        let client = try EtcdClient(endpoints: endpoints, timeout: 5)
        #expect(try client.get("k") == nil)
        #expect(client.endpoint == endpoints[2])
        #expect(try client.get("k") == nil)
        #expect(electing.requests.count == 1)
        #expect(serving.requests.count == 2)
        #expect(serving.requests.allSatisfy { $0.hasSuffix("{\"key\":\"aw==\"}") }, "\(serving.requests)")
    }

    /// A streamed keep-alive that says Unavailable goes to the next member; an answer any member
    /// would give (a bad request) does not.
    @Test func aStreamedUnavailableMovesOnAndARefusalDoesNot() throws {
        let electing = try ScriptedServer([
            .answer(Self.answer("{\"error\":{\"grpc_code\":14,\"http_code\":503,\"message\":\"etcdserver: no leader\"}}")),
        ])
        let bad = Self.answer("{\"error\":\"etcdserver: key is not provided\",\"code\":3,\"message\":\"etcdserver: key is not provided\"}", status: "400 Bad Request")
        let serving = try ScriptedServer([.answer(Self.answer("{\"result\":{\"ID\":\"7\",\"TTL\":\"5\"}}")), .answer(bad)])
        let client = try EtcdClient(endpoints: try [electing, serving].map { try EtcdEndpoint("http://127.0.0.1:\($0.port)") }, timeout: 5)
        #expect(try client.keepAlive(lease: 7) == 5)
        #expect(throws: EtcdError.self) { try client.get("") }
        #expect(electing.requests.count == 1, "a refusal was sent to another member: \(electing.requests)")
        #expect(serving.requests.count == 2)
    }

    /// A member that accepts the request and never answers holds it half a second, not the
    /// whole deadline: the next member still has time to answer.
    @Test func aSilentMemberIsLeftAfterHalfASecond() throws {
        let silent = try ScriptedServer([.silence])
        let serving = try ScriptedServer([.answer(Self.answer("{\"kvs\":[]}"))])
        let client = try EtcdClient(endpoints: try [silent, serving].map { try EtcdEndpoint("http://127.0.0.1:\($0.port)") }, timeout: 2)
        #expect(try client.get("k") == nil)
        #expect(silent.requests.count == 1)
    }

    /// With every member gone, the error names each one and what happened there.
    @Test func noMemberAnsweringIsOneErrorNamingEach() throws {
        let first = try ScriptedServer([]), second = try ScriptedServer([])
        first.stop()
        second.stop()
        let client = try EtcdClient(endpoints: try [first, second].map { try EtcdEndpoint("http://127.0.0.1:\($0.port)") }, timeout: 0.5)
        do {
            _ = try client.get("k")
            Issue.record("no member, yet an answer")
        } catch {
            #expect(error.description.hasPrefix("/v3/kv/range: no etcd member answered within 0.5 s"), "\(error)")
            // What happened: the refusal the non-blocking connect reports once it completes.
            #expect(error.description.contains("http://127.0.0.1:\(first.port): cannot connect: Connection refused"), "\(error)")
            #expect(error.description.contains("http://127.0.0.1:\(second.port): cannot connect: Connection refused"), "\(error)")
        }
    }

    @Test func endpointsAreHTTPOrHTTPSURLs() throws {
        for good in ["http://127.0.0.1:2379", "http://etcd:2379/", "http://[::1]:2379", "http://localhost", "http://h:1/prefix", "https://etcd-0.etcd:2379"] {
            #expect(throws: Never.self, "\(good)") { try EtcdClient(endpoint: good) }
        }
        for bad in ["not a url", "http://", "https://", "http://h:0", "http://h:99999", "http://h:port", "http://a b:1", "ftp://h", "httpss://h"] {
            #expect(throws: EtcdError.self, "\(bad)") { try EtcdClient(endpoint: bad) }
        }
        #expect(try EtcdEndpoint("https://h").port == 443)
        #expect(try EtcdEndpoint("http://h").port == 80)
        #expect(try EtcdEndpoint("https://h:2379").secure)
        #expect(try !EtcdEndpoint("http://h:2379").secure)
        // TLS files for plain members would be ignored: refused instead.
        #expect(throws: EtcdError.self) { try EtcdClient(endpoint: "http://h:2379", tls: EtcdTLS(authority: "/ca.crt")) }
    }

    private static func answer(_ body: String, status: String = "200 OK") -> [UInt8] {
        Array("HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
    }
}

/// A TCP server on 127.0.0.1 that answers each request it reads with the next scripted step.
private final class ScriptedServer: @unchecked Sendable {
    enum Step {
        /// Writes the bytes and keeps the connection.
        case answer([UInt8])
        /// Writes the bytes and closes the connection.
        case answerThenClose([UInt8])
        /// Never answers.
        case silence
    }

    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var steps: [Step]
    private var received: [String] = []
    private var accepted = 0
    private var open: [Int32] = []

    /// The requests read so far, whole (head and body).
    var requests: [String] { lock.withLock { received } }
    /// How many connections it accepted.
    var connections: Int { lock.withLock { accepted } }

    init(_ steps: [Step]) throws {
        self.steps = steps
        let (listener, port) = try listenOnFreeTCPPort()
        self.listener = listener
        self.port = UInt16(port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// Stops listening and closes every connection.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        lock.withLock { for socket in open { shutdown(socket, Int32(SHUT_RDWR)) } }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            lock.withLock {
                accepted += 1
                open.append(connection)
            }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        var buffer: [UInt8] = []
        while true {
            guard let request = readRequest(connection, &buffer) else { break }
            let step: Step? = lock.withLock {
                received.append(request)
                return steps.isEmpty ? nil : steps.removeFirst()
            }
            switch step {
            case .answer(let bytes): _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            case .answerThenClose(let bytes):
                _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(connection)
                return
            case .silence: continue
            case nil: break
            }
        }
        close(connection)
    }

    /// One request (head and `Content-Length` body), or nil when the client closed.
    private func readRequest(_ connection: Int32, _ buffer: inout [UInt8]) -> String? {
        let separator = Array("\r\n\r\n".utf8)
        while true {
            if let end = buffer.indices.first(where: { buffer[$0...].starts(with: separator) }) {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                let length = head.split(separator: "\r\n").compactMap { line -> Int? in
                    let parts = line.split(separator: ":", maxSplits: 1)
                    return parts.count == 2 && parts[0].lowercased() == "content-length" ? Int(parts[1].trimmingCharacters(in: .whitespaces)) : nil
                }.first ?? 0
                let total = end + separator.count + length
                if buffer.count >= total {
                    let request = String(decoding: buffer[..<total], as: UTF8.self)
                    buffer.removeFirst(total)
                    return request
                }
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }
}

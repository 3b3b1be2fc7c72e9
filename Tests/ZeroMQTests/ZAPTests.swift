import Foundation
import Testing
import ZeroMQ
import TestTiers

/// A ZAP handler on its own thread that admits the CURVE keys in `allowed` and records
/// every request it answers.
final class ZAPThread: @unchecked Sendable {
    private let condition = NSCondition()
    private var requests: [ZAPRequest] = []
    private var finished = false
    let allowed: Set<CurveKey>

    init(context: ZMQContext, allowed: Set<CurveKey>) {
        self.allowed = allowed
        let bound = DispatchSemaphore(value: 0)
        Thread {
            try? ZAP.serve(context: context, ready: { bound.signal() }, decide: self.decide)
            self.condition.lock()
            self.finished = true
            self.condition.broadcast()
            self.condition.unlock()
        }.start()
        bound.wait()
    }

    private func decide(_ request: ZAPRequest) -> ZAPReply {
        condition.lock()
        requests.append(request)
        condition.broadcast()
        condition.unlock()
        let admitted = request.curveKey.map(allowed.contains) ?? false
        return ZAPReply(requestId: request.requestId, status: admitted ? .ok : .denied, text: admitted ? "OK" : "no")
    }

    /// Waits up to `timeout` seconds for a request from `key`.
    func waitForRequest(from key: CurveKey, timeout: TimeInterval) -> ZAPRequest? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let request = requests.first(where: { $0.curveKey == key }) { return request }
            if !condition.wait(until: deadline) { return nil }
        }
    }

    /// Every request answered so far.
    var answered: [ZAPRequest] {
        condition.lock()
        defer { condition.unlock() }
        return requests
    }

    /// Waits until the handler has returned (after the context is shut down).
    func waitUntilFinished() {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }
}

/// CURVE servers and clients with a ZAP allow-list, over TCP and inproc.
@Suite(.tags(.inMemory)) struct ZAPTests {
    @Test func aZAPRequestIsReadFromItsFramesAndAReplyHasSixFrames() throws {
        let key = try CurveKeyPair.generate().publicKey
        let frames: [[UInt8]] = [Array("1.0".utf8), [7], Array("bus".utf8), Array("127.0.0.1".utf8), [], Array("CURVE".utf8), key.bytes]
        let request = try #require(ZAPRequest(frames: frames))
        #expect(request.domain == "bus")
        #expect(request.address == "127.0.0.1")
        #expect(request.curveKey == key)
        #expect(ZAPRequest(frames: Array(frames.prefix(5))) == nil)
        #expect(ZAPRequest(frames: [Array("2.0".utf8)] + frames.dropFirst()) == nil)
        let reply = ZAPReply(requestId: [7], status: .denied, text: "not on the list")
        #expect(reply.frames == [Array("1.0".utf8), [7], Array("400".utf8), Array("not on the list".utf8), [], []])
    }

    @Test func overTCPOnlyClientsOnTheAllowListReceive() throws {
        let context = try ZMQContext()
        let server = try CurveKeyPair.generate()
        let admitted = try CurveKeyPair.generate()
        let refused = try CurveKeyPair.generate()
        let zap = ZAPThread(context: context, allowed: [admitted.publicKey])

        let publisher = try ZMQSocket(context, .pub)
        try publisher.makeCurveServer(server, zapDomain: "test")
        try publisher.bind("tcp://127.0.0.1:*")
        func subscriber(_ keys: CurveKeyPair?) throws -> ZMQSocket {
            let socket = try ZMQSocket(context, .sub)
            if let keys { try socket.makeCurveClient(keys, serverKey: server.publicKey) }
            try socket.subscribe("")
            try socket.connect(publisher.lastEndpoint)
            return socket
        }
        let good = try subscriber(admitted), bad = try subscriber(refused), plain = try subscriber(nil)

        // The allowed client's subscription goes live: publish until a message arrives.
        var live = false
        let deadline = Date().addingTimeInterval(5)
        while !live && Date() < deadline {
            try publisher.send([Array("hello".utf8)])
            live = try good.receive(timeoutMilliseconds: 20) != nil
        }
        #expect(live)
        let request = try #require(zap.waitForRequest(from: admitted.publicKey, timeout: 5))
        #expect(request.domain == "test")
        #expect(request.address == "127.0.0.1")
        // Once the refused client's request has been answered, it has no way in.
        #expect(zap.waitForRequest(from: refused.publicKey, timeout: 5) != nil)
        while try good.receive(dontWait: true) != nil {}
        try publisher.send([Array("after".utf8)])
        #expect(try good.receive(timeoutMilliseconds: 2000) == [Array("after".utf8)])
        #expect(try bad.receive(dontWait: true) == nil)
        #expect(try plain.receive(dontWait: true) == nil)
        // A plaintext client fails the handshake before ZAP is asked.
        #expect(zap.answered.allSatisfy { $0.mechanism == "CURVE" })

        for socket in [publisher, good, bad, plain] { socket.close() }
        context.shutdown()
        zap.waitUntilFinished()
    }

    /// Documents libzmq's behaviour (4.3.4): inproc connections have no security handshake,
    /// so a plaintext inproc peer of a CURVE server works and ZAP is never asked.
    @Test func inprocPeersOfACurveServerSkipTheHandshakeAndZAP() throws {
        let context = try ZMQContext()
        let server = try CurveKeyPair.generate()
        let zap = ZAPThread(context: context, allowed: [])
        let publisher = try ZMQSocket(context, .xpub)
        try publisher.makeCurveServer(server, zapDomain: "test")
        try publisher.bind("inproc://curve-server")
        let subscriber = try ZMQSocket(context, .sub)
        try subscriber.subscribe("")
        try subscriber.connect("inproc://curve-server")
        #expect(try publisher.receive(timeoutMilliseconds: 2000) == [[1]])   // the subscription
        try publisher.send([Array("hello".utf8)])
        #expect(try subscriber.receive(timeoutMilliseconds: 2000) == [Array("hello".utf8)])
        #expect(zap.answered.isEmpty)

        publisher.close(); subscriber.close()
        context.shutdown()
        zap.waitUntilFinished()
    }
}

import Foundation
import Testing
import ZeroMQ
import TestTiers

/// The ZeroMQ wrapper over real sockets, on ephemeral TCP ports and inproc.
@Suite(.tags(.inMemory)) struct ZeroMQTests {
    /// A PUB bound on an ephemeral port and a SUB connected to it, subscribed to `prefix`,
    /// with the subscription proven live by a first message that arrives.
    func pair(_ context: ZMQContext, prefix: String = "") throws -> (ZMQSocket, ZMQSocket) {
        let pub = try ZMQSocket(context, .pub)
        try pub.bind("tcp://127.0.0.1:*")
        let sub = try ZMQSocket(context, .sub)
        try sub.subscribe(prefix)
        try sub.connect(pub.lastEndpoint)
        // Slow joiner: publish until the subscription is in place and a message arrives.
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            try pub.send([Array((prefix + "hello").utf8)])
            if try sub.receive(timeoutMilliseconds: 20) != nil {
                while try sub.receive(dontWait: true) != nil {}
                return (pub, sub)
            }
        }
        Issue.record("the subscription never became live")
        return (pub, sub)
    }

    @Test func bindingToAnEphemeralPortReportsTheRealPort() throws {
        let context = try ZMQContext()
        let socket = try ZMQSocket(context, .pub)
        try socket.bind("tcp://127.0.0.1:*")
        let endpoint = socket.lastEndpoint
        #expect(endpoint.hasPrefix("tcp://127.0.0.1:"))
        #expect(Int(endpoint.split(separator: ":").last ?? "") ?? 0 > 0)
    }

    @Test func multipartMessagesArriveWhole() throws {
        let context = try ZMQContext()
        let (pub, sub) = try pair(context)
        let frames: [[UInt8]] = [Array("topic".utf8), [], Array("third frame".utf8)]
        try pub.send(frames)
        #expect(try sub.receive(timeoutMilliseconds: 2000) == frames)
    }

    @Test func repeatedTopicsArriveAsSentWhateverCameBefore() throws {
        let context = try ZMQContext()
        let (pub, sub) = try pair(context)
        let long = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        // Repeats, a topic one byte off, one as long but different, empty ones, a long one
        // (not kept) twice, single frames and three: each received as it was sent.
        let messages: [[[UInt8]]] = [
            [Array("ack/abc".utf8), [1]], [Array("ack/abc".utf8), [2]], [Array("ack/abd".utf8), [3]],
            [Array("ack/abc".utf8), [4]], [Array("ack/ab".utf8), [5]], [[], [6]], [[], [7]], [Array("ack/abc".utf8)],
            [long, [8]], [long, [9]], [Array("ack/abc".utf8), [], Array("x".utf8)], [Array("ack/abc".utf8), [10]],
        ]
        var received: [[[UInt8]]] = []
        for message in messages {
            try pub.send(message)
            received.append(try #require(try sub.receive(timeoutMilliseconds: 2000)))
        }
        #expect(received == messages)
        // A received frame is a value of its own: changing one changes no other.
        received[0][0][0] = UInt8(ascii: "X")
        #expect(received[1][0] == Array("ack/abc".utf8) && received[3][0] == Array("ack/abc".utf8))
        try pub.send([Array("ack/abc".utf8), [11]])
        #expect(try sub.receive(timeoutMilliseconds: 2000) == [Array("ack/abc".utf8), [11]])
    }

    @Test func aMessageOfSeveralMegabytesArrivesWhole() throws {
        let context = try ZMQContext()
        let (pub, sub) = try pair(context)
        let big = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try pub.send([Array("big".utf8), big])
        let received = try #require(try sub.receive(timeoutMilliseconds: 5000))
        try #require(received.count == 2)
        #expect(received[1] == big)
    }

    @Test func subscriptionsFilterByPrefix() throws {
        let context = try ZMQContext()
        let (pub, sub) = try pair(context, prefix: "device.")
        try pub.send([Array("roster.snapshot".utf8), [1]])
        try pub.send([Array("device.tap".utf8), [2]])
        #expect(try sub.receive(timeoutMilliseconds: 2000) == [Array("device.tap".utf8), [2]])
        #expect(try sub.receive(dontWait: true) == nil)
    }

    @Test func receivingWithATimeoutReturnsNilWhenNothingComes() throws {
        let context = try ZMQContext()
        let sub = try ZMQSocket(context, .sub)
        try sub.bind("inproc://quiet")
        #expect(try sub.receive(timeoutMilliseconds: 10) == nil)
        #expect(try sub.receive(dontWait: true) == nil)
    }

    @Test func messagesAreReceivedIntoStorageKeptFromMessageToMessage() throws {
        let context = try ZMQContext()
        let (pub, sub) = try pair(context)
        var message = ReceivedMessage()
        let long: [[UInt8]] = [Array("topic".utf8), [], (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7) }]
        try pub.send(long)
        #expect(try sub.receive(into: &message, timeoutMilliseconds: 2000))
        #expect(message.count == 3)
        #expect(message.frames == long)
        // A shorter message after it: only its own frames, none of the last one's bytes.
        let short: [[UInt8]] = [Array("t".utf8), [9]]
        try pub.send(short)
        #expect(try sub.receive(into: &message, timeoutMilliseconds: 2000))
        #expect(message.frames == short)
        #expect(message.withFrame(1) { Array($0) } == [9])
        #expect(try !sub.receive(into: &message, timeoutMilliseconds: 0))
        #expect(message.count == 0)
    }

    @Test func aReceiveForEverAfterATimedOneWaitsLongerThanThatTimeout() throws {
        let context = try ZMQContext()
        let (pub, sub) = try pair(context)
        #expect(try sub.receive(timeoutMilliseconds: 10) == nil)
        // Sent well after the last receive's 10 ms (a receive that kept that timeout would give
        // up), by another thread: the only one using the publisher from then on.
        nonisolated(unsafe) let publisher = pub
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { _ = try? publisher.send([Array("late".utf8)]) }
        #expect(try sub.receive() == [Array("late".utf8)])
    }

    @Test func errorsCarryErrnoAndLibzmqsText() throws {
        let context = try ZMQContext()
        let socket = try ZMQSocket(context, .pub)
        let error = try #require(throws: ZMQError.self) { try socket.bind("nonsense://x") }
        #expect(error.code != 0)
        #expect(!error.text.isEmpty)
        #expect(error.description.contains("bind nonsense://x"))
    }

    @Test func aMessageOverTheMaximumSizeIsRefusedAtTheSocket() throws {
        let context = try ZMQContext()
        let pull = try ZMQSocket(context, .pull)
        try pull.set(.maxMessageSize, Int64(1000))
        try pull.bind("tcp://127.0.0.1:*")
        let push = try ZMQSocket(context, .push)
        try push.connect(pull.lastEndpoint)
        try push.send([[UInt8](repeating: 1, count: 5000)])
        try push.send([[UInt8](repeating: 2, count: 10)])
        // The oversized message drops the connection; the next arrives over the new one.
        let push2 = try ZMQSocket(context, .push)
        try push2.connect(pull.lastEndpoint)
        try push2.send([[UInt8](repeating: 3, count: 10)])
        let received = try #require(try pull.receive(timeoutMilliseconds: 5000))
        #expect(received[0].count == 10)
    }

    /// A send without `dontWait` waits for a peer to take the message: sent from a bound PUSH
    /// before anyone connects, it is delivered once one does (with `dontWait`, refused at once).
    @Test func aSendWaitsForAPeerUnlessToldNotTo() throws {
        let context = try ZMQContext()
        let alone = try ZMQSocket(context, .push)
        try alone.bind("tcp://127.0.0.1:*")
        #expect(try alone.send([Array("refused".utf8)], dontWait: true) == false)
        let push = try ZMQSocket(context, .push)
        try push.bind("tcp://127.0.0.1:*")
        let endpoint = push.lastEndpoint
        // The receiver's thread hands its message over through the semaphore.
        final class Received: @unchecked Sendable { var frames: [[UInt8]]? }
        let received = Received(), done = DispatchSemaphore(value: 0)
        let receiver = Thread {
            defer { done.signal() }
            guard let pull = try? ZMQSocket(context, .pull), (try? pull.connect(endpoint)) != nil else { return }
            received.frames = try? pull.receive(timeoutMilliseconds: 10_000)
        }
        receiver.start()
        #expect(try push.send([Array("waited".utf8)]) == true)
        #expect(done.wait(timeout: .now() + 15) == .success)
        #expect(received.frames == [Array("waited".utf8)])
    }

    @Test func optionsCanBeReadBack() throws {
        let context = try ZMQContext()
        let socket = try ZMQSocket(context, .sub, lingerMilliseconds: 250)
        #expect(try socket.getInt(.linger) == 250)
        try socket.set(.receiveHighWaterMark, Int32(1234))
        #expect(try socket.getInt(.receiveHighWaterMark) == 1234)
    }

    @Test func shuttingTheContextDownWakesABlockedReceive() throws {
        let context = try ZMQContext()
        let socket = try ZMQSocket(context, .sub)
        try socket.bind("inproc://blocked")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { context.shutdown() }
        let error = try #require(throws: ZMQError.self) { try socket.receive() }
        #expect(error.isTerminated)
        socket.close()
    }

    @Test func pollWatchesAPlainFileDescriptorToo() throws {
        let context = try ZMQContext()
        let socket = try ZMQSocket(context, .sub)
        try socket.bind("inproc://poll")
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(try poll([.socket(socket), .fileDescriptor(fds[0])], timeoutMilliseconds: 0) == [false, false])
        var byte: UInt8 = 1
        #expect(write(fds[1], &byte, 1) == 1)
        #expect(try poll([.socket(socket), .fileDescriptor(fds[0])], timeoutMilliseconds: 1000) == [false, true])
    }

    @Test func libzmqHasCurve() {
        #expect(zmqHas("curve"))
        #expect(zmqVersion.hasPrefix("4."))
    }
}

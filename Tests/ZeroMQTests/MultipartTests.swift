import Foundation
import Testing
import ZeroMQ
import TestTiers

/// Zero-copy forwarding with `Multipart` and polling with `Poller`, over real sockets.
@Suite(.tags(.inMemory)) struct MultipartTests {
    @Test func aMessageIsForwardedWholeAndALongOneIsCountedButNotKept() throws {
        let context = try ZMQContext()
        let input = try ZMQSocket(context, .pull), output = try ZMQSocket(context, .push)
        let sender = try ZMQSocket(context, .push), receiver = try ZMQSocket(context, .pull)
        try input.bind("inproc://multipart-in")
        try sender.connect("inproc://multipart-in")
        try output.bind("inproc://multipart-out")
        try receiver.connect("inproc://multipart-out")
        let message = Multipart(capacity: 2)
        #expect(try message.receive(from: input) == false)

        try sender.send([Array("topic".utf8), Array("body".utf8)])
        let poller = try Poller([.socket(input)])
        try poller.wait(timeoutMilliseconds: 5000)
        #expect(poller.isReady(0))
        #expect(try message.receive(from: input))
        #expect(message.frameCount == 2 && message.held == 2)
        #expect(Array(message.bytes(0)) == Array("topic".utf8))
        let (topic, body) = message.topicAndBody()
        #expect(Array(topic) == Array("topic".utf8) && body.map(Array.init) == Array("body".utf8))
        #expect(message.property("User-Id") == nil)   // no security mechanism, no User-Id
        #expect(try message.send(to: output))
        #expect(try receiver.receive(timeoutMilliseconds: 5000) == [Array("topic".utf8), Array("body".utf8)])

        try sender.send([[1], [2], [3], [4]])
        try poller.wait(timeoutMilliseconds: 5000)
        #expect(try message.receive(from: input))
        #expect(message.frameCount == 4 && message.held == 2)
        #expect(message.topicAndBody().topic.first == 1 && message.topicAndBody().body?.first == 2)
        message.discard()
        #expect(message.held == 0)
        #expect(message.topicAndBody().topic.isEmpty && message.topicAndBody().body == nil)
        // A second long one in a row: the frames let go of are received through the same spare.
        try sender.send([[5], [6], [7]])
        try poller.wait(timeoutMilliseconds: 5000)
        #expect(try message.receive(from: input))
        #expect(message.frameCount == 3 && message.held == 2)
        #expect(message.topicAndBody().topic.first == 5 && message.topicAndBody().body?.first == 6)
        message.discard()

        // One frame, and an empty one: no body; an empty topic's bytes are empty.
        try sender.send([Array("alone".utf8)])
        try poller.wait(timeoutMilliseconds: 5000)
        #expect(try message.receive(from: input))
        #expect(Array(message.topicAndBody().topic) == Array("alone".utf8) && message.topicAndBody().body == nil)
        try sender.send([[], Array("body".utf8)])
        try poller.wait(timeoutMilliseconds: 5000)
        #expect(try message.receive(from: input))
        #expect(message.topicAndBody().topic.isEmpty && message.topicAndBody().body.map(Array.init) == Array("body".utf8))
        message.discard()
        for socket in [input, output, sender, receiver] { socket.close() }
    }

    @Test func thePollerReportsEverythingReadyWhateverItAsksFirst() throws {
        let context = try ZMQContext()
        let input = try ZMQSocket(context, .pull), sender = try ZMQSocket(context, .push)
        try input.bind("inproc://poller-in")
        try sender.connect("inproc://poller-in")
        var pipe: [Int32] = [0, 0]
        #expect(Glibc.pipe(&pipe) == 0)
        defer { close(pipe[0]); close(pipe[1]) }
        let poller = try Poller([.socket(input), .fileDescriptor(pipe[0])])
        let message = Multipart(capacity: 2)

        // Nothing ready: a wait without waiting, and one that times out.
        try poller.wait(timeoutMilliseconds: 0)
        #expect(!poller.isReady(0) && !poller.isReady(1))
        try poller.wait(timeoutMilliseconds: 20)
        #expect(!poller.isReady(0) && !poller.isReady(1))

        // A message waiting on a socket that is asked first is reported with the descriptor
        // that became readable (one always ready starves nothing), waiting or not.
        try sender.send([Array("one".utf8)])
        try sender.send([Array("two".utf8)])
        var byte: UInt8 = 1
        #expect(write(pipe[1], &byte, 1) == 1)
        for timeout in [5000, 0, -1] {
            try poller.wait(timeoutMilliseconds: timeout)
            #expect(poller.isReady(0) && poller.isReady(1), "\(timeout)")
        }
        #expect(read(pipe[0], &byte, 1) == 1)
        #expect(try message.receive(from: input))
        try poller.wait(timeoutMilliseconds: 5000)
        #expect(poller.isReady(0) && !poller.isReady(1))

        // Received until nothing is waiting, the socket is declared idle: a new message still
        // wakes the wait through its descriptor, and a readable descriptor alone is reported.
        #expect(try message.receive(from: input))
        #expect(try message.receive(from: input) == false)
        poller.idle(0)
        try poller.wait(timeoutMilliseconds: 0)
        #expect(!poller.isReady(0) && !poller.isReady(1))
        poller.idle(0)
        #expect(write(pipe[1], &byte, 1) == 1)
        try poller.wait(timeoutMilliseconds: 5000)
        #expect(!poller.isReady(0) && poller.isReady(1))
        #expect(read(pipe[0], &byte, 1) == 1)
        poller.idle(0)
        try sender.send([Array("three".utf8)])
        try poller.wait(timeoutMilliseconds: 5000)
        #expect(poller.isReady(0) && !poller.isReady(1))
        #expect(try message.receive(from: input))
        for socket in [input, sender] { socket.close() }
    }
}

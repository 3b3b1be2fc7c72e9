import Foundation
import Glibc
import ProcessSupport
import Runtime
import Testing
import ZeroMQ
import ZeroMQTransport
import TestTiers

/// `BusConnection` over real sockets: a PUB standing in for the bus's backend, on `inproc`.
@Suite(.tags(.inMemory)) struct BusConnectionTests {
    /// A connection subscribed to everything from `backend`, with its subscription proven live
    /// by a first message that arrives, and the queue then empty.
    func connected(_ context: ZMQContext, _ name: String) throws -> (backend: ZMQSocket, frontend: ZMQSocket, bus: BusConnection) {
        let backend = try ZMQSocket(context, .pub)
        try backend.bind("inproc://\(name)-backend")
        let frontend = try ZMQSocket(context, .sub)
        try frontend.bind("inproc://\(name)-frontend")
        let config = BusConfig(frontend: "inproc://\(name)-frontend", backend: "inproc://\(name)-backend")
        let bus = try BusConnection(context: context, config: config, service: "test", subscriptions: [""], lingerMilliseconds: 0)
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            try backend.send([Array("hello".utf8)])
            if try bus.receiveFrames(timeoutMilliseconds: 20) != nil {
                while try bus.receiveFramesNow() != nil {}
                return (backend, frontend, bus)
            }
        }
        Issue.record("the subscription never became live")
        return (backend, frontend, bus)
    }

    @Test func waitSeesAMessageThatCameAfterTheQueueWasFoundEmpty() throws {
        let context = try ZMQContext()
        let (backend, _, bus) = try connected(context, "idle")
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        defer { close(pipeEnds[0]); close(pipeEnds[1]) }
        // The queue was just found empty (`receiveFramesNow` gave nil): nothing is waiting.
        #expect(try bus.wait(timeoutMilliseconds: 10, stopDescriptor: pipeEnds[0]) == TransportWake(message: false, stop: false))
        // A message sent after that wakes the wait, even though it arrived before the wait began.
        try backend.send([Array("device.tap".utf8), [1]])
        #expect(try bus.wait(timeoutMilliseconds: 5000, stopDescriptor: pipeEnds[0]) == TransportWake(message: true, stop: false))
        #expect(try bus.receiveFramesNow() == [Array("device.tap".utf8), [1]])
        #expect(try bus.receiveFramesNow() == nil)
        // Two messages, one taken: the wait reports the other at once.
        try backend.send([Array("a".utf8)])
        try backend.send([Array("b".utf8)])
        #expect(try bus.wait(timeoutMilliseconds: 5000, stopDescriptor: nil) == TransportWake(message: true, stop: false))
        #expect(try bus.receiveFramesNow() == [Array("a".utf8)])
        #expect(try bus.wait(timeoutMilliseconds: 5000, stopDescriptor: pipeEnds[0]) == TransportWake(message: true, stop: false))
        #expect(try bus.receiveFramesNow() == [Array("b".utf8)])
        // The stop descriptor wakes it too.
        #expect(try bus.receiveFramesNow() == nil)
        #expect(write(pipeEnds[1], "x", 1) == 1)
        #expect(try bus.wait(timeoutMilliseconds: 5000, stopDescriptor: pipeEnds[0]) == TransportWake(message: false, stop: true))
        bus.close()
    }

    /// A wake descriptor (a sharded instance's members changed) wakes the wait, beside the stop
    /// descriptor and a message, each reported apart.
    @Test func aWakeupWakesTheWaitAndSaysSo() throws {
        let context = try ZMQContext()
        let (backend, _, bus) = try connected(context, "woken")
        let stop = Wakeup(), wakeup = Wakeup()
        #expect(try bus.wait(timeoutMilliseconds: 10, stopDescriptor: stop.descriptor, wakeDescriptor: wakeup.descriptor)
            == TransportWake(message: false, stop: false, woken: false))
        wakeup.signal()
        wakeup.signal()
        #expect(try bus.wait(timeoutMilliseconds: 5000, stopDescriptor: stop.descriptor, wakeDescriptor: wakeup.descriptor)
            == TransportWake(message: false, stop: false, woken: true))
        // Drained, it no longer wakes; a message still does.
        wakeup.drain()
        try backend.send([Array("device.tap".utf8), [1]])
        #expect(try bus.wait(timeoutMilliseconds: 5000, stopDescriptor: stop.descriptor, wakeDescriptor: wakeup.descriptor)
            == TransportWake(message: true, stop: false, woken: false))
        #expect(try bus.receiveFramesNow() == [Array("device.tap".utf8), [1]])
        // Without a stop descriptor, the wake descriptor comes right after the subscriber.
        wakeup.signal()
        #expect(try bus.wait(timeoutMilliseconds: 5000, stopDescriptor: nil, wakeDescriptor: wakeup.descriptor)
            == TransportWake(message: false, stop: false, woken: true))
        stop.signal()
        #expect(try bus.wait(timeoutMilliseconds: 5000, stopDescriptor: stop.descriptor, wakeDescriptor: wakeup.descriptor)
            == TransportWake(message: false, stop: true, woken: true))
        bus.close()
    }
}

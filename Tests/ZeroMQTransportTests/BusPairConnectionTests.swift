import Domain
import Foundation
import ProcessSupport
import Runtime
import Testing
import Wire
import ZeroMQ
import ZeroMQTransport
import TestTiers

/// `BusConnection` on a pair of buses, over real sockets on `inproc`: each bus a bound XSUB
/// (subscribed to everything, as the bus's is) and a bound PUB standing in for its backend.
@Suite(.tags(.inMemory)) struct BusPairConnectionTests {
    struct Pair {
        let frontends: [ZMQSocket]
        let backends: [ZMQSocket]
        let bus: BusConnection
    }

    /// Two buses named `name`, a connection to both (with `config`'s queues and heartbeats),
    /// every path proven live — both ways — and the queues empty.
    func connected(_ context: ZMQContext, _ name: String, config base: BusConfig = BusConfig()) throws -> Pair {
        var frontends: [ZMQSocket] = [], backends: [ZMQSocket] = []
        for bus in 0..<2 {
            let frontend = try ZMQSocket(context, .xsub)
            try frontend.bind("inproc://\(name)-frontend-\(bus)")
            _ = try frontend.send([[1]])
            let backend = try ZMQSocket(context, .pub)
            try backend.bind("inproc://\(name)-backend-\(bus)")
            frontends.append(frontend); backends.append(backend)
        }
        var config = base
        config.frontend = "inproc://\(name)-frontend-0,inproc://\(name)-frontend-1"
        config.backend = "inproc://\(name)-backend-0,inproc://\(name)-backend-1"
        let bus = try BusConnection(context: context, config: config, service: "test", subscriptions: [""], lingerMilliseconds: 0)
        let deadline = Date().addingTimeInterval(5)
        // Each backend's path: a message without an id (each copy taken) until one arrives.
        for backend in backends {
            var live = false
            while !live, Date() < deadline {
                _ = try backend.send([Array("hello".utf8)])
                live = try bus.receiveFrames(timeoutMilliseconds: 20) != nil
            }
            #expect(live, "a backend's subscription never became live")
        }
        while try bus.receiveFramesNow() != nil {}
        // Each frontend's path: published until each bus's subscription has reached the publisher.
        for frontend in frontends {
            var live = false
            while !live, Date() < deadline {
                try bus.publish(.ping(Ping()))
                live = try frontend.receive(timeoutMilliseconds: 20) != nil
            }
            #expect(live, "a frontend's subscription never reached the publisher")
        }
        for frontend in frontends { while try frontend.receive(dontWait: true) != nil {} }
        return Pair(frontends: frontends, backends: backends, bus: bus)
    }

    /// A message's frames, as a sender would publish them.
    func frames(_ bus: BusConnection, id: String) throws -> [[UInt8]] {
        var envelope = bus.envelope(.ping(Ping()))
        envelope.id = id
        return try bus.codec.frames(envelope)
    }

    @Test func whatTheConnectionPublishesReachesBothBuses() throws {
        let context = try ZMQContext()
        let pair = try connected(context, "publish")
        // Sent until each bus's subscription has reached the publisher; each then has a copy.
        var reached: [Set<String>] = [[], []]
        var sent: Set<String> = []
        let deadline = Date().addingTimeInterval(5)
        while reached.contains(where: { $0.isEmpty }), Date() < deadline {
            let message = try pair.bus.publish(.ping(Ping()))
            sent.insert(message.id)
            for bus in 0..<2 {
                while let frames = try pair.frontends[bus].receive(timeoutMilliseconds: 10) {
                    if let envelope = try? pair.bus.codec.decode(frames: frames) { reached[bus].insert(envelope.id) }
                }
            }
        }
        #expect(!reached[0].isEmpty && !reached[1].isEmpty)
        #expect(reached[0].isSubset(of: sent) && reached[1].isSubset(of: sent))
        pair.bus.close()
    }

    /// A bus whose queue is full (it takes nothing: hung) holds up one message for three
    /// heartbeat intervals, then nothing: every message goes to the other bus, and the copies the
    /// full one did not take are counted.
    @Test func aFullBusIsSkippedWhileTheOtherTakesEveryMessage() throws {
        let context = try ZMQContext()
        var config = BusConfig(heartbeatIntervalMilliseconds: 10)
        config.highWaterMark = 100
        let pair = try connected(context, "full", config: config)
        var reached: Set<String> = []
        var sent: [String] = []
        // Bus A's frontend is never read: its queue fills (a few thousand at most on inproc).
        for _ in 0..<5000 {
            sent.append(try pair.bus.publish(.ping(Ping())).id)
            while let frames = try pair.frontends[1].receive(dontWait: true) {
                if let envelope = try? pair.bus.codec.decode(frames: frames) { reached.insert(envelope.id) }
            }
        }
        while reached.count < sent.count, let frames = try pair.frontends[1].receive(timeoutMilliseconds: 5000) {
            if let envelope = try? pair.bus.codec.decode(frames: frames) { reached.insert(envelope.id) }
        }
        // One wait, when bus A's queue first filled; then every message skips it at once.
        #expect(pair.bus.sendWaits == 1 && pair.bus.sendsDropped == 0)
        #expect(pair.bus.pairSkips > 3000)
        #expect(Set(sent).isSubset(of: reached), "bus B missed \(Set(sent).subtracting(reached).count)")
        pair.bus.close()
    }

    @Test func eachSendIsReceivedOnceWhicheverBusBringsIt() throws {
        let context = try ZMQContext()
        let pair = try connected(context, "receive")
        let (a, b) = (pair.backends[0], pair.backends[1])
        let message = try frames(pair.bus, id: "m1")
        let sentinels = [try frames(pair.bus, id: "sentinel-1"), try frames(pair.bus, id: "sentinel-2")]
        /// The next message received, waiting for it.
        func next() throws -> [[UInt8]]? { try pair.bus.receiveFrames(timeoutMilliseconds: 5000) }
        // Both buses bring it: taken once; bus B's copy is dropped (the sentinel after it on bus B
        // comes next) and counted.
        _ = try a.send(message)
        _ = try b.send(message)
        _ = try b.send(sentinels[0])
        #expect(try next() == message)
        #expect(try next() == sentinels[0])
        #expect(pair.bus.pairCopies == 1)
        // A sender's repeat (same id) is a new send: taken again, its pair copy dropped.
        _ = try b.send(message)
        #expect(try next() == message)
        _ = try a.send(message)
        _ = try a.send(sentinels[1])
        #expect(try next() == sentinels[1])
        #expect(pair.bus.pairCopies == 2)
        // Only one bus brings it (the other is down): taken.
        let lone = try frames(pair.bus, id: "m2")
        _ = try b.send(lone)
        #expect(try next() == lone)
        // A message without a readable id: each copy goes on (to be refused on its own).
        let unreadable = [Array("device.tap".utf8), Array("{not json".utf8)]
        _ = try a.send(unreadable)
        _ = try b.send(unreadable)
        #expect(try next() == unreadable)
        #expect(try next() == unreadable)
        #expect(try pair.bus.receiveFramesNow() == nil)
        #expect(pair.bus.pairCopies == 2)
        pair.bus.close()
    }

    @Test func waitSeesEitherBusAndTheStopDescriptor() throws {
        let context = try ZMQContext()
        let pair = try connected(context, "wait")
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        defer { close(pipeEnds[0]); close(pipeEnds[1]) }
        #expect(try pair.bus.wait(timeoutMilliseconds: 10, stopDescriptor: pipeEnds[0]) == TransportWake(message: false, stop: false))
        for bus in 0..<2 {
            let message = try frames(pair.bus, id: "w\(bus)")
            _ = try pair.backends[bus].send(message)
            #expect(try pair.bus.wait(timeoutMilliseconds: 5000, stopDescriptor: pipeEnds[0]) == TransportWake(message: true, stop: false))
            #expect(try pair.bus.receiveFramesNow() == message)
        }
        // A wake descriptor, after both subscribers and the stop descriptor.
        let wakeup = Wakeup()
        #expect(try pair.bus.wait(timeoutMilliseconds: 10, stopDescriptor: pipeEnds[0], wakeDescriptor: wakeup.descriptor)
            == TransportWake(message: false, stop: false, woken: false))
        wakeup.signal()
        #expect(try pair.bus.wait(timeoutMilliseconds: 5000, stopDescriptor: pipeEnds[0], wakeDescriptor: wakeup.descriptor)
            == TransportWake(message: false, stop: false, woken: true))
        #expect(write(pipeEnds[1], "x", 1) == 1)
        #expect(try pair.bus.wait(timeoutMilliseconds: 5000, stopDescriptor: pipeEnds[0], wakeDescriptor: wakeup.descriptor)
            == TransportWake(message: false, stop: true, woken: true))
        pair.bus.close()
    }
}

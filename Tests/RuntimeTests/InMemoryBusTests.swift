import Domain
import ProcessSupport
import Runtime
import Wire
import Testing
import TestTiers

/// The in-memory bus delivers as ZeroMQ's pub/sub does: by topic prefix, to every subscriber,
/// the publisher included, in order.
@Suite(.tags(.inMemory)) struct InMemoryBusTests {
    func message(_ topic: String, _ text: String = "{}") -> [[UInt8]] { [Array(topic.utf8), Array(text.utf8)] }

    @Test func aMessageReachesEverySubscriberOfAPrefixOfItsTopicInOrder() throws {
        let bus = InMemoryBus()
        let everything = bus.connect(service: "watcher", subscriptions: [""])
        let devices = bus.connect(service: "policy", subscriptions: ["device."])
        let roster = bus.connect(service: "roster", subscriptions: ["roster."])
        try devices.sendRaw(message("device.select", "1"))
        try roster.sendRaw(message("roster.select.request", "2"))
        try devices.sendRaw(message("device.rotate", "3"))
        #expect(try everything.receiveFramesNow() == message("device.select", "1"))
        #expect(try everything.receiveFramesNow() == message("roster.select.request", "2"))
        #expect(try everything.receiveFramesNow() == message("device.rotate", "3"))
        #expect(try everything.receiveFramesNow() == nil)
        // The publisher receives its own messages when it subscribes to them.
        #expect(try devices.receiveFramesNow() == message("device.select", "1"))
        #expect(try devices.receiveFramesNow() == message("device.rotate", "3"))
        #expect(try roster.receiveFramesNow() == message("roster.select.request", "2"))
        #expect(try roster.receiveFramesNow() == nil)
    }

    /// A device's request goes on the topic the bus would give it: a tap's owner and bucket.
    @Test func aTapGoesToItsOwnersTopicAsThroughTheBus() throws {
        let bus = InMemoryBus()
        let policy = bus.connect(service: "presentation-policy", subscriptions: ["device.tap/presentation-policy"])
        let input = bus.connect(service: "input-handling", subscriptions: ["device.tap/input-handling"])
        let watcher = bus.connect(service: "watcher", subscriptions: ["device.tap"])
        for (element, owner, other) in [("add", policy, input), ("fire", input, policy)] {
            let tap = watcher.envelope(.tap(Tap(element: element)), device: "ipad")
            let json = try watcher.codec.encode(tap)
            try watcher.sendRaw([Array("device.tap".utf8), json])
            let expected = [Array(tap.topic.utf8), json]
            #expect(try owner.receiveFramesNow() == expected)
            #expect(try other.receiveFramesNow() == nil)
            #expect(try watcher.receiveFramesNow() == expected)
        }
        // A tap the bus cannot read goes to its default owner, which answers it.
        try watcher.sendRaw([Array("device.tap".utf8)])
        #expect(try policy.receiveFramesNow() == [Array("device.tap/presentation-policy".utf8)])
        // What the bus would refuse is answered with the bus's error, as the bus answers.
        let errors = bus.connect(service: "errors", subscriptions: ["error"])
        try watcher.sendRaw([Array("sys.ping".utf8), [], [], [], [], []])
        let refusal = try #require(try errors.receiveFramesNow())
        guard case .error(let error) = try errors.codec.decode(frames: refusal).body else { Issue.record("not an error"); return }
        #expect(error.code == "too-many-frames")
    }

    @Test func subscriptionsChangeWhatArrives() throws {
        let bus = InMemoryBus()
        let client = bus.connect(service: "client")
        try client.sendRaw(message("ack"))
        #expect(try client.receiveFramesNow() == nil)
        try client.subscribe("ack")
        try client.sendRaw(message("ack"))
        #expect(try client.receiveFrames(timeoutMilliseconds: 100) == message("ack"))
        try client.unsubscribe("ack")
        try client.sendRaw(message("ack"))
        #expect(try client.receiveFrames(timeoutMilliseconds: 10) == nil)
    }

    @Test func aWakeupWakesTheWaitAndSaysSo() throws {
        let bus = InMemoryBus()
        let client = bus.connect(service: "client", subscriptions: ["sys.ping"])
        let wakeup = Wakeup()
        #expect(try client.wait(timeoutMilliseconds: 20, stopDescriptor: nil, wakeDescriptor: wakeup.descriptor) == TransportWake(message: false, stop: false))
        wakeup.signal()
        #expect(try client.wait(timeoutMilliseconds: -1, stopDescriptor: nil, wakeDescriptor: wakeup.descriptor) == TransportWake(message: false, stop: false, woken: true))
        wakeup.drain()
        try client.sendRaw(message("sys.ping"))
        #expect(try client.wait(timeoutMilliseconds: -1, stopDescriptor: nil, wakeDescriptor: wakeup.descriptor) == TransportWake(message: true, stop: false))
        bus.stopAll()
        #expect(try client.wait(timeoutMilliseconds: -1, stopDescriptor: nil, wakeDescriptor: wakeup.descriptor) == TransportWake(message: true, stop: true))
    }

    @Test func waitSaysWhenAMessageWaitsAndWhenToStop() throws {
        let bus = InMemoryBus()
        let client = bus.connect(service: "client", subscriptions: ["sys.ping"])
        #expect(try client.wait(timeoutMilliseconds: 5, stopDescriptor: nil) == TransportWake(message: false, stop: false))
        try client.sendRaw(message("sys.ping"))
        #expect(try client.wait(timeoutMilliseconds: 1000, stopDescriptor: nil) == TransportWake(message: true, stop: false))
        bus.stopAll()
        #expect(try client.wait(timeoutMilliseconds: -1, stopDescriptor: nil) == TransportWake(message: true, stop: true))
        client.close()
        try bus.connect(service: "other").sendRaw(message("sys.ping"))
        _ = try client.receiveFramesNow()
        #expect(try client.receiveFramesNow() == nil)
    }
}

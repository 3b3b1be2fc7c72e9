import Domain
import JSON
import ProcessSupport
import Runtime
import ThreadOwnership
import Wire
import ZeroMQ

/// A process's two sockets on the bus — PUB to the frontend, SUB from the backend — with the
/// envelope codec, the sender's sequence numbers and id generator. On a pair of buses
/// (`BusConfig.buses()`), a PUB and a SUB for each bus (`BusPair`). Owned by one thread.
public final class BusConnection {
    /// The name put in `service` of every envelope sent.
    public let service: String
    /// The codec, for callers that decode frames themselves.
    public let codec: EnvelopeCodec
    /// Message ids, unique across processes.
    public let ids: IDGenerator
    /// What makes every envelope this connection sends. Like the state below, used by the
    /// connection's one thread, on every message's path.
    private let maker: ThreadOwned<EnvelopeMaker>
    private let publisher: ZMQSocket
    private let subscriber: ZMQSocket
    /// Both buses' sockets, on a pair of buses (nil on one bus: its path is as it was).
    private let pair: BusPair?
    private let sendPatience: Double
    /// What `wait` polls: the subscriber and the stop and wake descriptors it was last given
    /// (made again when they change).
    private let waitPoller = ThreadOwned<(descriptors: WaitDescriptors, poller: Poller)?>(nil)
    /// Whether the subscriber's last use was a `receiveFramesNow` or a `wait` that found nothing
    /// waiting (libzmq had then read every command it had): until a new command signals its
    /// descriptor, nothing can be waiting.
    private let subscriberIdle = ThreadOwned(false)
    /// Sends that found the bus's queue full and had to wait (backpressure), since the start:
    /// read by the service loop after every message.
    public var sendWaits: UInt64 { waits.value }
    private let waits = ThreadOwned<UInt64>(0)
    /// Messages given up after waiting `ACTION_TTL_MS` for the bus to take them: never
    /// silent — counted here, and the caller is told.
    public var sendsDropped: UInt64 { drops.value }
    private let drops = ThreadOwned<UInt64>(0)

    /// Pair copies dropped on receipt from a pair of buses, since the start (0 on one bus).
    public var pairCopies: UInt64 { pair?.copies ?? 0 }
    /// Messages one bus of a pair did not take (its queue full for three heartbeat intervals:
    /// hung, or far behind) while the other did, since the start (0 on one bus).
    public var pairSkips: UInt64 { pair?.skips ?? 0 }
    /// Every count at once, for the runtime's loop.
    public var counts: TransportCounts {
        TransportCounts(sendWaits: waits.value, sendsDropped: drops.value, pairCopies: pair?.copies ?? 0, pairSkips: pair?.skips ?? 0)
    }

    /// Connects as `service` to the bus in `config` (or the pair of buses it lists), subscribed
    /// to every topic prefix in `subscriptions` (`""` for everything); as a CURVE client (every
    /// bus holding the one server key) when `config.curve` is set.
    public init(
        context: ZMQContext, config: BusConfig, service: String, subscriptions: [String],
        lingerMilliseconds: Int32 = 1000
    ) throws {
        self.service = service
        let ids = IDGenerator()
        self.ids = ids
        maker = ThreadOwned(EnvelopeMaker(service: service, ids: { ids.next() }))
        codec = EnvelopeCodec(maxMessageBytes: config.maxMessageBytes)
        sendPatience = Double(config.actionTimeToLiveMilliseconds) / 1000
        let buses = try config.buses()
        let publishers = try buses.map { _ in
            try Self.publisher(context, config: config, paired: buses.count > 1, lingerMilliseconds: lingerMilliseconds)
        }
        let subscribers = try buses.map { _ in try Self.subscriber(context, config: config, subscriptions: subscriptions) }
        publisher = publishers[0]
        subscriber = subscribers[0]
        // A bus of the pair that takes nothing for three heartbeat intervals (as long as a
        // service takes to be stale) is skipped while the other takes every message.
        pair = buses.count > 1
            ? BusPair(
                publishers: publishers, subscribers: subscribers, capacity: config.idempotenceWindow,
                skipAfter: 3 * Double(config.heartbeatIntervalMilliseconds) / 1000)
            : nil
        for (bus, endpoints) in buses.enumerated() {
            try publishers[bus].connect(endpoints.frontend)
            try subscribers[bus].connect(endpoints.backend)
        }
    }

    /// A PUB socket for one bus, not yet connected; `paired` for a bus of a pair.
    private static func publisher(_ context: ZMQContext, config: BusConfig, paired: Bool, lingerMilliseconds: Int32) throws -> ZMQSocket {
        let publisher = try ZMQSocket(context, .pub, lingerMilliseconds: lingerMilliseconds)
        // Deliberate queues: a full one makes the sender wait (XPUB_NODROP also applies to PUB),
        // it never drops silently. Oversized messages are refused at the bus's frontend.
        try publisher.set(.sendHighWaterMark, config.highWaterMark)
        try publisher.set(.xpubNoDrop, Int32(1))
        // Of a pair, a bus that is down holds no queue: its copies are not kept for it, the
        // other bus carries them.
        if paired { try publisher.set(.immediate, Int32(1)) }
        if let curve = config.curve { try publisher.makeCurveClient(curve.keys, serverKey: curve.serverKey) }
        return publisher
    }

    /// A SUB socket for one bus, subscribed to `subscriptions`, not yet connected.
    private static func subscriber(_ context: ZMQContext, config: BusConfig, subscriptions: [String]) throws -> ZMQSocket {
        let subscriber = try ZMQSocket(context, .sub, lingerMilliseconds: 0)
        try subscriber.set(.receiveHighWaterMark, config.highWaterMark)
        // Subscriptions are all a SUB socket sends, and libzmq drops those over its send
        // high-water mark (1000 by default) when it (re)connects: a sharded instance holds one
        // per bucket and type it owns, more than that.
        try subscriber.set(.sendHighWaterMark, Int32(0))
        for prefix in subscriptions { try subscriber.subscribe(prefix) }
        if let curve = config.curve { try subscriber.makeCurveClient(curve.keys, serverKey: curve.serverKey) }
        return subscriber
    }

    /// Adds a subscription to every message whose topic starts with `prefix` (e.g. a sharded
    /// instance's new bucket, `device.tap/3f`).
    public func subscribe(_ prefix: String) throws {
        guard let pair else { return try subscriber.subscribe(prefix) }
        for socket in pair.subscribers { try socket.subscribe(prefix) }
    }

    /// Removes a subscription made at connection or with `subscribe`.
    public func unsubscribe(_ prefix: String) throws {
        guard let pair else { return try subscriber.unsubscribe(prefix) }
        for socket in pair.subscribers { try socket.unsubscribe(prefix) }
    }

    /// Closes the sockets.
    public func close() {
        publisher.close()
        subscriber.close()
        pair?.publishers.forEach { $0.close() }
        pair?.subscribers.forEach { $0.close() }
    }

    /// An envelope from this sender: fresh id, next sequence number, current time
    /// (`EnvelopeMaker.envelope`).
    public func envelope(
        _ body: Body, correlationId: String? = nil, device: String? = nil, trace: TraceContext? = nil, parentSpan: String? = nil,
        replyTo: String? = nil
    ) -> Envelope {
        maker.value.envelope(body, correlationId: correlationId, device: device, trace: trace, parentSpan: parentSpan, replyTo: replyTo)
    }

    /// An envelope for a message that `cause` caused (`EnvelopeMaker.envelope(_:causedBy:device:)`).
    public func envelope(_ body: Body, causedBy cause: Envelope, device: String? = nil) -> Envelope {
        maker.value.envelope(body, causedBy: cause, device: device)
    }

    /// Publishes `envelope` (topic frame, then JSON). If the bus's queue is full it waits
    /// (counted in `sendWaits`); after `ACTION_TTL_MS` it gives up, counts it in
    /// `sendsDropped` and throws `BusBackpressure`. An envelope holding a non-finite number is
    /// never sent: `MessageError` `non-finite`.
    public func send(_ envelope: Envelope) throws {
        try sendRaw(try codec.frames(envelope))
    }

    /// Publishes `envelope` as `send(_:)` does, its JSON written in `writer` (the sender's own,
    /// reused) and sent from there: no arrays made for the frames.
    public func send(_ envelope: Envelope, writingIn writer: JSONWriter) throws {
        let topic = try codec.write(envelope, into: writer)
        try writer.withBytes { try send(topic: topic, json: $0) }
    }

    /// Builds and publishes a message; returns what was sent.
    @discardableResult
    public func publish(
        _ body: Body, correlationId: String? = nil, device: String? = nil, trace: TraceContext? = nil, parentSpan: String? = nil,
        replyTo: String? = nil
    ) throws -> Envelope {
        let envelope = envelope(body, correlationId: correlationId, device: device, trace: trace, parentSpan: parentSpan, replyTo: replyTo)
        try send(envelope)
        return envelope
    }

    /// Publishes raw frames as they are (also for tests of hostile input and for benchmarks),
    /// waiting as `send` does when the bus pushes back.
    public func sendRaw(_ frames: [[UInt8]]) throws {
        if let pair { return try sendPatiently(pair) { try $0.send(frames, dontWait: true) } }
        try sendPatiently { try publisher.send(frames, dontWait: true) }
    }

    /// Publishes the two frames `topic` and `json` as they are (the JSON straight from an
    /// encoder's buffer, not copied into an array first), waiting as `sendRaw` does.
    public func send(topic: [UInt8], json: UnsafeBufferPointer<UInt8>) throws {
        if let pair { return try sendPatiently(pair) { try $0.send(topic, json, dontWait: true) } }
        try sendPatiently { try publisher.send(topic, json, dontWait: true) }
    }

    /// Tries `attempt` (a send that does not wait) until the bus takes it, for at most
    /// `sendPatience` seconds, counting the waits and what is given up.
    private func sendPatiently(_ attempt: () throws -> Bool) throws {
        if try attempt() { return }
        waits.value += 1
        let giveUp = Timestamp.monotonic() + sendPatience
        while Timestamp.monotonic() < giveUp {
            let ready = try poll([.socketWritable(publisher)], timeoutMilliseconds: 100)
            if ready[0], try attempt() { return }
        }
        drops.value += 1
        throw BusBackpressure(seconds: sendPatience)
    }

    /// On a pair of buses: `sendPatiently` through `BusPair.send`, with the same counts.
    private func sendPatiently(_ pair: BusPair, _ attempt: (ZMQSocket) throws -> Bool) throws {
        let (waited, sent) = try pair.send(giveUpAfter: sendPatience, attempt)
        if waited { waits.value += 1 }
        guard sent else {
            drops.value += 1
            throw BusBackpressure(seconds: sendPatience)
        }
    }

    /// Publishes raw frames only if the bus takes them now; false when its queue is full. On a
    /// pair: false when neither bus takes them; when one does, the other is waited for as
    /// `BusPair.send` does.
    public func trySendRaw(_ frames: [[UInt8]]) throws -> Bool {
        if let pair { return try pair.send(giveUpAfter: 0) { try $0.send(frames, dontWait: true) }.sent }
        return try publisher.send(frames, dontWait: true)
    }

    /// The next message's frames, waiting up to `timeoutMilliseconds` (-1: for ever).
    public func receiveFrames(timeoutMilliseconds: Int) throws -> [[UInt8]]? {
        if let pair {
            var frames: [[UInt8]]?
            _ = try pair.receive(timeoutMilliseconds: timeoutMilliseconds) { frames = try pair.receiveFramesNow(); return frames != nil }
            return frames
        }
        subscriberIdle.value = false
        return try subscriber.receive(timeoutMilliseconds: timeoutMilliseconds)
    }

    /// The next message's frames if one is waiting now.
    public func receiveFramesNow() throws -> [[UInt8]]? {
        if let pair { return try pair.receiveFramesNow() }
        let frames = try subscriber.receive(dontWait: true)
        subscriberIdle.value = frames == nil
        return frames
    }

    /// Waits up to `timeoutMilliseconds` (-1: for ever, 0: not at all) for the next message
    /// and receives it into `message`, reusing its storage (`ZMQSocket.receive(into:timeoutMilliseconds:)`);
    /// false when none came.
    public func receive(into message: inout ReceivedMessage, timeoutMilliseconds: Int) throws -> Bool {
        if let pair { return try pair.receive(timeoutMilliseconds: timeoutMilliseconds) { try pair.receiveNow(into: &message) } }
        subscriberIdle.value = false
        return try subscriber.receive(into: &message, timeoutMilliseconds: timeoutMilliseconds)
    }


    /// The SUB socket, to poll it together with other things (a poll of it reads its commands:
    /// `wait` then asks it for its events again). On one bus only (the bus's own client): a
    /// pair's subscribers are polled by `wait`.
    public var pollItem: PollItem {
        subscriberIdle.value = false
        return .socket(subscriber)
    }

    /// Waits up to `timeoutMilliseconds` for a message or for `stopDescriptor` to become readable.
    /// After `receiveFramesNow` found nothing, the subscriber is not asked for its events until
    /// its descriptor signals a new command (`Poller.idle`): a service that takes every waiting
    /// message before it waits (`ServiceRuntime`) saves a `getsockopt` per message.
    public func wait(timeoutMilliseconds: Int, stopDescriptor: Int32?, wakeDescriptor: Int32?) throws -> TransportWake {
        if let pair { return try pair.wait(timeoutMilliseconds: timeoutMilliseconds, stopDescriptor: stopDescriptor, wakeDescriptor: wakeDescriptor) }
        let descriptors = WaitDescriptors(stop: stopDescriptor, wake: wakeDescriptor, after: 1)
        if waitPoller.value?.descriptors != descriptors {
            waitPoller.value = (descriptors, try Poller([.socket(subscriber)] + descriptors.items))
        }
        let poller = waitPoller.value!.poller
        if subscriberIdle.value { poller.idle(0) }
        try poller.wait(timeoutMilliseconds: timeoutMilliseconds)
        // Found not ready, it stays idle: its commands were read, or none came.
        subscriberIdle.value = !poller.isReady(0)
        return descriptors.wake(message: !subscriberIdle.value, poller)
    }
}

extension BusConnection: BusTransport {}

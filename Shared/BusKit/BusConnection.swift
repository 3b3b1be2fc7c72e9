import MonsterKit
import ZeroMQ

/// A process's two sockets on the bus — PUB to the frontend, SUB from the backend — with the
/// envelope codec, the sender's sequence numbers and id generator. Owned by one thread.
public final class BusConnection {
    /// The name put in `service` of every envelope sent.
    public let service: String
    /// The codec, for callers that decode frames themselves.
    public let codec: EnvelopeCodec
    /// Message ids, unique across processes.
    public let ids = IDGenerator()
    private let publisher: ZMQSocket
    private let subscriber: ZMQSocket
    private var sequence: UInt64 = 0

    /// Connects as `service` to the bus in `config`, subscribed to every topic prefix in
    /// `subscriptions` (`""` for everything); as a CURVE client when `config.curve` is set.
    public init(
        context: ZMQContext, config: BusConfig, service: String, subscriptions: [String],
        lingerMilliseconds: Int32 = 1000
    ) throws {
        self.service = service
        codec = EnvelopeCodec(maxMessageBytes: config.maxMessageBytes)
        publisher = try ZMQSocket(context, .pub, lingerMilliseconds: lingerMilliseconds)
        subscriber = try ZMQSocket(context, .sub, lingerMilliseconds: 0)
        try subscriber.set(.maxMessageSize, Int64(config.maxMessageBytes + 1024))
        for prefix in subscriptions { try subscriber.subscribe(prefix) }
        if let curve = config.curve {
            try publisher.makeCurveClient(curve.keys, serverKey: curve.serverKey)
            try subscriber.makeCurveClient(curve.keys, serverKey: curve.serverKey)
        }
        try publisher.connect(config.frontend)
        try subscriber.connect(config.backend)
    }

    /// Closes both sockets.
    public func close() {
        publisher.close()
        subscriber.close()
    }

    /// An envelope from this sender: fresh id, next sequence number, current time.
    /// `correlationId` defaults to the new id (an action causes itself).
    public func envelope(_ body: Body, correlationId: String? = nil, device: String? = nil) -> Envelope {
        sequence += 1
        let id = ids.next()
        return Envelope(
            id: id, correlationId: correlationId ?? id, service: service, device: device,
            seq: sequence, time: Timestamp.now(), body: body)
    }

    /// Publishes `envelope` (topic frame, then JSON).
    public func send(_ envelope: Envelope) throws {
        try publisher.send(codec.frames(envelope))
    }

    /// Builds and publishes a message; returns what was sent.
    @discardableResult
    public func publish(_ body: Body, correlationId: String? = nil, device: String? = nil) throws -> Envelope {
        let envelope = envelope(body, correlationId: correlationId, device: device)
        try send(envelope)
        return envelope
    }

    /// Publishes raw frames as they are (for tests of hostile input and for benchmarks).
    public func sendRaw(_ frames: [[UInt8]]) throws {
        try publisher.send(frames)
    }

    /// The next message's frames, waiting up to `timeoutMilliseconds` (-1: for ever).
    public func receiveFrames(timeoutMilliseconds: Int) throws -> [[UInt8]]? {
        try subscriber.receive(timeoutMilliseconds: timeoutMilliseconds)
    }

    /// The next message's frames if one is waiting now.
    public func receiveFramesNow() throws -> [[UInt8]]? {
        try subscriber.receive(dontWait: true)
    }

    /// The SUB socket, to poll it together with other things.
    public var pollItem: PollItem { .socket(subscriber) }
}

import BusCore
import Domain
import Glibc
import ProcessSupport
import Wire

/// A bus inside one process: what a connection publishes reaches every connection subscribed
/// to a prefix of its topic (the first frame), the publisher's own included, in the order
/// published — as through the ZeroMQ bus, without sockets: each message goes on the topic the
/// bus writes for it (`BusPolicy.route`), and what the bus would refuse is answered with an
/// `error`, as the bus answers. For `gateway --embedded` and for tests that run the real
/// handlers in milliseconds. Thread-safe; each connection is owned by one thread.
public final class InMemoryBus: @unchecked Sendable {
    private let connections = Locked<[InMemoryConnection]>([])
    /// The bus's policy: the topic of each message, or its refusal.
    private let policy = BusPolicy()
    /// The bus's own answers to what it refuses.
    private let answers = Locked(EnvelopeMaker(service: MonsterBus.Service.bus))
    /// The bus's message size limit, for the connections' codecs.
    public let maxMessageBytes: Int

    /// An empty bus taking messages up to `maxMessageBytes`.
    public init(maxMessageBytes: Int = 65_536) { self.maxMessageBytes = maxMessageBytes }

    /// A new connection as `service`, subscribed to `subscriptions`.
    public func connect(service: String, subscriptions: [String] = []) -> InMemoryConnection {
        let connection = InMemoryConnection(bus: self, service: service, subscriptions: subscriptions)
        connections.withLock { $0.append(connection) }
        return connection
    }

    /// Asks every connection's runtime to stop (`BusTransport.wait` says `stop`).
    public func stopAll() {
        for connection in connections.current { connection.stop() }
    }

    fileprivate func publish(_ frames: [[UInt8]]) {
        var frames = frames
        switch policy.route(from: .anonymous, frames: frames) {
        case .forward(let topic):
            if let topic { frames[0] = topic }
        case .refuse(let refusal, let refused):
            func text(_ bytes: [UInt8]) -> String? { bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            let topic = frames.first.map { EnvelopeCodec.excerpt($0) } ?? ""
            let answer = answers.withLock { maker in
                maker.envelope(
                    .error(ErrorBody(code: refusal.code, message: "the bus refused '\(topic)': \(refusal.code)", offendingId: text(refused.id))),
                    correlationId: text(refused.correlationId) ?? text(refused.id), device: text(refused.device),
                    replyTo: text(refused.replyTo).flatMap { Envelope.isAddress($0) ? $0 : nil })
            }
            guard let error = try? EnvelopeCodec().frames(answer) else { return }
            publish(error)
            return
        }
        guard let topic = frames.first else { return }
        for connection in connections.current { connection.deliver(frames, topic: topic) }
    }

    fileprivate func remove(_ connection: InMemoryConnection) {
        connections.withLock { $0.removeAll { $0 === connection } }
    }
}

/// One process's connection to an `InMemoryBus`.
public final class InMemoryConnection: BusTransport, @unchecked Sendable {
    /// The name put in `service` of every envelope made by `envelope`.
    public let service: String
    /// Encodes and decodes what goes through it, with the bus's size limit.
    public let codec: EnvelopeCodec
    /// Always 0: a send never waits in memory.
    public var sendWaits: UInt64 { 0 }
    /// Always 0: nothing sent is dropped in memory.
    public var sendsDropped: UInt64 { 0 }
    private weak var bus: InMemoryBus?
    private let condition = ConditionLock()
    private var queue: [[[UInt8]]] = []
    private var head = 0
    private var prefixes: [[UInt8]]
    private var stopped = false
    private var maker: EnvelopeMaker

    fileprivate init(bus: InMemoryBus, service: String, subscriptions: [String]) {
        self.bus = bus
        self.service = service
        codec = EnvelopeCodec(maxMessageBytes: bus.maxMessageBytes)
        prefixes = subscriptions.map { Array($0.utf8) }
        maker = EnvelopeMaker(service: service)
    }

    /// An envelope from this connection's sender (`EnvelopeMaker.envelope`).
    public func envelope(
        _ body: Body, correlationId: String? = nil, device: String? = nil, trace: TraceContext? = nil, parentSpan: String? = nil
    ) -> Envelope {
        maker.envelope(body, correlationId: correlationId, device: device, trace: trace, parentSpan: parentSpan)
    }

    /// Encodes and publishes `envelope`.
    /// Encodes `envelope` and publishes it to every connection subscribed to its topic.
    public func send(_ envelope: Envelope) throws {
        try sendRaw(try codec.frames(envelope))
    }

    /// Publishes `frames` as they are.
    public func sendRaw(_ frames: [[UInt8]]) throws {
        bus?.publish(frames)
    }

    fileprivate func deliver(_ frames: [[UInt8]], topic: [UInt8]) {
        condition.withLock {
            guard prefixes.contains(where: { topic.starts(with: $0) }) else { return }
            queue.append(frames)
            condition.signal()
        }
    }

    /// The oldest message waiting, or nil without waiting.
    public func receiveFramesNow() throws -> [[UInt8]]? {
        condition.withLock { take() }
    }

    /// The oldest message waiting, waiting up to `timeoutMilliseconds` for one (nil if none came).
    public func receiveFrames(timeoutMilliseconds: Int) throws -> [[UInt8]]? {
        let until = ConditionLock.deadline(afterMilliseconds: timeoutMilliseconds)
        return condition.withLock {
            while head == queue.count && !stopped {
                if !condition.wait(until: until) { break }
            }
            return take()
        }
    }

    /// The oldest waiting message; the caller holds the lock.
    private func take() -> [[UInt8]]? {
        guard head < queue.count else { return nil }
        let frames = queue[head]
        head += 1
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
        }
        return frames
    }

    /// Receives, from now on, what is published on topics beginning with `prefix`.
    public func subscribe(_ prefix: String) throws {
        condition.withLock { prefixes.append(Array(prefix.utf8)) }
    }

    /// Takes back one subscription to `prefix`.
    public func unsubscribe(_ prefix: String) throws {
        condition.withLock {
            if let index = prefixes.firstIndex(of: Array(prefix.utf8)) { prefixes.remove(at: index) }
        }
    }

    /// Waits for a message, a stop or a wake-up, for up to `timeoutMilliseconds`.
    public func wait(timeoutMilliseconds: Int, stopDescriptor: Int32?, wakeDescriptor: Int32?) throws -> TransportWake {
        guard let wakeDescriptor else { return waitForMessage(until: ConditionLock.deadline(afterMilliseconds: timeoutMilliseconds)) }
        // A condition and a descriptor cannot be waited on together: the condition in slices of
        // 5 ms, the descriptor looked at between them (a bus for tests and `--embedded`).
        let end = timeoutMilliseconds < 0 ? Double.infinity : Timestamp.monotonic() + Double(timeoutMilliseconds) / 1000
        while true {
            var item = pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)
            if poll(&item, 1, 0) == 1 {
                return condition.withLock { TransportWake(message: head < queue.count, stop: stopped, woken: true) }
            }
            let slice = Int(min(5, max(0, (end - Timestamp.monotonic()) * 1000)).rounded(.up))
            let wake = waitForMessage(until: ConditionLock.deadline(afterMilliseconds: slice))
            if wake.message || wake.stop || Timestamp.monotonic() >= end { return wake }
        }
    }

    /// Waits on the condition until a message is queued, the connection is stopped, or `until`.
    private func waitForMessage(until: timespec?) -> TransportWake {
        condition.withLock {
            while head == queue.count && !stopped {
                if !condition.wait(until: until) { break }
            }
            return TransportWake(message: head < queue.count, stop: stopped)
        }
    }

    /// Makes `wait` return `stop` (the runtime then handles what had arrived and leaves).
    public func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
        }
    }

    /// Leaves the bus: nothing more is delivered here.
    public func close() {
        bus?.remove(self)
    }
}

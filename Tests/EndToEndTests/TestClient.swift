import Domain
import Foundation
import ProcessSupport
import Wire
import ZeroMQ
import ZeroMQTransport

/// A raw client of a test stack's bus, for what the gateway does not do: hostile bytes,
/// bursts, late joining. Owned by the test's thread.
final class TestClient {
    let context: ZMQContext
    let bus: BusConnection
    /// Its `replyTo` address, when it has one (`addressed:`): its pings and `publish` carry it,
    /// and it hears pongs on it only. Without one it subscribes by type (`""`: everything).
    let address: String?

    /// With `curve`, it connects as the gateway (its certificate in the stack's `BUS_KEYS_DIR`);
    /// `addressed`, it has an address of its own (subscribe to `Topic.clientSubscriptions` of
    /// it to hear only its own answers, as the gateway does). On `endpoints` (one bus of a
    /// pair) rather than the stack's, if given.
    init(
        _ stack: Stack, subscriptions: [String], service: String = "test-client", curve: Bool = false, address: String? = nil,
        endpoints: (frontend: String, backend: String)? = nil
    ) throws {
        context = try ZMQContext()
        self.address = address
        var config = curve ? try BusConfig.fromEnvironment(stack.environment, component: MonsterBus.Service.gateway) : BusConfig()
        config.frontend = endpoints?.frontend ?? stack.frontend
        config.backend = endpoints?.backend ?? stack.backend
        let pongs = Topic.name(.pong, key: address)
        bus = try BusConnection(context: context, config: config, service: service, subscriptions: subscriptions + [pongs], lingerMilliseconds: 0)
    }

    /// Publishes `body` (for `device`) with this client's address as its `replyTo`.
    @discardableResult
    func publish(_ body: Body, device: String? = nil) throws -> Envelope {
        try bus.publish(body, device: device, replyTo: address)
    }

    deinit { bus.close() }

    /// Pings until every one of `services` has answered: the path through the bus is live.
    func waitForPath(to services: [String], timeout: TimeInterval = 10) -> Bool {
        var waiting = Set(services)
        let deadline = Date().addingTimeInterval(timeout)
        while !waiting.isEmpty, Date() < deadline {
            guard let ping = try? bus.publish(.ping(Ping()), replyTo: address) else { return false }
            let until = Date().addingTimeInterval(0.05)
            while Date() < until, let envelope = next(until: until) {
                if case .pong(let pong) = envelope.body, envelope.correlationId == ping.id { waiting.remove(pong.service) }
            }
        }
        return waiting.isEmpty
    }

    /// The next readable message before `deadline`, or nil.
    func next(until deadline: Date) -> Envelope? {
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            guard let frames = try? bus.receiveFrames(timeoutMilliseconds: max(1, Int(remaining * 1000))) else { return nil }
            if let envelope = try? bus.codec.decode(frames: frames) { return envelope }
        }
    }

    /// Waits for a message `matching`, up to `timeout` seconds.
    func waitFor(timeout: TimeInterval = 10, _ matching: (Envelope) -> Bool) -> Envelope? {
        let deadline = Date().addingTimeInterval(timeout)
        while let envelope = next(until: deadline) {
            if matching(envelope) { return envelope }
        }
        return nil
    }
}

import BusKit
import Foundation
import MonsterKit
import ZeroMQ

/// A raw client of a test stack's bus, for what the gateway does not do: hostile bytes,
/// bursts, late joining. Owned by the test's thread.
final class TestClient {
    let context: ZMQContext
    let bus: BusConnection

    /// With `curve`, it connects as the gateway (its certificate in the stack's `BUS_KEYS_DIR`).
    init(_ stack: Stack, subscriptions: [String], service: String = "test-client", curve: Bool = false) throws {
        context = try ZMQContext()
        var config = curve ? try BusConfig.fromEnvironment(stack.environment, component: MonsterBus.Service.gateway) : BusConfig()
        config.frontend = stack.frontend
        config.backend = stack.backend
        bus = try BusConnection(context: context, config: config, service: service, subscriptions: subscriptions + ["sys.pong"], lingerMilliseconds: 0)
    }

    deinit { bus.close() }

    /// Pings until every one of `services` has answered: the path through the bus is live.
    func waitForPath(to services: [String], timeout: TimeInterval = 10) -> Bool {
        var waiting = Set(services)
        let deadline = Date().addingTimeInterval(timeout)
        while !waiting.isEmpty, Date() < deadline {
            guard let ping = try? bus.publish(.ping(Ping())) else { return false }
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

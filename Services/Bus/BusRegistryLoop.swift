import BusKit
import Glibc
import MonsterKit
import ZeroMQ

/// The bus's own client, inside the bus process: it listens to heartbeats, answers
/// `sys.status.request` with what it heard and `sys.ping` as `bus`, and heartbeats itself.
/// Runs on its own thread until the context is shut down.
struct BusRegistryLoop {
    let context: ZMQContext
    let config: BusConfig
    let log: Log

    func run() {
        do {
            let bus = try BusConnection(
                context: context, config: config, service: MonsterBus.Service.bus,
                subscriptions: [MessageType.heartbeat, .statusRequest, .ping].map(\.rawValue), lingerMilliseconds: 0)
            defer { bus.close() }
            try loop(bus)
        } catch let error as ZMQError where error.isTerminated {
            return
        } catch {
            log.error("registry stopped: \(error)")
        }
    }

    private func loop(_ bus: BusConnection) throws {
        var registry = BusRegistry()
        var counters: [String: UInt64] = [:]
        let started = Timestamp.monotonic()
        let interval = Double(config.heartbeatIntervalMilliseconds) / 1000
        var nextHeartbeat = started
        func heartbeat() -> Heartbeat {
            Heartbeat(
                service: MonsterBus.Service.bus, version: MonsterBus.version, pid: getpid(),
                uptimeSeconds: ((Timestamp.monotonic() - started) * 1000).rounded() / 1000,
                intervalMilliseconds: config.heartbeatIntervalMilliseconds, counters: counters)
        }
        while true {
            let now = Timestamp.monotonic()
            if now >= nextHeartbeat {
                try bus.publish(.heartbeat(heartbeat()))
                nextHeartbeat = now + interval
            }
            let timeout = max(1, Int((nextHeartbeat - Timestamp.monotonic()) * 1000) + 1)
            guard let frames = try bus.receiveFrames(timeoutMilliseconds: timeout) else { continue }
            guard let envelope = try? bus.codec.decode(frames: frames) else {
                counters["unreadable", default: 0] += 1
                continue
            }
            switch envelope.body {
            case .heartbeat(let beat) where beat.service != MonsterBus.Service.bus:
                registry.record(beat, at: Timestamp.monotonic())
            case .statusRequest:
                counters["statusRequests", default: 0] += 1
                let report = StatusReport(bus: heartbeat(), services: registry.services(now: Timestamp.monotonic()))
                try bus.publish(.statusReport(report), correlationId: envelope.correlationId, device: envelope.device)
            case .ping:
                try bus.publish(
                    .pong(Pong(service: MonsterBus.Service.bus, version: MonsterBus.version, pid: getpid())),
                    correlationId: envelope.correlationId, device: envelope.device)
            default:
                break
            }
        }
    }
}

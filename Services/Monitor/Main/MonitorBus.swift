import Domain
import MonitorKit
import ProcessSupport
import Wire
import ZeroMQ
import ZeroMQTransport

/// The monitor's two threads on the bus. The reader owns the SUB socket (subscribed to
/// everything) and does nothing but copy what arrives into the queue, so the monitor never
/// makes the bus wait. The worker decodes, feeds the model, and owns the PUB socket for what
/// the model asks (pings, `sys.status.request`, `device.describe`, `roster.snapshot.request`).
enum MonitorBus {
    /// Reads until `stop` (a file descriptor) becomes readable, then closes the queue.
    static func read(config: BusConfig, context: ZMQContext, queue: FrameQueue, hub: MonitorHub, stop: Int32, log: Log) {
        defer { queue.close() }
        do {
            let bus = try BusConnection(
                context: context, config: config, service: MonitorModel.name, subscriptions: [""], lingerMilliseconds: 0)
            defer { bus.close() }
            while true {
                if try bus.wait(timeoutMilliseconds: -1, stopDescriptor: stop).stop { return }
                var batch: [FrameQueue.Item] = []
                let now = Timestamp.monotonic()
                while batch.count < 10_000, let frames = try bus.receiveFramesNow() {
                    batch.append(FrameQueue.Item(frames: frames, at: now))
                }
                queue.push(batch)
            }
        } catch let error as ZMQError where error.isTerminated {
            return
        } catch {
            log.error("bus reader stopped: \(error)")
        }
    }

    /// Takes what the reader queued until the queue closes; sends what the model asks.
    static func work(config: BusConfig, context: ZMQContext, queue: FrameQueue, hub: MonitorHub, log: Log) {
        do {
            let bus = try BusConnection(
                context: context, config: config, service: MonitorModel.name, subscriptions: [], lingerMilliseconds: 0)
            defer { bus.close() }
            let codec = bus.codec
            var nextTick = 0.0
            var unreadable: UInt64 = 0
            var saidReady = false
            send(hub.update { model, _ in model.startRequests() }, bus: bus, hub: hub, log: log)
            while let (items, dropped) = queue.take(timeout: 0.05) {
                let decoded = items.compactMap { item -> (Envelope, Double)? in
                    guard let envelope = try? codec.decode(frames: item.frames) else { return nil }
                    return (envelope, item.at)
                }
                unreadable += UInt64(items.count - decoded.count)
                let waiting = UInt64(queue.count)
                let now = Timestamp.monotonic()
                let (requests, ready) = hub.update { model, counters in
                    counters.received += UInt64(items.count)
                    counters.dropped += dropped
                    counters.queued = waiting
                    var requests: [MonitorModel.Request] = []
                    for (envelope, at) in decoded { requests += model.receive(envelope, at: at) }
                    if dropped > 0 { requests += model.droppedMessages() }
                    if now >= nextTick {
                        requests += model.tick(now: now)
                        nextTick = now + 0.1
                    }
                    return (requests, model.isReady)
                }
                // Said once, when /healthz turns 200: what a supervisor or a test can wait for.
                if ready && !saidReady {
                    saidReady = true
                    log.info("ready: heard its own ping through the bus")
                }
                if dropped > 0 { log.warn("could not keep up: dropped \(dropped) message(s); describing every device again") }
                send(requests, bus: bus, hub: hub, log: log)
            }
            if unreadable > 0 { log.info("\(unreadable) unreadable message(s) seen on the bus") }
        } catch let error as ZMQError where error.isTerminated {
            return
        } catch {
            log.error("bus worker stopped: \(error)")
        }
    }

    private static func send(_ requests: [MonitorModel.Request], bus: BusConnection, hub: MonitorHub, log: Log) {
        for request in requests {
            let envelope: Envelope
            switch request {
            case .ping: envelope = bus.envelope(.ping(Ping()))
            case .status: envelope = bus.envelope(.statusRequest(StatusRequest()))
            case .rosterSnapshot: envelope = bus.envelope(.snapshotRequest(SnapshotRequest()))
            case .describe(let device): envelope = bus.envelope(.describe(Describe(profile: nil)), device: device)
            }
            hub.update { model, _ in model.sent(request, id: envelope.id, at: Timestamp.monotonic()) }
            do {
                try bus.send(envelope)
            } catch {
                log.warn("could not send \(envelope.type.rawValue): \(error)")
            }
        }
    }
}

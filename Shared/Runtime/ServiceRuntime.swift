import Domain
import Glibc
import JSON
import ProcessSupport
import ThreadOwnership
import Wire

/// Runs one service on a bus: the I/O loop around its `RuntimeCore`. It waits for messages or
/// the core's next wake time, hands what arrives to the core and does what the core says
/// (publish, in order; change subscriptions). On the first SIGTERM/SIGINT it handles what had
/// already arrived, for at most `SHUTDOWN_DEADLINE_MS`, and leaves; a second signal leaves at
/// once. Everything happens on the calling thread.
public final class ServiceRuntime<Handler: ServiceHandler> {
    private let name: String
    private let config: BusConfig
    private let log: Log
    private let clock: RuntimeClock
    /// The core: what it decides, counted (its handler holds the service's state). Used by the
    /// loop's one thread, several times on every message's path (the core calls nothing back).
    private let core: ThreadOwned<RuntimeCore<Handler>>
    /// The core's codec, for what the loop encodes (read once: not through the core each time).
    private let codec: EnvelopeCodec
    /// Where the loop writes the JSON of what it encodes (acknowledgements, heartbeats), reused
    /// and published from as it is.
    private let writer = JSONWriter()
    /// The topic frames of what the loop encodes lately, reused (an ack goes on its client's topic).
    private let topics = ThreadOwned<TopicMemo?>(TopicMemo())
    /// When the first stop signal came (for the line logged on leaving).
    private var signalledAt: Double?

    /// A runtime for the service `name` with `handler`, configured by `config`, reading `clock`.
    public init(name: String, handler: Handler, config: BusConfig, clock: RuntimeClock = .system) {
        self.name = name
        self.config = config
        self.clock = clock
        let log = Log(service: name, level: config.logLevel, format: config.logFormat)
        self.log = log
        core = ThreadOwned(RuntimeCore(
            handler: handler, settings: .init(name: name, pid: getpid(), config: config), clock: clock,
            logLevel: config.logLevel) { level, text, context in log.write(level, text, context: context) })
        codec = core.value.codec
    }

    /// What the service subscribes to (`RuntimeCore.subscriptions`).
    public var subscriptions: [String] { core.value.subscriptions }

    /// Runs on the transport `connect` opens (subscribed to `subscriptions`) until SIGTERM or
    /// SIGINT; returns the process exit status.
    public func run(connecting connect: (_ subscriptions: [String]) throws -> any BusTransport) -> Int32 {
        let signals = ShutdownSignals(log: log)
        do {
            let bus = try connect(core.value.subscriptions)
            defer { bus.close() }
            log.info("version \(MonsterBus.version), pid \(getpid()), publishing to \(config.frontend), subscribed at \(config.backend)")
            try run(on: bus, stopDescriptor: signals.readDescriptor)
            bus.close()
            let took = Int(((clock.monotonic() - (signalledAt ?? clock.monotonic())) * 1000).rounded())
            log.info("stopped \(took) ms after the signal: \(core.value.counters.summary)")
            return 0
        } catch {
            log.error("\(error)")
            return 1
        }
    }

    /// Runs on `transport` (already subscribed to `core.subscriptions`) until it is asked to
    /// stop (`stopDescriptor` readable, or the transport's own stop), then handles what had
    /// arrived, for at most `SHUTDOWN_DEADLINE_MS`.
    public func run(on transport: any BusTransport, stopDescriptor: Int32? = nil) throws {
        let wakeup = core.value.wakeup
        while true {
            let counts = transport.counts
            core.value.noteTransport(
                sendWaits: counts.sendWaits, sendsDropped: counts.sendsDropped, pairCopies: counts.pairCopies, pairSkips: counts.pairSkips)
            try perform(core.value.tick(now: clock.now()), on: transport)
            let timeout = max(0, Int((core.value.nextWake - clock.monotonic()) * 1000) + 1)
            let wake = try transport.wait(timeoutMilliseconds: timeout, stopDescriptor: stopDescriptor, wakeDescriptor: wakeup?.descriptor)
            // Emptied before the next pass reads what it was signalled for: a signal after this
            // wakes the loop again.
            if wake.woken { wakeup?.drain() }
            if wake.stop {
                drain(transport)
                return
            }
            if wake.message {
                // Take what is waiting in one go, but let heartbeats through under load.
                var batch = 0
                while batch < 1000, let frames = try transport.receiveFramesNow() {
                    try handle(frames, on: transport)
                    batch += 1
                }
            }
        }
    }

    /// Handles what has already arrived, until the deadline.
    private func drain(_ transport: any BusTransport) {
        let signalled = clock.monotonic()
        signalledAt = signalled
        let deadline = signalled + Double(config.shutdownDeadlineMilliseconds) / 1000
        var drained = 0
        do {
            // What had arrived includes what libzmq's I/O thread is still reading off the socket
            // (after a SIGSTOP, all of it): a short wait for more before the queue counts as empty.
            func next() throws -> [[UInt8]]? {
                if let frames = try transport.receiveFramesNow() { return frames }
                guard try transport.wait(timeoutMilliseconds: 50, stopDescriptor: nil).message else { return nil }
                return try transport.receiveFramesNow()
            }
            while let frames = try next() {
                try handle(frames, on: transport)
                drained += 1
                if clock.monotonic() >= deadline {
                    log.warn("SHUTDOWN_DEADLINE_MS (\(config.shutdownDeadlineMilliseconds) ms) passed: leaving what has not been handled yet")
                    break
                }
            }
        } catch {
            log.error("while handling what had arrived: \(error)")
        }
        log.info("signal received; handled \(drained) waiting message(s), leaving")
    }

    /// Publishes what the core decides on `frames` (the decision), then what can wait until it
    /// has gone (the acknowledgement): nothing the decision does not need is on its way.
    private func handle(_ frames: [[UInt8]], on transport: any BusTransport) throws {
        try perform(core.value.decide(frames, now: clock.now()), on: transport)
        if let ack = core.value.settle() { try perform(ack, on: transport) }
        let changes = core.value.changesOfMembers()
        if !changes.isEmpty { try perform(changes, on: transport) }
    }

    /// Does what the core said, in order.
    private func perform(_ outgoing: [Outgoing], on transport: any BusTransport) throws {
        for index in outgoing.indices { try perform(outgoing[index], on: transport) }
    }

    /// Does one thing the core said, `item` borrowed in place rather than copied out of the
    /// array (an envelope copied is a retain and a release of each of its strings). A message the
    /// bus would not take in time has been counted by the transport; it is logged and the
    /// service goes on.
    private func perform(_ item: borrowing Outgoing, on transport: any BusTransport) throws {
        do {
            try publish(item, on: transport)
        } catch let error as BusBackpressure {
            log.error("\(error)")
        }
    }

    /// Does `item`; a message the bus would not take in time throws `BusBackpressure`.
    private func publish(_ item: borrowing Outgoing, on transport: any BusTransport) throws {
        switch item {
        case .frames(let frames):
            try transport.sendRaw(frames)
        case .message(let envelope):
            let topic: [UInt8]
            do {
                topic = try codec.write(envelope, into: writer, topics: &topics.value)
            } catch {
                log.error("refused to publish \(envelope.type.rawValue): \(error)")
                return
            }
            try writer.withBytes { try transport.send(topic: topic, json: $0) }
        case .subscribe(let prefix):
            try transport.subscribe(prefix)
        case .unsubscribe(let prefix):
            try transport.unsubscribe(prefix)
        }
    }
}

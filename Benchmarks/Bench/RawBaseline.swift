// The baseline: libzmq alone through the same bus, with payloads as large as the product's
// action envelope. Ping-pong latency and windowed echo throughput through the raw echo
// process; one-way throughput from this process's PUB to a SUB on another thread.

import ProcessSupport
import Wire
import ZeroMQ

/// The baseline's client: a PUB to the bus's frontend and a SUB (`bench.pong`, or its own
/// reply topic when it has an address) from its backend, owned by the thread that made it.
final class RawClient {
    private let context: ZMQContext
    private let config: BusConfig
    private let publisher: ZMQSocket
    private let subscriber: ZMQSocket
    /// The payload sent (its first 8 bytes are rewritten with a sequence number).
    private var payload: [UInt8]
    private var sequence: UInt64 = 0
    /// Round trips that never came back.
    private(set) var lost = 0
    /// Seconds spent in `send` by plain round trips, and how many.
    var sendTime = (seconds: 0.0, count: 0)
    private var floods = 0

    /// Connects to the bus of `config`; `payload` is what every message carries. With an
    /// `address` (not zero), the echo answers it on a topic of its own (`RawWire.replyTopic`).
    init(context: ZMQContext, config: BusConfig, payload: [UInt8], address: UInt64 = 0) throws {
        precondition(payload.count >= 32, "a payload holds at least a sequence number, a shape, an amount of work and an address")
        self.context = context
        self.config = config
        self.payload = payload
        RawWire.stamp(0, into: &self.payload, at: 8)  // a plain ping: one answer, the same payload,
        RawWire.stamp(0, into: &self.payload, at: 16)  // no extra work,
        RawWire.stamp(address, into: &self.payload, at: 24)  // answered on the client's topic
        publisher = try ZMQSocket(context, .pub)
        subscriber = try ZMQSocket(context, .sub)
        try subscriber.subscribe(String(decoding: address == 0 ? RawWire.pongTopic : RawWire.replyTopic(of: address), as: UTF8.self))
        // No high-water mark on this PUB: libzmq's count of what a pipe holds lags behind the
        // reader (it learns of reads every 500 messages, and processes that news at most every
        // millisecond or so while busy sending), so a flood of 100 in flight still hit the
        // default mark of 1000 and lost messages. The product's PUB sockets keep the default.
        try publisher.set(.sendHighWaterMark, Int32(0))
        try publisher.connect(config.frontend)
        try subscriber.connect(config.backend)
    }

    /// Closes both sockets.
    func close() {
        publisher.close()
        subscriber.close()
    }

    /// The payload size in bytes.
    var payloadBytes: Int { payload.count }

    /// Pings the echo until it answers (its subscription and ours have reached the bus), then
    /// lets stragglers arrive and drops them.
    func handshake(timeout: Double) throws {
        let deadline = Timestamp.monotonic() + timeout
        var retry = 0.01
        while Timestamp.monotonic() < deadline {
            if try roundTrip(timeout: retry) != nil {
                lost = 0
                while try subscriber.receive(timeoutMilliseconds: 50) != nil {}
                return
            }
            retry = min(retry * 2, 0.2)
        }
        throw BenchError("the raw echo never answered through the bus")
    }

    /// Runs short windowed rounds through `members` echoes answering as sharded instances
    /// (`windowedEcho`'s `members`) until one loses nothing: every member's subscriptions, and
    /// each standby's, have reached the bus.
    func handshake(members: Int, shape: Shape, update: Int, timeout: Double) throws {
        let deadline = Timestamp.monotonic() + timeout
        while Timestamp.monotonic() < deadline {
            let run = try windowedEcho(seconds: 0.05, window: members, shape: shape, members: members, update: update)
            if run.completed > 0 && run.lost == 0 && run.duplicates == 0 { return }
        }
        throw BenchError("the \(members) raw echoes answering as sharded instances never all answered through the bus")
    }

    /// The shape of the product's answer to an action: two messages (the decision and the ack)
    /// of these sizes, instead of one as large as the request.
    struct Shape {
        let first: Int
        let second: Int
        var stamp: UInt64 { UInt64(first) | UInt64(second) << 32 }
    }

    /// The sizes of presentation-policy's answers to the bench's add tap (the decision, the
    /// ack), as the bench measures them (its "raw, 2 answers" row), for runs without the product.
    static let productAddTap = Shape(first: 859, second: 446)

    /// The size of a sharded owner's update to its standby after the bench's add tap (the
    /// device's state with its popover dismissed, then shown: 1,170 and 1,690 bytes on the wire in
    /// turn), for the raw echoes answering as sharded instances do.
    static let productUpdate = 1_430

    /// One ping-pong: seconds from before the send until the matching pong is in (both answers
    /// with `shape`, after `spin` iterations of `Spin` in the echo; with `firstAnswer`, timed
    /// until the first of the two, as the product's round trip is timed until its decision, the
    /// second awaited untimed); nil (and counted as lost) after `timeout` seconds. To `member`,
    /// one of several echoes answering as sharded instances do, with an update of `update` bytes.
    func roundTrip(
        timeout: Double = 2, shape: Shape? = nil, spin: Int = 0, firstAnswer: Bool = false, member: Int? = nil, update: Int = 0
    ) throws -> Double? {
        sequence += 1
        RawWire.stamp(sequence, into: &payload)
        RawWire.stamp(shape?.stamp ?? 0, into: &payload, at: 8)
        RawWire.stamp(UInt64(member == nil ? spin : update), into: &payload, at: 16)
        let started = Timestamp.monotonic()
        let deadline = started + timeout
        try publisher.send([member.map(RawWire.ownerTopic) ?? RawWire.pingTopic, payload])
        if shape == nil {
            sendTime.seconds += Timestamp.monotonic() - started
            sendTime.count += 1
        }
        var awaited = shape == nil ? 1 : 2
        var first: Double?
        while true {
            let remaining = deadline - Timestamp.monotonic()
            guard remaining > 0, let frames = try subscriber.receive(timeoutMilliseconds: max(1, Int(remaining * 1000))) else {
                lost += 1
                return nil
            }
            if frames.count == 2 && RawWire.sequence(of: frames[1]) == sequence {
                awaited -= 1
                let elapsed = Timestamp.monotonic() - started
                if first == nil { first = elapsed }
                if awaited == 0 { return firstAnswer ? first : elapsed }
            }
        }
    }

    /// Round trips through the echo with up to `window` in flight, for `seconds`: every message
    /// must come back exactly once (as two messages with `shape`). The request/reply twin of
    /// the product's sustained run. With `members`, the pings go in turn to that many echoes
    /// answering as sharded instances do (`RawEcho.run(member:)`: `shape`'s first answer from
    /// the owner, an update of `update` bytes to the next member, the second answer from it).
    func windowedEcho(seconds: Double, window: Int, shape: Shape? = nil, members: Int = 0, update: Int = 0) throws -> Throughput {
        var result = Throughput()
        let first = sequence + 1
        let answers: UInt8 = shape == nil ? 1 : 2
        let topics = members > 0 ? (0..<members).map(RawWire.ownerTopic) : [RawWire.pingTopic]
        RawWire.stamp(shape?.stamp ?? 0, into: &payload, at: 8)
        RawWire.stamp(UInt64(members > 0 ? update : 0), into: &payload, at: 16)
        defer {
            RawWire.stamp(0, into: &payload, at: 8)
            RawWire.stamp(0, into: &payload, at: 16)
        }
        var answered: [UInt8] = []
        answered.reserveCapacity(1 << 20)
        var inFlight = 0
        /// Counts an answer to `number`.
        func count(_ number: UInt64) {
            guard number >= first && number < first + UInt64(answered.count) else { return }
            let index = Int(number - first)
            answered[index] &+= 1
            if answered[index] > answers {
                result.duplicates += 1
            } else if answered[index] == answers {
                result.completed += 1
                inFlight -= 1
            }
        }
        let started = Timestamp.monotonic()
        var lastProgress = started
        var finished = started
        while true {
            let sending = Timestamp.monotonic() - started < seconds
            while sending && inFlight < window {
                sequence += 1
                RawWire.stamp(sequence, into: &payload)
                try publisher.send([topics[Int(sequence % UInt64(topics.count))], payload])
                answered.append(0)
                inFlight += 1
                result.sent += 1
            }
            if !sending && inFlight == 0 { break }
            guard let frames = try subscriber.receive(timeoutMilliseconds: 100) else {
                if Timestamp.monotonic() - lastProgress > 3 { break }
                continue
            }
            var next: [[UInt8]]? = frames
            while let frames = next {
                let number = RawWire.sequence(of: frames[1])
                if number == RawWire.acknowledgements {
                    for acknowledged in RawWire.acknowledged(in: frames[1]) { count(acknowledged) }
                } else {
                    count(number)
                }
                next = try subscriber.receive(dontWait: true)
            }
            lastProgress = Timestamp.monotonic()
            finished = lastProgress
        }
        result.seconds = finished - started
        return result
    }

    /// One-way throughput: this thread's PUB floods `bench.flood` messages for `seconds` to a
    /// SUB on a thread of its own, through the bus. The subscriber reports its count back over
    /// an in-process PAIR socket, so at most `window` messages are ever in flight (nothing can
    /// reach a high-water mark and be dropped); at the end it must have received every one.
    func oneWay(seconds: Double, window: Int) throws -> Throughput {
        floods += 1
        let endpoint = "inproc://bench-credit-\(floods)"
        let credit = try ZMQSocket(context, .pair)
        defer { credit.close() }
        try credit.bind(endpoint)
        let context = self.context, backend = config.backend
        let failure = Locked<String?>(nil)
        let thread = OSThread {
            do {
                try FloodReceiver.run(context: context, backend: backend, creditEndpoint: endpoint)
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
        }
        defer { thread.join() }

        // Probe until the receiver says a message reached it: the path is live.
        var probe = payload
        RawWire.stamp(RawWire.probe, into: &probe)
        let readyBy = Timestamp.monotonic() + 10
        var ready = false
        while !ready && Timestamp.monotonic() < readyBy {
            try publisher.send([RawWire.floodTopic, probe])
            if let message = try credit.receive(timeoutMilliseconds: 20), FloodReceiver.kind(message) == .ready { ready = true }
        }
        guard ready else {
            _ = try? credit.send([FloodReceiver.message(.stop, 0)])
            throw BenchError("the flood receiver never heard from the bus" + (failure.withLock { $0 }.map { ": \($0)" } ?? ""))
        }

        var result = Throughput()
        var flood = payload
        var received = 0
        let started = Timestamp.monotonic()
        while Timestamp.monotonic() - started < seconds {
            // Send until the window is full, looking at the clock every 64 messages.
            var burst = 0
            while burst < 64 && result.sent - received < window {
                RawWire.stamp(UInt64(result.sent), into: &flood)
                try publisher.send([RawWire.floodTopic, flood])
                result.sent += 1
                burst += 1
            }
            // Take the receiver's count; when the window is full, wait until it moves on.
            while let message = try credit.receive(dontWait: true) {
                received = max(received, Int(FloodReceiver.count(message)))
            }
            var stalled = false
            while result.sent - received >= window {
                guard let message = try credit.receive(timeoutMilliseconds: 3000) else {
                    stalled = true  // nothing for 3 s: the count check below reports the loss
                    break
                }
                received = max(received, Int(FloodReceiver.count(message)))
            }
            if stalled { break }
        }
        // The end marker travels behind every message: when it arrives, the count is final.
        var end = payload
        RawWire.stamp(RawWire.end, into: &end)
        RawWire.stamp(UInt64(result.sent), into: &end, at: 8)
        try publisher.send([RawWire.floodTopic, end])
        var finished = Timestamp.monotonic()
        while let message = try credit.receive(timeoutMilliseconds: 5000) {
            if FloodReceiver.kind(message) == .final {
                finished = Timestamp.monotonic()
                received = Int(FloodReceiver.count(message))
                break
            }
        }
        result.completed = received
        result.seconds = finished - started
        if let message = failure.withLock({ $0 }) { throw BenchError("flood receiver: \(message)") }
        return result
    }
}

/// The one-way flood's subscriber, on its own thread with its own sockets.
enum FloodReceiver {
    /// What a message on the PAIR socket says.
    enum Kind: UInt64 { case ready, progress, final, stop }

    static func message(_ kind: Kind, _ count: UInt64) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 16)
        RawWire.stamp(kind.rawValue, into: &bytes)
        RawWire.stamp(count, into: &bytes, at: 8)
        return bytes
    }

    static func kind(_ frames: [[UInt8]]) -> Kind? {
        frames.first.flatMap { Kind(rawValue: RawWire.value(in: $0, at: 0)) }
    }

    static func count(_ frames: [[UInt8]]) -> UInt64 {
        frames.first.map { RawWire.value(in: $0, at: 8) } ?? 0
    }

    /// Counts `bench.flood` messages, reports progress after each batch, and the final count
    /// once the end marker's total is reached (or 2 s after it when some are missing).
    static func run(context: ZMQContext, backend: String, creditEndpoint: String) throws {
        let subscriber = try ZMQSocket(context, .sub)
        let credit = try ZMQSocket(context, .pair)
        defer {
            subscriber.close()
            credit.close()
        }
        try subscriber.subscribe(String(decoding: RawWire.floodTopic, as: UTF8.self))
        try subscriber.connect(backend)
        try credit.connect(creditEndpoint)
        var count: UInt64 = 0
        var saidReady = false
        var expected: UInt64?
        var endSeen = 0.0
        let giveUp = Timestamp.monotonic() + 600
        while Timestamp.monotonic() < giveUp {
            let ready = try poll([.socket(subscriber), .socket(credit)], timeoutMilliseconds: 100)
            if ready[1], let message = try credit.receive(dontWait: true), kind(message) == .stop { return }
            if !ready[0] {
                if expected != nil && Timestamp.monotonic() - endSeen > 2 { break }
                continue
            }
            while let frames = try subscriber.receive(dontWait: true) {
                guard frames.count == 2 else { continue }
                switch RawWire.sequence(of: frames[1]) {
                case RawWire.probe:
                    if !saidReady {
                        try credit.send([message(.ready, 0)])
                        saidReady = true
                    }
                case RawWire.end:
                    expected = RawWire.value(in: frames[1], at: 8)
                    endSeen = Timestamp.monotonic()
                default:
                    count += 1
                }
            }
            if let expected, count >= expected { break }
            // Progress may be dropped when the sender is not reading: the next one carries it.
            _ = try credit.send([message(.progress, count)], dontWait: true)
        }
        try credit.send([message(.final, count)])
    }
}

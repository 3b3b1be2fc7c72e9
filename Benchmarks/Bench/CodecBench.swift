// The envelope codec alone (EnvelopeCodec, over the project's JSON reader and writer), and the
// other per-message work of BusConnection: ids, timestamps, the envelope itself.

import Domain
import Runtime
import Wire
import ZeroMQTransport


/// The cost of one operation, in microseconds.
struct CodecCost {
    let name: String
    /// Bytes of the JSON frame, where it applies.
    let bytes: Int?
    let microseconds: Double
    /// A remark on the measurement, if any.
    var note = ""
}

enum CodecBench {
    /// Measures encode and decode of each sample envelope, and the making of an envelope.
    /// Each figure is the fastest of 5 batches of `iterations / 5`.
    static func run(bus: BusConnection, action: Envelope, replies: [Envelope], iterations: Int) throws -> [CodecCost] {
        let codec = bus.codec
        var costs: [CodecCost] = []
        var sink = 0
        for envelope in [action] + replies {
            let json = try codec.encode(envelope)
            let frames = try codec.frames(envelope)
            let name = envelope.type.rawValue
            costs.append(CodecCost(name: "encode \(name)", bytes: json.count, microseconds: measure(iterations) {
                sink &+= ((try? codec.frames(envelope))?[1].count ?? 0)
            }))
            costs.append(CodecCost(name: "decode \(name)", bytes: json.count, microseconds: measure(iterations) {
                if let decoded = try? codec.decode(frames: frames) { sink &+= Int(decoded.seq) }
            }))
        }
        let body = action.body
        costs.append(CodecCost(name: "new envelope (id, seq, time)", bytes: nil, microseconds: measure(iterations) {
            sink &+= bus.envelope(body, device: "bench-ipad").id.utf8.count
        }))
        costs.append(CodecCost(name: "  of which IDGenerator.next()", bytes: nil, microseconds: measure(iterations) {
            sink &+= bus.ids.next().utf8.count
        }))
        costs.append(CodecCost(name: "  of which Timestamp.now()", bytes: nil, microseconds: measure(iterations) {
            sink &+= Timestamp.now().utf8.count
        }))
        // What a service adds per message for idempotence: the check of a new id and its
        // remembered ack (the window grows to the number of iterations).
        let ids = (0..<(iterations + 400)).map { "\(action.id)-\($0)" }
        var window = DeliveryWindow(timeToLive: 30, clockSkew: 1, capacity: ids.count)
        let ack = Ack(handled: action.type.rawValue, handledId: action.id, emitted: [bus.ids.next()], forwarded: [])
        let time = Timestamp.now()
        var next = 0
        costs.append(CodecCost(name: "delivery window: check + remember", bytes: nil, microseconds: measure(iterations) {
            let now = Timestamp.wallClock()
            let id = ids[next % ids.count]
            next += 1
            if case .fresh(let sent) = window.check(id: id, time: time, now: now) {
                window.remember(id: id, sent: sent, ack: ack, now: now)
                sink &+= 1
            }
        }))
        if sink == 42 { print("") }  // keeps the work from being optimised away
        return costs
    }

    /// Microseconds per call of `body`: the fastest of 5 batches (other work on the machine
    /// only ever adds time, so the fastest batch is the closest to the code's own cost).
    private static func measure(_ iterations: Int, _ body: () -> Void) -> Double {
        let batch = max(1, iterations / 5)
        for _ in 0..<min(batch, 200) { body() }  // warm-up
        var means: [Double] = []
        for _ in 0..<5 {
            let started = Timestamp.monotonic()
            for _ in 0..<batch { body() }
            means.append((Timestamp.monotonic() - started) * 1e6 / Double(batch))
        }
        return means.min() ?? 0
    }
}

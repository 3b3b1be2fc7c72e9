// The envelope codec alone (Foundation's JSONEncoder/JSONDecoder behind EnvelopeCodec), and
// the other per-message work of BusConnection: ids, timestamps, the envelope itself.

import BusKit
import MonsterKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The cost of one operation, in microseconds.
struct CodecCost {
    let name: String
    /// Bytes of the JSON frame, where it applies.
    let bytes: Int?
    let microseconds: Double
    /// A remark: for the prototype, whether it matches EnvelopeCodec.
    var note = ""
}

enum CodecBench {
    /// Measures encode and decode of each sample envelope, and the making of an envelope.
    /// Each figure is the fastest of 5 batches of `iterations / 5`.
    static func run(bus: BusConnection, action: Envelope, replies: [Envelope], iterations: Int) -> [CodecCost] {
        let codec = bus.codec
        var costs: [CodecCost] = []
        var sink = 0
        for envelope in [action] + replies {
            let json = codec.encode(envelope)
            let frames = codec.frames(envelope)
            let name = envelope.type.rawValue
            costs.append(CodecCost(name: "encode \(name)", bytes: json.count, microseconds: measure(iterations) {
                sink &+= codec.frames(envelope)[1].count
            }))
            costs.append(CodecCost(name: "decode \(name)", bytes: json.count, microseconds: measure(iterations) {
                if let decoded = try? codec.decode(frames: frames) { sink &+= Int(decoded.seq) }
            }))
        }
        // What the codec's parts cost, on the largest envelope.
        if let decision = replies.first {
            let json = codec.encode(decision)
            let unsorted = JSONEncoder()
            unsorted.outputFormatting = [.withoutEscapingSlashes]
            costs.append(CodecCost(name: "  JSONEncoder without .sortedKeys, \(decision.type.rawValue)", bytes: json.count, microseconds: measure(iterations) {
                sink &+= ((try? unsorted.encode(decision))?.count ?? 0)
            }))
            costs.append(CodecCost(name: "  decode's UTF-8 check + Data copy, \(decision.type.rawValue)", bytes: json.count, microseconds: measure(iterations) {
                if String(validating: json, as: UTF8.self) != nil { sink &+= Data(json).count }
            }))
        }
        // A hand-written codec (PrototypeEnvelope), checked against EnvelopeCodec.
        for envelope in [action] + replies {
            let json = codec.encode(envelope)
            let name = envelope.type.rawValue
            let written = PrototypeEnvelope.encode(envelope)
            costs.append(CodecCost(
                name: "hand-written encode \(name) (prototype)", bytes: written?.count,
                microseconds: measure(iterations) { sink &+= PrototypeEnvelope.encode(envelope)?.count ?? 0 },
                note: written == json ? "same bytes" : "DIFFERS"))
            let read = PrototypeEnvelope.decode(json)
            costs.append(CodecCost(
                name: "hand-written decode \(name) (prototype)", bytes: json.count,
                microseconds: measure(iterations) { sink &+= Int(PrototypeEnvelope.decode(json)?.seq ?? 0) },
                note: read == envelope ? "same envelope" : "DIFFERS"))
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

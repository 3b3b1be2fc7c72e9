import Wire

/// The tree of what one action caused, from the trace context every message carries
/// (`traceparent` with its own span, `parentSpan` with its cause's): which service sent which
/// message, when, and how long each hop took as the gateway saw it (the time between the
/// arrival of a message's cause — or the action's sending — and its own arrival, in ms).
public struct TraceTree: Sendable {
    /// A message and when the gateway sent or received it (monotonic seconds).
    public struct Hop: Sendable {
        /// The message.
        public let envelope: Envelope
        /// When the gateway sent it (the action) or received it (the rest).
        public let at: Double
        /// A message seen at `at`.
        public init(envelope: Envelope, at: Double) { self.envelope = envelope; self.at = at }
    }

    /// The action: the root.
    public let action: Hop
    /// What it caused, in arrival order.
    public let caused: [Hop]

    /// The tree of `action` and what it `caused`.
    public init(action: Hop, caused: [Hop]) { self.action = action; self.caused = caused }

    /// Messages of `caused` that do not carry the action's trace id.
    public var outsiders: [Envelope] {
        let traceId = action.envelope.trace?.traceId
        return caused.map(\.envelope).filter { $0.trace?.traceId != traceId }
    }

    /// The tree as lines: the trace id, then one line per message under its cause.
    public func lines() -> [String] {
        let root = action.envelope
        var children: [String: [Hop]] = [:]
        let spans = Set(([action] + caused).compactMap { $0.envelope.trace?.spanId })
        for hop in caused {
            // A message whose cause is not among these hangs under the action, marked.
            let parent = hop.envelope.parentSpan.flatMap { spans.contains($0) ? $0 : nil } ?? root.trace?.spanId ?? ""
            children[parent, default: []].append(hop)
        }
        var lines = ["trace \(root.trace?.traceId ?? "(none)") — \(caused.count) message(s) caused by \(root.type.rawValue) \(root.id)"]
        lines.append(describe(action, hop: "sent"))
        func walk(_ parent: Hop, prefix: String) {
            let list = parent.envelope.trace.flatMap { children[$0.spanId] } ?? []
            for (index, child) in list.enumerated() {
                let last = index == list.count - 1
                let latency = (child.at - parent.at) * 1000
                var note = "+" + Self.milliseconds(latency)
                if child.envelope.trace?.traceId != root.trace?.traceId { note += " (not in this trace)" }
                lines.append(prefix + (last ? "└─ " : "├─ ") + describe(child, hop: note))
                walk(child, prefix: prefix + (last ? "   " : "│  "))
            }
        }
        walk(action, prefix: "")
        return lines
    }

    private func describe(_ hop: Hop, hop note: String) -> String {
        let envelope = hop.envelope
        let span = envelope.trace?.spanId ?? "no span"
        return "\(envelope.service) \(envelope.type.rawValue) \(envelope.id) at \(envelope.time) \(note) [span \(span)]"
    }

    /// `value` ms with three decimals (`0.412 ms`).
    static func milliseconds(_ value: Double) -> String {
        let micro = Int((value * 1000).rounded())
        let fraction = String(abs(micro) % 1000)
        return "\(micro / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) ms"
    }
}

import Domain
import Wire

/// Makes one sender's envelopes: its name, its sequence numbers, ids from `ids` and times from
/// `wallClock`. Shared by `BusConnection` and `RuntimeCore`, so that a message caused by
/// another is built in one place (`envelope(_:causedBy:device:)`).
public struct EnvelopeMaker: Sendable {
    /// The name put in `service` of every envelope made.
    public let service: String
    /// Where ids come from (unique across processes by default).
    public let ids: @Sendable () -> String
    /// Seconds since 1970, for `time` (the system's clock by default).
    public let wallClock: (@Sendable () -> Double)?
    private var sequence: UInt64 = 0

    /// A maker for `service`; without `ids` a fresh `IDGenerator`, without `wallClock` the system's.
    public init(service: String, ids: (@Sendable () -> String)? = nil, wallClock: (@Sendable () -> Double)? = nil) {
        self.service = service
        if let ids {
            self.ids = ids
        } else {
            let generator = IDGenerator()
            self.ids = { generator.next() }
        }
        self.wallClock = wallClock
    }

    /// An envelope from this sender: fresh id, next sequence number, current time.
    /// `correlationId` defaults to the new id (an action causes itself); `trace` is its span
    /// (`traceparent`) and `parentSpan` the span of the message that caused it; `replyTo` the
    /// address its answers go to.
    public mutating func envelope(
        _ body: Body, correlationId: String? = nil, device: String? = nil, trace: TraceContext? = nil, parentSpan: String? = nil,
        replyTo: String? = nil
    ) -> Envelope {
        make(body, correlationId: correlationId, device: device, traceparent: trace?.traceparent, parentSpan: parentSpan, replyTo: replyTo)
    }

    /// An envelope for a message that `cause` caused: its correlation id, a new span in the
    /// trace `cause` is handled in (`trace`, `TraceContext.handling` of it, when its other
    /// messages are made too; if nil, `cause`'s own trace, or a new trace when it carries none),
    /// and its `replyTo`, so that the whole chain answers on the asking client's address. `time`
    /// is the envelope's (`now()` if nil): the messages a message causes share the moment it was
    /// handled. `id` is its id (a fresh one if nil: `DerivedIds` gives one otherwise).
    public mutating func envelope(
        _ body: Body, causedBy cause: Envelope, inTrace trace: TraceContext.Handling? = nil, device: String? = nil, time: String? = nil,
        id: String? = nil
    ) -> Envelope {
        let (traceparent, parentSpan) = trace?.child() ?? TraceContext.headers(causedBy: cause.traceparent)
        return make(
            body, correlationId: cause.correlationId, device: device ?? cause.device, traceparent: traceparent,
            parentSpan: parentSpan, replyTo: cause.replyTo, time: time, id: id)
    }

    /// An envelope with the next sequence number, a fresh id and the current time.
    private mutating func make(
        _ body: Body, correlationId: String?, device: String?, traceparent: String?, parentSpan: String?, replyTo: String?,
        time: String? = nil, id: String? = nil
    ) -> Envelope {
        // A derived id (`DerivedIds`) names no sender: its message takes no number of its own in
        // the sender's sequence, which readers follow by the senders' ids for gaps.
        if id == nil { sequence += 1 }
        let id = id ?? ids()
        return Envelope(
            id: id, correlationId: correlationId ?? id, service: service, device: device,
            seq: sequence, time: time ?? now(), traceparent: traceparent, parentSpan: parentSpan, replyTo: replyTo, body: body)
    }

    /// The current time, as an envelope's `time`.
    public func now() -> String {
        guard let wallClock else { return Timestamp.now() }
        let seconds = wallClock()
        let whole = seconds.rounded(.down)
        return Timestamp.format(seconds: Int(whole), milliseconds: min(999, Int(((seconds - whole) * 1000 + 0.0001).rounded(.down))))
    }
}

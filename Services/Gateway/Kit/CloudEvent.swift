import JSON
import Contract
import Wire

/// A bus message as a CloudEvents 1.0 event in the structured JSON format (`gateway watch
/// --format cloudevents`). Envelope → attributes: `id` → `id`; `service` → `source`
/// (`/monster-bus/SERVICE`); `type` → `type`; `time` → `time`; `device` → `subject`;
/// `body` → `data` (`datacontenttype` application/json); `correlationId` → `correlationid`;
/// `seq` → `sequence` (the sequence extension: a string, zero-padded to 20 digits so it orders
/// lexicographically); `traceparent` → `traceparent` (the distributed tracing extension);
/// `parentSpan` → `parentspan`.
enum CloudEvent {
    /// The event for `envelope`, whose body's JSON is `body`.
    static func event(_ envelope: Envelope, body: JSONValue) -> JSONValue {
        var event: JSONValue = [
            "specversion": "1.0",
            "id": .string(envelope.id),
            "source": .string("/monster-bus/" + envelope.service),
            "type": .string(envelope.type.rawValue),
            "time": .string(envelope.time),
        ]
        if let device = envelope.device { event = event.setting("subject", .string(device)) }
        event = event.setting("datacontenttype", "application/json")
            .setting("correlationid", .string(envelope.correlationId))
            .setting("sequence", .string(sequence(envelope.seq)))
        if let traceparent = envelope.traceparent { event = event.setting("traceparent", .string(traceparent)) }
        if let parentSpan = envelope.parentSpan { event = event.setting("parentspan", .string(parentSpan)) }
        return event.setting("data", body)
    }

    /// `seq` as the sequence extension's string: 20 digits, so that text order is number order.
    static func sequence(_ seq: UInt64) -> String {
        let digits = String(seq)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits
    }
}

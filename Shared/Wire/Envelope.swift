import Domain
import Glibc

/// A message on the bus: a versioned header and a typed body. On the wire it is two frames,
/// the topic (the type) and this, as JSON.
public struct Envelope: Sendable, Equatable {
    /// The envelope format version this code reads and writes.
    public static let currentVersion = 1

    /// Envelope format version.
    public var version: Int
    /// Unique id of this message.
    public var id: String
    /// Id of the action that caused it (an action's own id for the action itself).
    public var correlationId: String
    /// The service that sent it (`gateway`, `presentation-policy`, …).
    public var service: String
    /// The simulated device it concerns, if any.
    public var device: String?
    /// The sender's sequence number: one more for every message it publishes.
    public var seq: UInt64
    /// When it was sent, ISO 8601 in UTC with milliseconds.
    public var time: String
    /// W3C `traceparent` of this message's span: an action starts a trace, and every message it
    /// causes carries the same trace id with a span id of its own. Absent on messages nothing caused
    /// (heartbeats) and from clients that do not trace.
    public var traceparent: String?
    /// The span id (16 hex digits) of the message that caused this one; absent on an action.
    public var parentSpan: String?
    /// The address (1 to 64 bytes, no `/`, `Identifier` rules) of the client that asked: every
    /// message its action causes carries it, and its `.toClient` answers are published on the
    /// topic `type/replyTo`, to which that client subscribes. Absent from clients that subscribe
    /// by type (they see every client's answers).
    public var replyTo: String?
    /// The payload; its case is the message type.
    public var body: Body

    /// The message type, from the body.
    public var type: MessageType { body.type }

    /// Whether `text` may be a `replyTo` address: 1 to 64 bytes, no `/` (the topic's separator);
    /// control characters are `Identifier`'s to refuse.
    public static func isAddress(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            utf8.count >= 1 && utf8.count <= 64 && memchr(utf8.baseAddress!, Int32(Topic.separator), utf8.count) == nil
        }
    }

    /// The topic frame this envelope is published on (`Topic`): its type, keyed by its device's
    /// bucket (`.byDevice`, when it has a device; a tap's or an interaction change's owner first,
    /// `Topic.deviceKey`) or by its `replyTo` (`.toClient`, when set; a presentation's style first,
    /// `Topic.styledKey`).
    public var topic: String { Topic.name(type, key: topicKey) }

    /// The key of `topic`, if it has one.
    public var topicKey: String? {
        let (first, second) = topicKeyParts
        guard let first else { return nil }
        return second.map { first + "/" + $0 } ?? first
    }

    /// `topicKey`'s parts before they are joined with `/` — for a device's request its owner
    /// and its device's bucket, for an answer its presentation's style and its `replyTo`, either
    /// alone when the other is missing — so that the codec writes and checks a topic frame
    /// without making the key. The second is `nil` when there is one part, both with none.
    public var topicKeyParts: (String?, String?) {
        let parts: (String?, String?) = switch type.addressing {
        case .broadcast: (nil, nil)
        case .byDevice: (Routing.owner(of: body), device.map(Topic.bucket(ofDevice:)))
        case .toClient: (Topic.style(of: body)?.rawValue, replyTo)
        case .toInstance: (service, Topic.instance(of: body))
        }
        return parts.0 == nil ? (parts.1, nil) : parts
    }

    /// The trace context in `traceparent`, if there is a valid one.
    public var trace: TraceContext? { traceparent.flatMap(TraceContext.init(traceparent:)) }
}

extension Envelope {
    /// An envelope from its parts, at the current version. Made by the memberwise initializer
    /// (which exists because this one is in an extension): assigned one by one, the members were
    /// built in a temporary envelope, copied out and destroyed, on every message.
    public init(
        id: String, correlationId: String, service: String, device: String?, seq: UInt64, time: String,
        traceparent: String? = nil, parentSpan: String? = nil, replyTo: String? = nil, body: Body
    ) {
        self.init(
            version: Envelope.currentVersion, id: id, correlationId: correlationId, service: service, device: device,
            seq: seq, time: time, traceparent: traceparent, parentSpan: parentSpan, replyTo: replyTo, body: body)
    }
}

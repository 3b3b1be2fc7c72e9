import JSON

/// A few members of a message's JSON, read without decoding it: what the bus needs to judge and
/// route a message (its `service`, `replyTo`, `device`, and from the body what a topic's key
/// depends on: a tap's element or point, a presentation's style), what a client needs to match
/// an answer to its action (`service`, `correlationId`), and what a refusal names. Each is found
/// where it is, whatever the order and spacing of the members (the one JSON reader,
/// `JSONObjectReader`), as the decoders find it (a repeated key's first value); asked for in the
/// order the codec writes them, each is most often the next key. Pure: bytes in, byte ranges out.
public struct EnvelopeView {
    /// What to read.
    public struct Parts: OptionSet, Sendable {
        /// The `OptionSet` bits.
        public let rawValue: UInt8
        /// The parts of `rawValue`'s bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// `replyTo`: an answer's key.
        public static let replyTo = Parts(rawValue: 1)
        /// `device`: a device request's bucket.
        public static let device = Parts(rawValue: 2)
        /// `service`: whether a sender sends as itself.
        public static let service = Parts(rawValue: 4)
        /// The body's `element` and `point`: a tap's owner.
        public static let element = Parts(rawValue: 8)
        /// The body's `presentation`'s `style`: a presentation's key.
        public static let style = Parts(rawValue: 16)
        /// `correlationId`: the action an answer is about.
        public static let correlationId = Parts(rawValue: 32)
        /// `id`: what a refusal's answer names.
        public static let id = Parts(rawValue: 64)
        /// Everything.
        public static let all: Parts = [.replyTo, .device, .service, .element, .style, .correlationId, .id]
    }

    /// `replyTo`'s string, if it has one.
    public var replyTo: JSONReader.Key?
    /// `device`'s string.
    public var device: JSONReader.Key?
    /// `service`'s string.
    public var service: JSONReader.Key?
    /// The body's `element` string.
    public var element: JSONReader.Key?
    /// Whether the body has a `point` that is not `null`.
    public var point = false
    /// The body's `presentation`'s `style` string.
    public var style: JSONReader.Key?
    /// `id`'s string.
    public var id: JSONReader.Key?
    /// `correlationId`'s string.
    public var correlationId: JSONReader.Key?

    /// The `parts` of the JSON object `json`, read as far as they need (the rest is the
    /// receivers' to check); nil when the bytes are not a JSON object as far as they are read.
    /// A part whose value is not a string (or not an object, for the body) is left out.
    public init?(_ json: UnsafeRawBufferPointer, parts: Parts) {
        guard let base = json.baseAddress else { return nil }
        var reader = JSONReader(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: json.count))
        do {
            var object = try JSONObjectReader(&reader)
            // In the order the codec writes them (`EnvelopeCodec.header`); what follows the
            // last part needed is not read.
            if parts.contains(.service) { service = try Self.string("service", &object, &reader) }
            if parts.contains(.correlationId) { correlationId = try Self.string("correlationId", &object, &reader) }
            if parts.contains(.replyTo) { replyTo = try Self.string("replyTo", &object, &reader) }
            if parts.contains(.device) { device = try Self.string("device", &object, &reader) }
            if !parts.isDisjoint(with: [.element, .style]), try object.find("body", &reader) {
                if try reader.kind() == .object {
                    var body = try JSONObjectReader(&reader)
                    if parts.contains(.element) {
                        element = try Self.string("element", &body, &reader)
                        if try body.find("point", &reader) {
                            point = !reader.readNull()
                            if point { try reader.skipValue() }
                            body.taken(&reader)
                        }
                        guard parts.contains(.id) else { return }
                    }
                    if parts.contains(.style), try body.find("presentation", &reader) {
                        if try reader.kind() == .object {
                            var presentation = try JSONObjectReader(&reader)
                            style = try Self.string("style", &presentation, &reader)
                            try presentation.close(&reader)
                        } else {
                            try reader.skipValue()
                        }
                        body.taken(&reader)
                    }
                    try body.close(&reader)
                } else {
                    try reader.skipValue()
                }
                object.taken(&reader)
            }
            if parts.contains(.id) { id = try Self.string("id", &object, &reader) }
        } catch {
            return nil
        }
    }

    /// The string value of member `name`, if there is one and it is a string.
    private static func string(_ name: StaticString, _ object: inout JSONObjectReader, _ reader: inout JSONReader) throws(JSONError) -> JSONReader.Key? {
        guard try object.find(name, &reader) else { return nil }
        defer { object.taken(&reader) }
        guard try reader.kind() == .string else {
            try reader.skipValue()
            return nil
        }
        return try reader.readStringBytes()
    }
}

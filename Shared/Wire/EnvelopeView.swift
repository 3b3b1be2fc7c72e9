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
        /// The body (what `element` and `style` are read from).
        static let body = Parts(rawValue: 128)
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

    /// The `parts` of the JSON object `json`, in one pass over its members that stops once
    /// every part asked for is found (the rest is the receivers' to check); nil when the bytes
    /// are not a JSON object as far as they are read. A part whose value is not a string (or not
    /// an object, for the body) is left out; a repeated key's first value is the one taken.
    public init?(_ json: UnsafeRawBufferPointer, parts: Parts) {
        guard let base = json.baseAddress else { return nil }
        var reader = JSONReader(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: json.count))
        // In bits: sets written as array literals are built in an array at each call.
        let header = Parts.device.rawValue | Parts.service.rawValue | Parts.correlationId.rawValue | Parts.replyTo.rawValue | Parts.id.rawValue
        var missing = Parts(rawValue: parts.rawValue & header)
        if parts.rawValue & (Parts.element.rawValue | Parts.style.rawValue) != 0 { missing.insert(.body) }
        do {
            try reader.beginObject()
            var first = true
            // The member expected next in the codec's order: one absent optional member is
            // stepped over; any other key is read and named in full.
            var expected = 0
            while !missing.isEmpty {
                let part: Parts?
                if let (name, known) = Self.written(expected), reader.nextKeyIs(name, &first) {
                    part = known
                    expected += 1
                } else if let (name, known) = Self.written(expected + 1), reader.nextKeyIs(name, &first) {
                    part = known
                    expected += 2
                } else if let key = try reader.nextKey(&first) {
                    part = Self.part(named: key, reader)
                } else {
                    break
                }
                if let part, missing.contains(part) {
                    missing.remove(part)
                    switch part {
                    case .device: device = try Self.string(&reader)
                    case .service: service = try Self.string(&reader)
                    case .correlationId: correlationId = try Self.string(&reader)
                    case .replyTo: replyTo = try Self.string(&reader)
                    case .id: id = try Self.string(&reader)
                    default: try readBody(&reader, parts: parts)
                    }
                } else {
                    try reader.skipMemberValue()
                }
            }
        } catch {
            return nil
        }
    }

    /// The header's members in the order the codec writes them (`EnvelopeCodec.header`), up
    /// to the last the view reads, each with its part (`nil` for `v` and `type`).
    @inline(__always) private static func written(_ index: Int) -> (StaticString, Parts?)? {
        switch index {
        case 0: ("v", nil)
        case 1: ("type", nil)
        case 2: ("device", .device)
        case 3: ("service", .service)
        case 4: ("correlationId", .correlationId)
        case 5: ("body", .body)
        case 6: ("replyTo", .replyTo)
        case 7: ("id", .id)
        default: nil
        }
    }

    /// The part of the header whose key is `key`, if it is one the view reads.
    private static func part(named key: JSONReader.Key, _ reader: JSONReader) -> Parts? {
        switch key.range.count {
        case 2: reader.key(key, is: "id") ? .id : nil
        case 4: reader.key(key, is: "body") ? .body : nil
        case 6: reader.key(key, is: "device") ? .device : nil
        case 7: reader.key(key, is: "service") ? .service : (reader.key(key, is: "replyTo") ? .replyTo : nil)
        case 13: reader.key(key, is: "correlationId") ? .correlationId : nil
        default: key.escaped ? escapedPart(key, reader) : nil
        }
    }

    /// `part(named:_:)` of a key written with escapes (compared as the text it spells).
    private static func escapedPart(_ key: JSONReader.Key, _ reader: JSONReader) -> Parts? {
        for (name, part) in [("id", Parts.id), ("body", .body), ("device", .device), ("service", .service), ("replyTo", .replyTo), ("correlationId", .correlationId)]
        where reader.text(of: key) == name { return part }
        return nil
    }

    /// The body's `element` and `point`, or its `presentation`'s `style`, from the body that
    /// comes next (anything but an object is passed over), in one pass over its members, each
    /// taken where it first appears (a tap's `element` is most often first).
    private mutating func readBody(_ reader: inout JSONReader, parts: Parts) throws(JSONError) {
        guard try reader.kind() == .object else { return try reader.skipValue() }
        try reader.beginObject()
        var wantsElement = parts.contains(.element), wantsPoint = wantsElement, wantsPresentation = parts.contains(.style)
        var first = true
        while true {
            let member: BodyMember?
            if wantsElement, reader.nextKeyIs("element", &first) {
                member = .element
            } else if let key = try reader.nextKey(&first) {
                member = Self.bodyMember(key, reader)
            } else {
                return
            }
            switch member {
            case .element? where wantsElement:
                wantsElement = false
                element = try Self.string(&reader)
            case .point? where wantsPoint:
                wantsPoint = false
                point = !reader.readNull()
                if point { try reader.skipValue() }
            case .presentation? where wantsPresentation:
                wantsPresentation = false
                try readStyle(&reader)
            default:
                try reader.skipMemberValue()
            }
        }
    }

    /// The members of a body the view reads.
    private enum BodyMember { case element, point, presentation }

    /// The member of a body whose key is `key`, if the view reads it.
    private static func bodyMember(_ key: JSONReader.Key, _ reader: JSONReader) -> BodyMember? {
        if reader.key(key, is: "element") { return .element }
        if reader.key(key, is: "point") { return .point }
        if reader.key(key, is: "presentation") { return .presentation }
        return nil
    }

    /// The `style` of the presentation that comes next (anything but an object is passed over).
    private mutating func readStyle(_ reader: inout JSONReader) throws(JSONError) {
        guard try reader.kind() == .object else { return try reader.skipValue() }
        var presentation = try JSONObjectReader(&reader)
        if try presentation.find("style", &reader) {
            style = try Self.string(&reader)
            presentation.taken(&reader)
        }
        try presentation.close(&reader)
    }

    /// The string that comes next, or nil (and the value passed over) when it is not a string.
    @inline(__always) private static func string(_ reader: inout JSONReader) throws(JSONError) -> JSONReader.Key? {
        guard try reader.stringFollows() else {
            try reader.skipValue()
            return nil
        }
        return try reader.readStringBytes()
    }
}

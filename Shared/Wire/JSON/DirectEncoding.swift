import Domain
/// The hottest envelopes written straight into JSON bytes, without `Encodable`'s containers:
/// `presentation.presented`, `presentation.dismissed` and `ack`, the answers to every action,
/// and the device actions clients send (`device.tap`, `rotate`, `resize`, `select`,
/// `interaction`, `describe`) when they carry no profile.
/// The bytes are the same as `FastJSONEncoder`'s (same keys, same order, absent optionals left
/// out): `DirectEncodingTests` and the fuzzer compare them. A non-finite number makes it give up
/// (nil), and the codec takes the `Encodable` path, which names the field in its error.
enum DirectEncoding {
    /// The JSON of `envelope` when its body is one of the direct types; nil otherwise. Written
    /// in `writer` (emptied first).
    static func encode(_ envelope: Envelope, using writer: JSONWriter = JSONWriter()) -> [UInt8]? {
        write(envelope, into: writer) ? writer.bytes : nil
    }

    /// Writes the JSON of `envelope` in `writer` (emptied first) when its body is one of the
    /// direct types; false otherwise (what the writer holds is then not the envelope).
    static func write(_ envelope: Envelope, into writer: JSONWriter) -> Bool {
        writer.reset()
        do {
            switch envelope.body {
            case .presented(let presented):
                try presentation(presented.presentation, reason: presented.reason, of: envelope, writer)
                writer.write("}}")
            case .dismissed(let dismissed):
                try presentation(dismissed.presentation, reason: dismissed.reason, of: envelope, writer)
                optional(",\"button\":", dismissed.button, writer)
                optional(",\"buttonIndex\":", dismissed.buttonIndex, writer)
                writer.write("}}")
            case .ack(let ack):
                header(envelope, writer)
                writer.write("{\"handled\":\"")
                writer.writeStringContent(ack.handled)
                writer.write("\",\"handledId\":\"")
                writer.writeStringContent(ack.handledId)
                writer.write("\",\"emitted\":")
                strings(ack.emitted, writer)
                writer.write(",\"forwarded\":[")
                for (index, forward) in ack.forwarded.enumerated() {
                    if index > 0 { writer.write(UInt8(ascii: ",")) }
                    writer.write("{\"id\":")
                    writer.writeString(forward.id)
                    writer.write(",\"service\":")
                    writer.writeString(forward.service)
                    writer.write(UInt8(ascii: "}"))
                }
                writer.write(ack.duplicate ? "],\"duplicate\":true}}" : "],\"duplicate\":false}}")
            // The device actions a client sends, without a profile (which travels only with a
            // device's first action, and then takes the `Encodable` path).
            case .tap(let tap) where tap.profile == nil:
                header(envelope, writer)
                writer.write(UInt8(ascii: "{"))
                if let element = tap.element {
                    writer.write("\"element\":")
                    writer.writeString(element)
                }
                if let point = tap.point {
                    writer.write(tap.element == nil ? "\"point\":{\"x\":" : ",\"point\":{\"x\":")
                    try number(point.x, writer)
                    writer.write(",\"y\":")
                    try number(point.y, writer)
                    writer.write(UInt8(ascii: "}"))
                }
                writer.write("}}")
            case .rotate(let rotate) where rotate.profile == nil:
                header(envelope, writer)
                writer.write("{\"orientation\":")
                writer.writeString(rotate.orientation.rawValue)
                writer.write("}}")
            case .resize(let resize) where resize.profile == nil:
                header(envelope, writer)
                writer.write("{\"width\":")
                writer.writeString(resize.width.rawValue)
                if let mode = resize.mode {
                    writer.write(",\"mode\":")
                    writer.writeString(mode.rawValue)
                }
                writer.write("}}")
            case .select(let select) where select.profile == nil:
                header(envelope, writer)
                writer.write("{\"monster\":")
                writer.writeString(select.monster)
                writer.write("}}")
            case .interaction(let interaction) where interaction.profile == nil:
                header(envelope, writer)
                writer.write("{\"element\":")
                writer.writeString(interaction.element)
                writer.write(interaction.enabled ? ",\"enabled\":true}}" : ",\"enabled\":false}}")
            case .describe(let describe) where describe.profile == nil:
                header(envelope, writer)
                writer.write("{}}")
            default:
                return false
            }
        } catch {
            return false
        }
        return true
    }

    /// `{"v":…` up to `"body":`, in `Envelope.encode(to:)`'s order. Each key is written with
    /// the quotes around it and around its string value (`","correlationId":"`): one piece of
    /// text and the value's content per member.
    private static func header(_ envelope: Envelope, _ writer: JSONWriter) {
        if envelope.version == 1, let start = start(of: envelope.type) {
            writer.write(start)
        } else {
            writer.write("{\"v\":")
            writer.writeInteger(envelope.version)
            writer.write(",\"type\":\"")
            writer.writeStringContent(envelope.type.rawValue)
            writer.write("\",\"id\":\"")
        }
        writer.writeStringContent(envelope.id)
        writer.write("\",\"correlationId\":\"")
        writer.writeStringContent(envelope.correlationId)
        writer.write("\",\"service\":\"")
        writer.writeStringContent(envelope.service)
        if let device = envelope.device {
            writer.write("\",\"device\":\"")
            writer.writeStringContent(device)
        }
        writer.write("\",\"seq\":")
        writer.writeInteger(envelope.seq)
        writer.write(",\"time\":\"")
        writer.writeStringContent(envelope.time)
        if let traceparent = envelope.traceparent {
            writer.write("\",\"traceparent\":\"")
            writer.writeStringContent(traceparent)
        }
        if let parentSpan = envelope.parentSpan {
            writer.write("\",\"parentSpan\":\"")
            writer.writeStringContent(parentSpan)
        }
        if let replyTo = envelope.replyTo {
            writer.write("\",\"replyTo\":\"")
            writer.writeStringContent(replyTo)
        }
        writer.write("\",\"body\":")
    }

    /// `{"v":1,"type":"TYPE","id":"` for the types written here (version 1, as `header` checks).
    private static func start(of type: MessageType) -> StaticString? {
        switch type {
        case .presented: "{\"v\":1,\"type\":\"presentation.presented\",\"id\":\""
        case .dismissed: "{\"v\":1,\"type\":\"presentation.dismissed\",\"id\":\""
        case .ack: "{\"v\":1,\"type\":\"ack\",\"id\":\""
        case .tap: "{\"v\":1,\"type\":\"device.tap\",\"id\":\""
        case .rotate: "{\"v\":1,\"type\":\"device.rotate\",\"id\":\""
        case .resize: "{\"v\":1,\"type\":\"device.resize\",\"id\":\""
        case .select: "{\"v\":1,\"type\":\"device.select\",\"id\":\""
        case .interaction: "{\"v\":1,\"type\":\"device.interaction\",\"id\":\""
        case .describe: "{\"v\":1,\"type\":\"device.describe\",\"id\":\""
        default: nil
        }
    }

    /// The header, then a presented or dismissed body's `{"presentation":…,"reason":…` (left open).
    private static func presentation(
        _ presentation: Presentation, reason: String, of envelope: Envelope, _ writer: JSONWriter
    ) throws {
        header(envelope, writer)
        writer.write("{\"presentation\":")
        try write(presentation, writer)
        writer.write(",\"reason\":")
        writer.writeString(reason)
    }

    /// A `Presentation`, written once and then copied (`PresentationBytes`).
    private static func write(_ p: Presentation, _ writer: JSONWriter) throws {
        let json = try PresentationBytes.shared.json(of: p) {
            let own = JSONWriter(capacity: 1024)
            try fields(p, own)
            return own.bytes
        }
        json.withUnsafeBufferPointer { writer.write($0) }
    }

    /// A `Presentation`'s JSON, keys in declaration order, nil optionals left out.
    private static func fields(_ p: Presentation, _ writer: JSONWriter) throws {
        writer.write("{\"style\":")
        writer.writeString(p.style.rawValue)
        writer.write(",\"content\":")
        writer.writeString(p.content.rawValue)
        optional(",\"message\":", p.message, writer)
        writer.write(",\"buttons\":")
        strings(p.buttons, writer)
        writer.write(",\"buttonFrames\":[")
        for (index, frame) in p.buttonFrames.enumerated() {
            if index > 0 { writer.write(UInt8(ascii: ",")) }
            try rect(frame, writer)
        }
        writer.write(UInt8(ascii: "]"))
        optional(",\"cancelButtonIndex\":", p.cancelButtonIndex, writer)
        if let anchor = p.anchor {
            writer.write(",\"anchor\":{\"kind\":")
            writer.writeString(anchor.kind.rawValue)
            writer.write(",\"element\":")
            writer.writeString(anchor.element)
            writer.write(",\"rect\":")
            try rect(anchor.rect, writer)
            writer.write(UInt8(ascii: "}"))
        }
        optional(",\"permittedArrowDirections\":", p.permittedArrowDirections?.rawValue, writer)
        writer.write(",\"arrowDirection\":")
        writer.writeInteger(p.arrowDirection.rawValue)
        if let tip = p.arrowTip {
            writer.write(",\"arrowTip\":{\"x\":")
            try number(tip.x, writer)
            writer.write(",\"y\":")
            try number(tip.y, writer)
            writer.write(UInt8(ascii: "}"))
        }
        writer.write(",\"frame\":")
        try rect(p.frame, writer)
        writer.write(",\"contentSize\":{\"width\":")
        try number(p.contentSize.width, writer)
        writer.write(",\"height\":")
        try number(p.contentSize.height, writer)
        writer.write("},\"passthrough\":")
        strings(p.passthrough, writer)
        writer.write(UInt8(ascii: "}"))
    }

    /// `key` and the string `value`, or nothing for nil (`encodeIfPresent` leaves it out).
    @inline(__always)
    private static func optional(_ key: StaticString, _ value: String?, _ writer: JSONWriter) {
        guard let value else { return }
        writer.write(key)
        writer.writeString(value)
    }

    /// `key` and the integer `value`, or nothing for nil (`encodeIfPresent` leaves it out).
    @inline(__always)
    private static func optional<T: BinaryInteger>(_ key: StaticString, _ value: T?, _ writer: JSONWriter) {
        guard let value else { return }
        writer.write(key)
        writer.writeInteger(value)
    }

    private static func rect(_ r: Rect, _ writer: JSONWriter) throws {
        writer.write("{\"x\":")
        try number(r.x, writer)
        writer.write(",\"y\":")
        try number(r.y, writer)
        writer.write(",\"width\":")
        try number(r.width, writer)
        writer.write(",\"height\":")
        try number(r.height, writer)
        writer.write(UInt8(ascii: "}"))
    }

    @inline(__always)
    private static func number(_ value: Double, _ writer: JSONWriter) throws {
        try writer.writeDouble(value, at: .root)
    }

    private static func strings(_ values: [String], _ writer: JSONWriter) {
        writer.write(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            writer.write(index > 0 ? ",\"" : "\"")
            writer.writeStringContent(value)
            writer.write(UInt8(ascii: "\""))
        }
        writer.write(UInt8(ascii: "]"))
    }
}

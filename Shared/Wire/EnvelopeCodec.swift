import Domain
import Glibc
import JSON

/// Envelopes to and from their two frames on the bus: the topic and the JSON. The header is
/// the codec's own (written and checked here, once); the body is its type's fields
/// (`FieldSet`), read and written with the one JSON reader and writer (`JSONFields`).
///
/// Each hop's topic key is derived once: a device request's by the bus (its sender, a client,
/// writes only the type; the bus writes the bucket and the owner), an answer's by its sender
/// (the asking client's address, a presentation's style first: `topicFrame(of:)`), which only
/// the components publish. Receivers trust the key they are given.
public struct EnvelopeCodec: Sendable {
    /// The largest JSON frame accepted (also set as `ZMQ_MAXMSGSIZE` on the bus's frontend).
    public let maxMessageBytes: Int

    /// A codec refusing JSON frames over `maxMessageBytes`.
    public init(maxMessageBytes: Int = 65_536) {
        self.maxMessageBytes = maxMessageBytes
    }

    // MARK: Writing

    /// The JSON of `envelope`, or `non-finite` when a number in it is NaN or infinite: JSON
    /// cannot carry those, and no peer could read the message, so it is never written.
    public func encode(_ envelope: Envelope, using writer: JSONWriter = JSONWriter()) throws(MessageError) -> [UInt8] {
        _ = try write(envelope, into: writer)
        return writer.bytes
    }

    /// Writes the JSON of `envelope` in `writer` (emptied first) and returns its topic frame,
    /// for a sender that publishes straight from the writer's bytes (`JSONWriter.withBytes`).
    public func write(_ envelope: Envelope, into writer: JSONWriter) throws(MessageError) -> [UInt8] {
        var memo: BodyMemo?
        var topics: TopicMemo?
        return try write(envelope, into: writer, memo: &memo, topics: &topics)
    }

    /// `write(_:into:)`, the topic frame taken from `topics` when it holds one made of the same
    /// parts, else made and offered to it.
    public func write(_ envelope: Envelope, into writer: JSONWriter, topics: inout TopicMemo?) throws(MessageError) -> [UInt8] {
        var memo: BodyMemo?
        return try write(envelope, into: writer, memo: &memo, topics: &topics)
    }

    /// `write(_:into:)`, the body's JSON copied from `memo` when it holds an equal body, else
    /// written and offered to it.
    public func write(_ envelope: Envelope, into writer: JSONWriter, memo: inout BodyMemo?) throws(MessageError) -> [UInt8] {
        var topics: TopicMemo?
        return try write(envelope, into: writer, memo: &memo, topics: &topics)
    }

    /// `write(_:into:memo:)` and `write(_:into:topics:)` at once.
    public func write(_ envelope: Envelope, into writer: JSONWriter, memo: inout BodyMemo?, topics: inout TopicMemo?) throws(MessageError) -> [UInt8] {
        writer.reset()
        // The members in `header`'s order: what the bus and clients read without decoding first
        // (the bus reads a device request no further than its body), the bookkeeping after.
        writer.write("{\"v\":")
        writer.writeInteger(envelope.version)
        writer.write(",\"type\":\"")
        writer.writeStringContent(envelope.type.rawValue)
        if let device = envelope.device {
            writer.write("\",\"device\":\"")
            writer.writeStringContent(device)
        }
        writer.write("\",\"service\":\"")
        writer.writeStringContent(envelope.service)
        writer.write("\",\"correlationId\":\"")
        writer.writeStringContent(envelope.correlationId)
        writer.write("\",\"body\":")
        if let json = memo?.json(of: envelope.body) {
            json.withUnsafeBufferPointer { writer.write($0) }
        } else {
            let start = writer.count
            var body = JSONFieldWriter(writer)
            do {
                try envelope.body.write(to: &body)
            } catch {
                throw MessageError(
                    .nonFinite, "\(envelope.type.rawValue): field '\(error.inside("body").field)': \(error.reason): it cannot be sent",
                    offendingId: envelope.id)
            }
            if memo != nil { writer.withBytes { memo!.remember(envelope.body, json: UnsafeBufferPointer(rebasing: $0[start...])) } }
        }
        if let replyTo = envelope.replyTo {
            writer.write(",\"replyTo\":\"")
            writer.writeStringContent(replyTo)
            writer.write("\",\"id\":\"")
        } else {
            writer.write(",\"id\":\"")
        }
        writer.writeStringContent(envelope.id)
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
        writer.write("\"}")
        return Self.topicFrame(of: envelope, topics: &topics)
    }

    /// The topic frame a sender writes: an answer's type and key (`Envelope.topicKey`: its
    /// presentation's style first, then its `replyTo`), a message for one instance its type and
    /// key too, any other message's type alone (the bus keys a device's request, and a broadcast
    /// has no key). One with a `replyTo` or for one instance is taken from `topics` when it holds it.
    static func topicFrame(of envelope: Envelope, topics: inout TopicMemo?) -> [UInt8] {
        let type = envelope.type
        if type.addressing == .toInstance {
            // The service, then the instance (`Envelope.topicKeyParts`).
            guard let instance = Topic.instance(of: envelope.body) else { return Topic.frame(type, envelope.service) }
            let make = { Topic.frame(type, envelope.service, instance) }
            guard topics != nil else { return make() }
            return topics!.frame(type, style: nil, service: envelope.service, key: instance, make: make)
        }
        guard type.addressing == .toClient else { return type.topicFrame }
        let style = Topic.style(of: envelope.body)
        guard let replyTo = envelope.replyTo else { return style.map { Topic.frame(type, $0.rawValue) } ?? type.topicFrame }
        let make = { Topic.frame(type, style?.rawValue ?? replyTo, style == nil ? nil : replyTo) }
        guard topics != nil else { return make() }
        return topics!.frame(type, style: style, key: replyTo, make: make)
    }

    /// The frames of `envelope` on the wire: its topic (`topicFrame(of:)`) and its JSON; for a
    /// `shard.replica`, the device's state as a third frame (empty when absent: `Replica.snapshot`).
    public func frames(_ envelope: Envelope, using writer: JSONWriter = JSONWriter()) throws(MessageError) -> [[UInt8]] {
        let topic = try write(envelope, into: writer)
        return Self.frames(topic, envelope, writer)
    }

    /// `frames(_:using:)`, the body's JSON copied from `memo` when it holds an equal body.
    public func frames(_ envelope: Envelope, using writer: JSONWriter, memo: inout BodyMemo?) throws(MessageError) -> [[UInt8]] {
        let topic = try write(envelope, into: writer, memo: &memo)
        return Self.frames(topic, envelope, writer)
    }

    /// `frames(_:using:memo:)`, the topic frame taken from `topics` when it holds it.
    public func frames(_ envelope: Envelope, using writer: JSONWriter, memo: inout BodyMemo?, topics: inout TopicMemo?) throws(MessageError) -> [[UInt8]] {
        let topic = try write(envelope, into: writer, memo: &memo, topics: &topics)
        return Self.frames(topic, envelope, writer)
    }

    /// `topic`, the JSON `writer` holds, and a replica's state frame.
    private static func frames(_ topic: [UInt8], _ envelope: Envelope, _ writer: JSONWriter) -> [[UInt8]] {
        guard case .replica(let replica) = envelope.body else { return [topic, writer.bytes] }
        return [topic, writer.bytes, replica.snapshot?.bytes ?? []]
    }

    /// A member of the envelope, for the contract: its name, whether every envelope has it,
    /// and its JSON type.
    public struct HeaderField: Sendable {
        /// The JSON types of the envelope's members.
        public enum Kind: Sendable { case string, integer, object }
        /// The member's key.
        public let name: String
        /// Whether every envelope has it.
        public let required: Bool
        /// Its JSON type.
        public let kind: Kind
    }

    /// The envelope's members in the order `write` writes and `read` reads them
    /// (`EnvelopeCodecTests` holds the three to the same list).
    public static let header: [HeaderField] = [
        HeaderField(name: "v", required: true, kind: .integer),
        HeaderField(name: "type", required: true, kind: .string),
        HeaderField(name: "device", required: false, kind: .string),
        HeaderField(name: "service", required: true, kind: .string),
        HeaderField(name: "correlationId", required: true, kind: .string),
        HeaderField(name: "body", required: true, kind: .object),
        HeaderField(name: "replyTo", required: false, kind: .string),
        HeaderField(name: "id", required: true, kind: .string),
        HeaderField(name: "seq", required: true, kind: .integer),
        HeaderField(name: "time", required: true, kind: .string),
        HeaderField(name: "traceparent", required: false, kind: .string),
        HeaderField(name: "parentSpan", required: false, kind: .string),
    ]

    // MARK: Reading

    /// An envelope as received, and its `time` as seconds since 1970 (parsed once, to check it).
    public struct Received: Sendable {
        /// The message.
        public var envelope: Envelope
        /// When it says it was sent.
        public var sent: Double
        /// Both, for a caller that takes them apart.
        public var parts: (Envelope, Double) { (envelope, sent) }
    }

    /// The envelope in `frames` (topic, JSON), or why they are not one.
    public func decode(frames: [[UInt8]]) throws(MessageError) -> Envelope {
        try receive(frames: frames).envelope
    }

    /// The envelope in `frames` (topic, JSON) and its sending time, or why they are not one. The
    /// topic's key is the bus's to write, and trusted; its type part must be the message's type
    /// (the bus judged who may publish it by that part).
    public func receive(frames: [[UInt8]]) throws(MessageError) -> Received {
        var recent = TextMemo()
        return try receive(frames: frames, recent: &recent)
    }

    /// `receive(frames:)` by a receiver that keeps `recent` from message to message: a `replyTo`
    /// the same as the last one's is that text again, not a new one. A `shard.replica` has its
    /// state as a third frame and may carry an acknowledgement as two more (`Replica`): the
    /// state is taken as it came, the acknowledgement is a message of its own and left out.
    public func receive(frames: [[UInt8]], recent: inout TextMemo) throws(MessageError) -> Received {
        guard frames.count == 2 || Self.isUpdate(frames) else {
            throw MessageError(.badFrames, "a message has 2 frames (topic, JSON), a shard.replica 3 or 5; this one has \(frames.count)")
        }
        var received = try receive(frames[1], recent: &recent)
        let type = received.envelope.type
        guard Topic.hasType(frames[0], type) else {
            throw MessageError(
                .topicMismatch,
                "topic '\(Self.excerpt(frames[0]))' is not the message's type '\(type.rawValue)' (a topic is the type, then its key)",
                offendingId: received.envelope.id)
        }
        if case .replica(var replica) = received.envelope.body {
            guard frames.count > 2 else {
                throw MessageError(.badFrames, "a shard.replica has its state as a third frame; this one has 2 frames", offendingId: received.envelope.id)
            }
            replica.snapshot = frames[2].isEmpty ? nil : NestedValue(bytes: frames[2])
            received.envelope.body = .replica(replica)
        }
        return received
    }

    /// The envelope in `json`, or why it is not one.
    public func decode(_ json: [UInt8]) throws(MessageError) -> Envelope {
        try receive(json).envelope
    }

    /// The envelope in `json` and its sending time, or why it is not one.
    public func receive(_ json: [UInt8]) throws(MessageError) -> Received {
        var recent = TextMemo()
        return try receive(json, recent: &recent)
    }

    /// `receive(_:)`, a `replyTo` the same as `recent`'s taken from it (`receive(frames:recent:)`).
    public func receive(_ json: [UInt8], recent: inout TextMemo) throws(MessageError) -> Received {
        guard json.count <= maxMessageBytes else {
            throw MessageError(.tooLarge, "message of \(json.count) bytes exceeds the limit of \(maxMessageBytes)")
        }
        return try json.withUnsafeBufferPointer { bytes throws(MessageError) in
            guard JSONReader.isUTF8(bytes) else { throw MessageError(.badUTF8, "message is not valid UTF-8") }
            return try Self.reading(bytes) { reader in
                let received = try Self.read(&reader, recent: &recent)
                try reader.json.finish()
                return received
            }
        }
    }

    /// What `read` makes of the JSON `bytes`; what it throws a `MessageError` naming the
    /// message's id when it can be read.
    @inline(__always)
    static func reading<Value>(_ bytes: UnsafeBufferPointer<UInt8>, _ read: (inout JSONFieldReader) throws -> Value) throws(MessageError) -> Value {
        var reader = JSONFieldReader(JSONReader(bytes))
        do {
            return try read(&reader)
        } catch let error as JSONError {
            throw explain(error, offendingId: offendingId(in: bytes))
        } catch let error as MessageError {
            var error = error
            if error.offendingId == nil { error.offendingId = offendingId(in: bytes) }
            throw error
        } catch {
            preconditionFailure("reading an envelope threw \(error)")
        }
    }

    /// The envelope that comes next in `reader`, read member by member in the order they are
    /// written (`header`), as they are most often found, then checked.
    private static func read(_ reader: inout JSONFieldReader, recent: inout TextMemo) throws -> Received {
        var header = try HeaderReader(&reader)
        let version = try header.version()
        let type = try header.type()
        let device = try header.optionalString("device")
        let service = try header.string("service")
        let correlationIdBytes = try header.stringBytes("correlationId")
        try header.required("body")
        let body: Body
        do { body = try Body.read(type, from: &header.reader) } catch { throw error.inside("body") }
        header.taken()
        let replyTo = try header.optionalString("replyTo", recent: &recent)
        let idBytes = try header.stringBytes("id")
        try header.required("seq")
        let seq: UInt64
        do { seq = try header.reader.json.readInteger(UInt64.self) } catch { throw error.inside("seq") }
        header.taken()
        let time = try header.string("time")
        let traceparent = try header.optionalString("traceparent")
        let parentSpan = try header.optionalString("parentSpan")
        let id = header.text(idBytes)
        // An action is its own correlation: one text holds both.
        let correlationId = header.same(correlationIdBytes, idBytes) ? id : header.text(correlationIdBytes)
        // Text of printable ASCII alone (what every id is written with) holds no control character.
        if !id.printable { try Identifier.check(id.text, field: "id") }
        if !correlationId.printable { try Identifier.check(correlationId.text, field: "correlationId") }
        if !service.printable { try Identifier.check(service.text, field: "service") }
        if let device, !device.printable { try Identifier.check(device.text, field: "device") }
        if let replyTo, !replyTo.printable { try Identifier.check(replyTo.text, field: "replyTo") }
        guard let sent = Timestamp.parse(time.text) else {
            throw MessageError(.badTime, "field 'time' is not an RFC 3339 timestamp such as 2026-11-30T03:14:39.123Z: '\(time.text.prefix(40))'")
        }
        try header.object.close(&header.reader.json)
        reader = header.reader
        guard !id.text.isEmpty, !correlationId.text.isEmpty, !service.text.isEmpty else {
            throw MessageError(.badShape, "id, correlationId and service must not be empty")
        }
        if let device { try checkDevice(device.text) }
        if let traceparent, !TraceContext.isValid(traceparent: traceparent.text) {
            throw MessageError(.badShape, "traceparent must be 00-<32 hex trace id>-<16 hex span id>-<2 hex flags> (W3C Trace Context)")
        }
        if let parentSpan, !TraceContext.isSpanId(parentSpan.text) {
            throw MessageError(.badShape, "parentSpan must be a span id: 16 lowercase hex digits, not all zero")
        }
        if let replyTo, !Envelope.isAddress(replyTo.text) {
            throw MessageError(.badShape, "replyTo is a client's address: 1 to 64 bytes of UTF-8 without '/'")
        }
        let envelope = Envelope(
            version: version, id: id.text, correlationId: correlationId.text, service: service.text, device: device?.text, seq: seq,
            time: time.text, traceparent: traceparent?.text, parentSpan: parentSpan?.text, replyTo: replyTo?.text, body: body)
        return Received(envelope: envelope, sent: sent)
    }

    /// Refuses a device id that is empty or longer than 64 bytes.
    static func checkDevice(_ device: String) throws(MessageError) {
        guard !device.isEmpty, device.utf8.count <= 64 else { throw MessageError(.badShape, "a device id has 1 to 64 bytes of UTF-8") }
    }

    /// The envelope's object as `read` takes it member by member: a plain value, so that its
    /// steps need no captured state.
    struct HeaderReader {
        var reader: JSONFieldReader
        var object: JSONObjectReader

        /// Enters the envelope's object that comes next in `reader`.
        @inline(__always) init(_ reader: inout JSONFieldReader) throws {
            object = try JSONObjectReader(&reader.json)
            self.reader = reader
        }

        /// `v`, which must be the version this codec reads.
        @inline(__always) mutating func version() throws -> Int {
            try required("v")
            let version: Int
            do { version = try reader.json.readInteger(Int.self) } catch { throw error.inside("v") }
            taken()
            guard version == Envelope.currentVersion else {
                throw MessageError(.unsupportedVersion, "version \(version) is not supported (this reads version \(Envelope.currentVersion))")
            }
            return version
        }

        /// `type`, a type of the vocabulary.
        @inline(__always) mutating func type() throws -> MessageType {
            try required("type")
            let name: JSONReader.Key
            do { name = try reader.json.readStringBytes() } catch { throw error.inside("type") }
            guard let type = MessageType.named(name, in: reader.json) else {
                throw MessageError(.unknownType, "unknown message type '\(reader.json.text(of: name).prefix(60))'")
            }
            taken()
            return type
        }

        /// A string member's text, and whether it is printable ASCII (no escape, no DEL, no
        /// byte above 0x7F; JSON text has no raw control character).
        struct Text {
            let text: String
            let printable: Bool
        }

        /// Finds the member `name`, which must be there and not `null`.
        @inline(__always) mutating func required(_ name: StaticString) throws {
            guard try object.find(name, &reader.json) else { throw JSONError(.missing, "missing", path: [name.description]) }
            guard !reader.json.readNull() else { throw JSONError(.missing, "null", path: [name.description]) }
        }

        /// After the value found has been read.
        @inline(__always) mutating func taken() { object.taken(&reader.json) }

        /// The required string member `name`.
        @inline(__always) mutating func string(_ name: StaticString) throws -> Text {
            text(try stringBytes(name))
        }

        /// The required string member `name`, as it is in the text (`text(_:)` makes it).
        @inline(__always) mutating func stringBytes(_ name: StaticString) throws -> JSONReader.Key {
            try required(name)
            let content: JSONReader.Key
            do { content = try reader.json.readStringBytes() } catch { throw error.inside(name.description) }
            taken()
            return content
        }

        /// The string member `name`, `nil` when absent or `null`; taken from `recent` when the
        /// same as its text.
        @inline(__always) mutating func optionalString(_ name: StaticString, recent: UnsafeMutablePointer<TextMemo>? = nil) throws -> Text? {
            guard try object.find(name, &reader.json) else { return nil }
            defer { taken() }
            if reader.json.readNull() { return nil }
            let content: JSONReader.Key
            do { content = try reader.json.readStringBytes() } catch { throw error.inside(name.description) }
            return text(content, recent: recent)
        }

        /// The text of the string `content`.
        @inline(__always) func text(_ content: JSONReader.Key, recent: UnsafeMutablePointer<TextMemo>? = nil) -> Text {
            if content.escaped { return Text(text: reader.json.text(of: content), printable: false) }
            let bytes = UnsafeBufferPointer(rebasing: reader.json.bytes[content.range])
            let clean = ByteWords.skipClean(bytes, from: 0, ByteWords.hasDeleteOrNonASCII)
            let text = recent?.pointee.text(of: bytes) ?? reader.json.text(content.range)
            return Text(text: text, printable: bytes[clean...].allSatisfy { $0 < 0x7F })
        }

        /// Whether the strings `one` and `other` are the same bytes, neither escaped.
        @inline(__always) func same(_ one: JSONReader.Key, _ other: JSONReader.Key) -> Bool {
            let count = one.range.count
            guard !one.escaped, !other.escaped, count == other.range.count else { return false }
            return count == 0 || memcmp(reader.json.bytes.baseAddress! + one.range.lowerBound, reader.json.bytes.baseAddress! + other.range.lowerBound, count) == 0
        }
    }

    /// A `MessageError` for a `JSONError`, naming the field at fault.
    private static func explain(_ error: JSONError, offendingId: String?) -> MessageError {
        switch error.kind {
        case .missing where error.reason == "null":
            MessageError(.missingField, "field '\(error.field)' is null", offendingId: offendingId)
        case .missing:
            MessageError(.missingField, "missing field '\(error.field)'", offendingId: offendingId)
        case .type:
            MessageError(.badShape, error.path.isEmpty ? "the message \(error.reason)" : "field '\(error.field)' \(error.reason)", offendingId: offendingId)
        case .value:
            MessageError(.badShape, "field '\(error.field)': \(error.reason)", offendingId: offendingId)
        case .syntax:
            MessageError(.badJSON, "message is not JSON: \(error.reason)", offendingId: offendingId)
        case .nonFinite:
            MessageError(.nonFinite, "field '\(error.field)': \(error.reason)", offendingId: offendingId)
        }
    }

    /// The `id` of a message that failed to decode, if its JSON has a string one that is a
    /// valid id (one with control characters is not repeated: it would be refused in turn).
    private static func offendingId(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var reader = JSONReader(bytes)
        guard var object = try? JSONObjectReader(&reader), (try? object.find("id", &reader)) == true,
              let id = try? reader.readString(), Identifier.controlCharacter(in: id) == nil else { return nil }
        return id
    }

    /// The printable start of `bytes` (up to 60 characters), to recognise a message by.
    public static func excerpt(_ bytes: [UInt8]) -> String {
        var text = ""
        for byte in bytes.prefix(60) {
            if byte >= 0x20 && byte < 0x7f && byte != UInt8(ascii: "\\") {
                text.append(Character(Unicode.Scalar(byte)))
            } else {
                let hex = String(byte, radix: 16)
                text += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return bytes.count > 60 ? text + "…" : text
    }
}

extension MessageType {
    /// The type whose name is the string `name` of `reader`'s text, if there is one.
    static func named(_ name: JSONReader.Key, in reader: JSONReader) -> MessageType? {
        guard !name.escaped else { return MessageType(rawValue: reader.text(of: name)) }
        let count = name.range.count
        guard count < byLength.count else { return nil }
        let bytes = reader.bytes.baseAddress! + name.range.lowerBound
        for type in byLength[count] where count == 0 || type.utf8.withUnsafeBufferPointer({ memcmp($0.baseAddress!, bytes, count) == 0 }) {
            return type.type
        }
        return nil
    }

    /// Every type with its name's UTF-8, by the name's length.
    private static let byLength: [[(type: MessageType, utf8: [UInt8])]] = {
        var table = Array(repeating: [(type: MessageType, utf8: [UInt8])](), count: 1 + allCases.map(\.rawValue.utf8.count).max()!)
        for type in allCases { table[type.rawValue.utf8.count].append((type, Array(type.rawValue.utf8))) }
        return table
    }()

    /// The topic frame a sender writes: the type's name (the bus adds the key).
    public var topicFrame: [UInt8] { Self.frames[ordinal] }

    private static let frames: [[UInt8]] = allCases.map { Array($0.rawValue.utf8) }

    /// The type's place in `allCases`.
    private var ordinal: Int {
        switch self {
        case .tap: 0
        case .rotate: 1
        case .resize: 2
        case .select: 3
        case .interaction: 4
        case .describe: 5
        case .forget: 6
        case .forgotten: 7
        case .presented: 8
        case .hidden: 9
        case .dismissed: 10
        case .moved: 11
        case .interactionChanged: 12
        case .unchanged: 13
        case .outcome: 14
        case .inputPassed: 15
        case .mediaAddRequested: 16
        case .colorSelected: 17
        case .deviceLayout: 18
        case .deviceState: 19
        case .inputTap: 20
        case .inputShown: 21
        case .inputHidden: 22
        case .weaponSelected: 23
        case .inputState: 24
        case .snapshotRequest: 25
        case .snapshot: 26
        case .rosterSelect: 27
        case .selection: 28
        case .monsterUpdated: 29
        case .backupRequest: 30
        case .backup: 31
        case .ping: 32
        case .pong: 33
        case .heartbeat: 34
        case .statusRequest: 35
        case .statusReport: 36
        case .lossReport: 37
        case .ack: 38
        case .error: 39
        case .replica: 40
        }
    }
}

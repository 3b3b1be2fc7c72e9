import Domain
import Glibc

/// Turns envelopes into frames (`[topic, JSON]`) and back, rejecting anything malformed with a
/// `MessageError` that says why. The JSON is written and read by `FastJSONEncoder` and
/// `FastJSONDecoder` (Foundation's coders cost several times more per message; the tests and
/// the fuzzer hold the two to the same results); the hottest envelopes are written and read
/// directly (`DirectEncoding`, `DirectDecoding`).
public struct EnvelopeCodec: Sendable {
    /// The largest JSON frame accepted (also set as `ZMQ_MAXMSGSIZE` on the bus's frontend).
    public let maxMessageBytes: Int

    /// A codec refusing JSON frames over `maxMessageBytes`.
    public init(maxMessageBytes: Int = 65_536) {
        self.maxMessageBytes = maxMessageBytes
    }

    /// The JSON of `envelope`, or `non-finite` when a number in it is NaN or infinite: JSON
    /// cannot carry those, and no peer could decode the message, so it is never written.
    /// The answers to every action are written in `writer` (a sender's own, reused).
    public func encode(_ envelope: Envelope, using writer: JSONWriter = JSONWriter()) throws(MessageError) -> [UInt8] {
        // The answers to every action, written directly (the same bytes, a fraction of the cost).
        if let direct = DirectEncoding.encode(envelope, using: writer) { return direct }
        return try encodeThroughEncodable(envelope)
    }

    /// Writes the JSON of `envelope` in `writer` (what `encode` returns) and returns its topic
    /// frame (the first of `frames`, one of the sender's recent `topics` when it is the same):
    /// for a sender that publishes the JSON straight from the writer's bytes (`JSONWriter.withBytes`),
    /// without an array of its own.
    public func write(_ envelope: Envelope, into writer: JSONWriter, topics: inout TopicFrames) throws(MessageError) -> [UInt8] {
        if !DirectEncoding.write(envelope, into: writer) {
            let json = try encodeThroughEncodable(envelope)
            writer.reset()
            json.withUnsafeBufferPointer { writer.write($0) }
        }
        return topics.frame(of: envelope)
    }

    /// The JSON of `envelope` written through `Encodable`; `non-finite` for a number JSON cannot carry.
    private func encodeThroughEncodable(_ envelope: Envelope) throws(MessageError) -> [UInt8] {
        do {
            return try FastJSONEncoder.encode(envelope)
        } catch EncodingError.invalidValue(let value, let context) {
            let field = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            throw MessageError(
                .nonFinite, "\(envelope.type.rawValue): field '\(field)' is \(value), not a finite number: it cannot be sent",
                offendingId: envelope.id)
        } catch {
            // Bodies are made of strings, numbers, booleans and arrays of them: nothing else fails.
            preconditionFailure("an envelope failed to encode: \(error)")
        }
    }

    /// The two frames of `envelope` on the wire: its topic (`Envelope.topic`: the type, keyed
    /// as its addressing says), then its JSON (written in `writer`, as `encode` does); `non-finite`
    /// when it holds a number JSON cannot carry.
    public func frames(_ envelope: Envelope, using writer: JSONWriter = JSONWriter()) throws(MessageError) -> [[UInt8]] {
        [Self.topicFrame(of: envelope), try encode(envelope, using: writer)]
    }

    /// `frames(_:using:)`, the topic frame taken from the sender's recent `topics` when it is
    /// the same (a sender publishing answers action after action).
    public func frames(_ envelope: Envelope, using writer: JSONWriter, topics: inout TopicFrames) throws(MessageError) -> [[UInt8]] {
        [topics.frame(of: envelope), try encode(envelope, using: writer)]
    }

    /// The topic frame of `envelope` (`Envelope.topic`), written in one go from its key's parts
    /// (`Envelope.topicKeyParts`), without joining them first.
    static func topicFrame(of envelope: Envelope) -> [UInt8] {
        let (key, then) = envelope.topicKeyParts
        return topicFrame(envelope.type, key: key, then: then)
    }

    /// The topic frame `type`, `type/key` or `type/key/then`, written in one go.
    static func topicFrame(_ type: MessageType, key: String?, then: String? = nil) -> [UInt8] {
        withTopicParts(type, key: key, then: then) { name, key, then, count in
            [UInt8](unsafeUninitializedCapacity: count) { frame, written in
                var at = 0
                func append(_ part: UnsafeBufferPointer<UInt8>) {
                    _ = UnsafeMutableBufferPointer(rebasing: frame[at..<(at + part.count)]).initialize(from: part)
                    at += part.count
                }
                append(name)
                if let key { frame[at] = Topic.separator; at += 1; append(key) }
                if let then { frame[at] = Topic.separator; at += 1; append(then) }
                written = count
            }
        }
    }

    /// Whether `topic` is the topic frame `type`, `type/key` when `key` is given, or
    /// `type/key/then` when `then` is given too — compared in place, nothing joined.
    static func topic(_ topic: [UInt8], is type: MessageType, key: String?, then: String? = nil) -> Bool {
        topic.withUnsafeBufferPointer { topic in
            withTopicParts(type, key: key, then: then) { name, key, then, count in
                guard topic.count == count, holds(topic, name, at: 0) else { return false }
                var at = name.count
                if let key {
                    guard topic[at] == Topic.separator, holds(topic, key, at: at + 1) else { return false }
                    at += 1 + key.count
                }
                guard let then else { return true }
                return topic[at] == Topic.separator && holds(topic, then, at: at + 1)
            }
        }
    }

    /// Calls `body` with the UTF-8 of a topic frame's parts — `type`'s name, then `key` and
    /// `then` when given — and the frame's length (parts and separators), borrowed, not copied.
    @inline(__always)
    private static func withTopicParts<Result>(
        _ type: MessageType, key: String?, then: String?,
        _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>?, UnsafeBufferPointer<UInt8>?, Int) -> Result
    ) -> Result {
        let keyed = key != nil, followed = then != nil
        var name = type.rawValue, key = key ?? "", then = then ?? ""
        return name.withUTF8 { name in
            key.withUTF8 { key in
                then.withUTF8 { then in
                    let count = name.count + (keyed ? 1 + key.count : 0) + (followed ? 1 + then.count : 0)
                    return body(name, keyed ? key : nil, followed ? then : nil, count)
                }
            }
        }
    }

    /// Whether `bytes` holds `part` from `start` (the caller has checked that it fits).
    private static func holds(_ bytes: UnsafeBufferPointer<UInt8>, _ part: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        part.isEmpty || memcmp(bytes.baseAddress! + start, part.baseAddress!, part.count) == 0
    }

    /// The envelope in `frames`, or why they are not one.
    public func decode(frames: [[UInt8]]) throws(MessageError) -> Envelope {
        var replyTo = RecentText()
        return try decode(frames: frames, replyTo: &replyTo)
    }

    /// `decode(frames:)`, the envelope's `replyTo` taken from `replyTo` (the receiver's last)
    /// when it is the same: a client's actions all carry the same.
    public func decode(frames: [[UInt8]], replyTo: inout RecentText) throws(MessageError) -> Envelope {
        var sent = 0.0
        return try decode(frames: frames, replyTo: &replyTo, sent: &sent)
    }

    /// `decode(frames:replyTo:)`, and the envelope's `time` as seconds since 1970 in `sent`
    /// (what `Timestamp.parse` gives for it: the decoder parses it once to check it, so that the
    /// receiver need not parse it again, e.g. for `DeliveryWindow.check(id:sent:now:)`).
    public func decode(frames: [[UInt8]], replyTo: inout RecentText, sent: inout Double) throws(MessageError) -> Envelope {
        guard frames.count == 2 else {
            throw MessageError(.badFrames, "a message has 2 frames (topic, JSON), this one has \(frames.count)")
        }
        let envelope = try decode(frames[1], replyTo: &replyTo, sent: &sent)
        let topic = frames[0]
        // The bare type (its length first: the bus keys the topics of requests), or exactly
        // `type/key` with the key its addressing gives this envelope.
        if topic.count == envelope.type.rawValue.utf8.count, Self.topic(topic, is: envelope.type, key: nil) { return envelope }
        let (first, second) = envelope.topicKeyParts
        if first != nil, Self.topic(topic, is: envelope.type, key: first, then: second) { return envelope }
        let key = envelope.topicKey
        let expected = key.map { "'\(envelope.type.rawValue)' or '\(envelope.type.rawValue)/\($0)'" } ?? "'\(envelope.type.rawValue)'"
        throw MessageError(
            .topicMismatch,
            "topic '\(Self.excerpt(topic))' does not match the message: expected \(expected) (the type, or the type and its key: the device's bucket for a device's request, the replyTo address for an answer)",
            offendingId: envelope.id)
    }

    /// The envelope in `json`, or why it is not one.
    public func decode(_ json: [UInt8]) throws(MessageError) -> Envelope {
        var (replyTo, sent) = (RecentText(), 0.0)
        return try decode(json, replyTo: &replyTo, sent: &sent)
    }

    /// `decode(_:)`, the envelope's `replyTo` taken from `replyTo` when it is the same (when read
    /// directly), and its `time` as seconds since 1970 in `sent`.
    func decode(_ json: [UInt8], replyTo: inout RecentText, sent: inout Double) throws(MessageError) -> Envelope {
        guard json.count <= maxMessageBytes else {
            throw MessageError(.tooLarge, "message of \(json.count) bytes exceeds the limit of \(maxMessageBytes)")
        }
        guard Self.isUTF8(json) else {
            throw MessageError(.badUTF8, "message is not valid UTF-8")
        }
        // The actions and their answers, read directly (nil for anything else, errors included).
        if let direct = DirectDecoding.decode(json, replyTo: &replyTo, sent: &sent) { return direct }
        let envelope = try decodeThroughDecodable(json)
        // `Envelope.init(from:)` refused any time `Timestamp.parse` does not read.
        sent = Timestamp.parse(envelope.time) ?? .nan
        return envelope
    }

    /// Whether `json` is valid UTF-8: ASCII (nearly every message) checked 8 bytes at a time,
    /// anything else by the standard library.
    static func isUTF8(_ json: [UInt8]) -> Bool {
        let ascii = json.withUnsafeBufferPointer { bytes in
            // Four words to a test while all is ASCII, then word by word from the first that is not.
            var start = 0
            if let base = bytes.baseAddress {
                let raw = UnsafeRawPointer(base)
                while start + 32 <= bytes.count {
                    let words = raw.loadUnaligned(fromByteOffset: start, as: UInt64.self) | raw.loadUnaligned(fromByteOffset: start + 8, as: UInt64.self)
                        | raw.loadUnaligned(fromByteOffset: start + 16, as: UInt64.self) | raw.loadUnaligned(fromByteOffset: start + 24, as: UInt64.self)
                    if ByteWords.hasNonASCII(words) { break }
                    start += 32
                }
            }
            return bytes[ByteWords.skipClean(bytes, from: start, ByteWords.hasNonASCII)...].allSatisfy { $0 < 0x80 }
        }
        return ascii || String(validating: json, as: UTF8.self) != nil
    }

    /// The envelope in `json` (valid UTF-8, within the size limit) read through `Decodable`: every
    /// type, and the errors. `DirectDecoding` must agree with it (tests and the fuzzer compare them).
    func decodeThroughDecodable(_ json: [UInt8]) throws(MessageError) -> Envelope {
        do {
            return try FastJSONDecoder.decode(Envelope.self, from: json)
        } catch var error as MessageError {
            error.offendingId = offendingId(in: json)
            throw error
        } catch let error as DecodingError {
            throw Self.explain(error, offendingId: offendingId(in: json))
        } catch {
            throw MessageError(.badJSON, "message is not JSON: \(error)")
        }
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

    /// The `id` of a message that failed to decode, if its JSON has a string one that is a
    /// valid id (one with control characters is not repeated: it would be refused in turn).
    private func offendingId(in json: [UInt8]) -> String? {
        struct IdOnly: Decodable { let id: String? }
        guard let id = (try? FastJSONDecoder.decode(IdOnly.self, from: json))?.id,
              Identifier.controlCharacter(in: id) == nil else { return nil }
        return id
    }

    /// A `MessageError` for a `DecodingError`, naming the field at fault.
    private static func explain(_ error: DecodingError, offendingId: String?) -> MessageError {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let field = (context.codingPath.map(\.stringValue) + [key.stringValue]).joined(separator: ".")
            return MessageError(.missingField, "missing field '\(field)'", offendingId: offendingId)
        case .valueNotFound(_, let context):
            return MessageError(.missingField, "field '\(path(context))' is null", offendingId: offendingId)
        case .typeMismatch(let type, let context):
            let where_ = context.codingPath.isEmpty ? "the message" : "field '\(path(context))'"
            return MessageError(.badShape, "\(where_) should be \(type)", offendingId: offendingId)
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return MessageError(.badJSON, "message is not JSON: \(context.debugDescription)", offendingId: offendingId)
        case .dataCorrupted(let context):
            return MessageError(.badShape, "field '\(path(context))': \(context.debugDescription)", offendingId: offendingId)
        @unknown default:
            return MessageError(.badShape, "\(error)", offendingId: offendingId)
        }
    }
}

import BusCore
import Domain
import Foundation
import Testing
import Wire

/// The bus reads a message's header only as far as its decision needs (`BusPolicy.judge`,
/// `EnvelopePeek(_:upTo:)`): it must judge exactly what the service will decode, whatever the
/// order of the keys, repeated keys and escapes, and leave unreadable JSON to the services as
/// the whole scan does.
@Suite struct EnvelopePeekTests {
    let policy = BusPolicy()
    let codec = EnvelopeCodec()
    let gateway = BusPolicy.Sender.client(.gateway)

    /// A `device.tap` from `service` on `device`, as our encoders write it (header, then body).
    func tap(service: String = "gateway", device: String? = "ipad", replyTo: String? = "0123456789abcdef") -> String {
        let envelope = Envelope(
            id: "m1", correlationId: "m1", service: service, device: device, seq: 1, time: "2026-11-30T03:14:40.000Z",
            replyTo: replyTo, body: .tap(Tap(element: "add", profile: .ipad)))
        return String(decoding: try! codec.encode(envelope), as: UTF8.self)
    }

    /// What the bus decides on `json` under `topic` from `sender`: the refusal and, when it
    /// forwards, the topic it forwards on.
    func judged(_ json: String, topic: String = "device.tap", from sender: BusPolicy.Sender) -> (refusal: BusPolicy.Refusal?, topic: String) {
        let bytes = Array(json.utf8), topicBytes = Array(topic.utf8)
        return topicBytes.withUnsafeBytes { t in
            bytes.withUnsafeBytes { j in
                let (refusal, peek) = policy.judge(from: sender, topic: t, frames: 2, json: j)
                let forwarded = policy.deviceTopic(topic: t, peek: peek, json: j).map { String(decoding: $0, as: UTF8.self) } ?? topic
                return (refusal, forwarded)
            }
        }
    }

    /// The same decision from the whole scan (what the bus did before reading only the header).
    func judgedWhole(_ json: String, topic: String = "device.tap", from sender: BusPolicy.Sender) -> (refusal: BusPolicy.Refusal?, topic: String) {
        let bytes = Array(json.utf8), topicBytes = Array(topic.utf8)
        return topicBytes.withUnsafeBytes { t in
            bytes.withUnsafeBytes { j in
                let peek = EnvelopePeek(j)
                let refusal = policy.refusal(from: sender, topic: t, frames: 2, peek: peek, json: j)
                let forwarded = policy.deviceTopic(topic: t, peek: peek, json: j).map { String(decoding: $0, as: UTF8.self) } ?? topic
                return (refusal, forwarded)
            }
        }
    }

    /// What the service decodes from `json` under `topic`: the envelope, or the error's code.
    func decoded(_ json: String, topic: String = "device.tap") -> Result<Envelope, MessageError> {
        Result { () throws(MessageError) in try codec.decode(frames: [Array(topic.utf8), Array(json.utf8)]) }
    }

    /// The service's error on `json` under `topic`, if it refuses it.
    func failure(_ json: String, topic: String = "device.tap") -> MessageError? {
        if case .failure(let error) = decoded(json, topic: topic) { return error }
        return nil
    }

    /// `json` with its header's `"key":"value"` member replaced by `replacement`.
    func replacing(_ json: String, _ member: String, with replacement: String) -> String {
        precondition(json.contains(member), "\(member) not in \(json)")
        let range = json.range(of: member)!
        return json.replacingCharacters(in: range, with: replacement)
    }

    /// `json` with `member` added after its body (its last key).
    func appending(_ json: String, _ member: String) -> String {
        String(json.dropLast()) + "," + member + "}"
    }

    @Test func theBusStopsOnceItHasTheFieldsItNeedsAndReadsNothingOfTheBody() throws {
        let json = tap()
        let bytes = Array(json.utf8)
        let whole = try #require(EnvelopePeek(bytes))
        let partial = try #require(EnvelopePeek(bytes, upTo: [.service, .device]))
        #expect(partial.service == whole.service && partial.device == whole.device && !partial.escaped)
        // It stops right after the device: the rest is not even read (here: cut off).
        let deviceEnd = try #require(whole.device).upperBound + 1
        #expect(EnvelopePeek(Array(bytes[..<deviceEnd]), upTo: [.service, .device]) == partial)
        #expect(EnvelopePeek(Array(bytes[..<deviceEnd])) == nil)
        // In plaintext only a device's request needs its header; an answer's is not read at all.
        Array("device.rotate/3f".utf8).withUnsafeBytes { #expect(policy.headerFields(from: .anonymous, topic: $0) == .device) }
        // A tap's owner depends on its body: its element and point are read too.
        Array("device.tap/3f".utf8).withUnsafeBytes { #expect(policy.headerFields(from: .anonymous, topic: $0) == [.device, .element]) }
        Array("presentation.presented/0123456789abcdef".utf8).withUnsafeBytes {
            #expect(policy.headerFields(from: .anonymous, topic: $0).isEmpty)
            #expect(policy.headerFields(from: .client(.presentationPolicy), topic: $0) == .service)
        }
        #expect(judged("{not json", topic: "ack", from: .anonymous) == (nil, "ack"))
        // (A presentation's style is read apart, for its topic: StyledTopicTests.)
        #expect(judged("{not json", topic: "presentation.presented", from: .anonymous) == (nil, "presentation.presented/alert"))
    }

    @Test func aFieldMissingBeforeTheBodyIsLookedForInTheWholeObject() throws {
        // The device after the body: found, and the request goes to its bucket.
        let bucket = "device.tap/presentation-policy/" + Topic.bucket(ofDevice: "ipad")
        let late = appending(tap(device: nil), #""device":"ipad""#)
        #expect(judged(late, from: .anonymous) == (nil, bucket))
        #expect(judged(late, from: gateway) == (nil, bucket))
        #expect(try decoded(late, topic: bucket).get().device == "ipad")
        // The service after the body (and the keys in another order): a forged one is still refused.
        let forged = #"{"body":{"element":"add"},"type":"device.tap","v":1,"id":"m1","correlationId":"m1","seq":1,"time":"2026-11-30T03:14:40.000Z","service":"roster"}"#
        #expect(judged(forged, from: gateway).refusal == .forgedService)
        #expect(try decoded(forged).get().service == "roster")
        // A service inside the body is never the header's.
        let inner = #"{"v":1,"type":"device.tap","body":{"service":"gateway","device":"x"},"id":"m1","correlationId":"m1","seq":1,"time":"2026-11-30T03:14:40.000Z","service":"roster"}"#
        #expect(judged(inner, from: gateway).refusal == .forgedService)
        // No device anywhere: the bare type, as before.
        #expect(judged(tap(device: nil), topic: "device.tap/zz", from: gateway) == (nil, "device.tap/presentation-policy"))
    }

    /// A repeated key cannot show the bus one value and the service another: both take the first.
    @Test func aRepeatedKeyIsJudgedByItsFirstValueAsTheServiceDecodesIt() throws {
        let json = tap()
        // A component's name first, the sender's own after it (before or after the body): refused.
        let componentFirst = replacing(json, #""service":"gateway""#, with: #""service":"roster","service":"gateway""#)
        #expect(judged(componentFirst, from: gateway).refusal == .forgedService)
        #expect(try decoded(componentFirst).get().service == "roster")
        // Its own first, a component's after: forwarded, and the service reads its own.
        for forgedLater in [
            replacing(json, #""service":"gateway""#, with: #""service":"gateway","service":"roster""#),
            appending(json, #""service":"roster""#),
            appending(json, #""s\u0065rvice":"roster""#),
        ] {
            #expect(judged(forgedLater, from: gateway).refusal == nil, "\(forgedLater)")
            #expect(try decoded(forgedLater, topic: judged(forgedLater, from: gateway).topic).get().service == "gateway", "\(forgedLater)")
        }
        // The bucket is the first device's, which is the one the service reads.
        let twoDevices = appending(replacing(json, #""device":"ipad""#, with: #""device":"ipad","device":"phone""#), #""device":"tv""#)
        let topic = judged(twoDevices, from: .anonymous).topic
        #expect(topic == "device.tap/presentation-policy/" + Topic.bucket(ofDevice: "ipad"))
        #expect(try decoded(twoDevices, topic: topic).get().device == "ipad")
        // The type: the bus goes by the topic; the service takes the first type and holds it to the topic.
        let typeLater = replacing(json, #""type":"device.tap""#, with: #""type":"device.tap","type":"sys.shutdown""#)
        #expect(try decoded(typeLater).get().type == .tap)
        let typeFirst = replacing(json, #""type":"device.tap""#, with: #""type":"roster.snapshot","type":"device.tap""#)
        #expect(judged(typeFirst, from: gateway).refusal == nil)
        #expect(throws: MessageError.self) { try decoded(typeFirst).get() }
    }

    @Test func anEscapeBeforeTheFieldsIsRefusedAsBefore() {
        let json = tap()
        let escapedKey = replacing(json, #""id":"m1""#, with: #""\u0073ervice":"roster","id":"m1""#)
        #expect(judged(escapedKey, from: gateway).refusal == .forgedService)
        let escapedValue = replacing(json, #""service":"gateway""#, with: #""service":"rost\u0065r""#)
        #expect(judged(escapedValue, from: gateway).refusal == .forgedService)
    }

    /// JSON that breaks after the header: the bus judges the header it read, and a refusal on the
    /// whole object, which cannot be read, so the message goes to the services, which refuse it
    /// with the same error as ever.
    @Test func jsonUnreadableAfterTheHeaderIsLeftToTheServicesAsBefore() throws {
        let broken = String(tap().dropLast(2))
        let forgedBroken = String(tap(service: "roster").dropLast(2))
        for json in [broken, forgedBroken] {
            #expect(judged(json, from: gateway).refusal == nil)
            #expect(judgedWhole(json, from: gateway).refusal == nil)
            let error = try #require(failure(json, topic: judged(json, from: gateway).topic))
            #expect(error.code == (try #require(failure(json))).code)
        }
        #expect(judged(broken, topic: "roster.snapshot", from: gateway).refusal == .forbiddenTopic)
    }

    /// Over messages in many shapes, the decision equals the whole scan's, except where the whole
    /// scan refused an escaped key that comes after the fields (a repeat the decoders ignore); so
    /// is the topic, unless the JSON is unreadable after the header (then the bus keys it by the
    /// device it read, and the device's service refuses it).
    @Test func theDecisionIsTheWholeScansForEveryShape() {
        let json = tap()
        var shapes = [
            json, tap(device: nil), tap(replyTo: nil), tap(service: "roster"), tap(service: "presentation-policy"),
            appending(json, #""device":"tv""#), appending(tap(device: nil), #""device":"tv""#),
            appending(tap(device: nil), #""service":"roster""#),
            replacing(json, #""service":"gateway""#, with: #""service":"roster","service":"gateway""#),
            replacing(json, #""device":"ipad""#, with: #""device":"ip\u0061d""#),
            replacing(json, #""device":"ipad""#, with: #""device":null,"device":"ipad""#),
            replacing(json, #""service":"gateway""#, with: #""service":7,"service":"roster""#),
            "{}", "[]", "", " {\"service\" : \"roster\" , \"device\" : \"ipad\" } ", String(json.dropLast()), #"{"service":"#,
        ]
        shapes += shapes.map { $0.replacingOccurrences(of: ",", with: " ,\n ") }
        let senders: [BusPolicy.Sender] = [.anonymous, .revoked] + Role.allCases.map { .client($0) }
        for shape in shapes {
            for topic in ["device.tap", "device.tap/zz", "presentation.presented/0123456789abcdef", "sys.ping", "bench.x"] {
                for sender in senders {
                    let now = judged(shape, topic: topic, from: sender), before = judgedWhole(shape, topic: topic, from: sender)
                    #expect(now.refusal == before.refusal, "\(sender) \(topic) \(shape)")
                    if EnvelopePeek(Array(shape.utf8)) != nil {
                        #expect(now.topic == before.topic, "\(sender) \(topic) \(shape)")
                    }
                }
            }
        }
    }

    /// The bus writes a tap's owner into its topic from the body as the services decode it
    /// (`Routing.owner`): whatever the shape, the service that receives it decodes it on that
    /// topic (no `topic-mismatch`) and owns it.
    @Test func theOwnerInATapsTopicIsTheOneTheServiceDecodes() throws {
        let bucket = Topic.bucket(ofDevice: "ipad")
        let header = #""v":1,"type":"device.tap","id":"m1","correlationId":"m1","service":"gateway","device":"ipad","seq":1,"time":"2026-11-30T03:14:40.000Z""#
        let cases: [(body: String, owner: String)] = [
            (#"{"element":"add"}"#, "presentation-policy"),
            (#"{"element":"fire"}"#, "input-handling"),
            (#"{"element":"close","profile":null}"#, "input-handling"),
            (#"{"element":"laser"}"#, "presentation-policy"),
            (#"{"point":{"x":1,"y":2}}"#, "input-handling"),
            (#"{"element":null,"point":{"x":1,"y":2}}"#, "input-handling"),
            (#"{"element":"add","point":{"x":1,"y":2}}"#, "presentation-policy"),
            (#"{"point":null}"#, "presentation-policy"),
            (#"{"element":"add","element":"fire"}"#, "presentation-policy"),
            (#"{"element":"fire","element":"add"}"#, "input-handling"),
            (#"{"element":"fire"}"#, "input-handling"),
            (#"{"element":"fire"}"#, "input-handling"),
            (#"{"extra":{"element":"fire"},"element":"add"}"#, "presentation-policy"),
            (#"{"extra":[{"point":{"x":1,"y":2}}],"element":null}"#, "presentation-policy"),
        ]
        for (body, owner) in cases {
            for json in ["{" + header + #","body":"# + body + "}", #"{"body":"# + body + "," + header + "}"] {
                for sender in [BusPolicy.Sender.anonymous, gateway] {
                    let topic = judged(json, topic: "device.tap", from: sender).topic
                    #expect(topic == "device.tap/\(owner)/\(bucket)", "\(json)")
                    let envelope = try decoded(json, topic: topic).get()
                    #expect(Routing.firstHop(of: envelope.body) == [owner], "\(json)")
                    #expect(BusPolicy().deviceTopic(frames: [Array("device.tap".utf8), Array(json.utf8)]).map { String(decoding: $0, as: UTF8.self) } == topic)
                }
            }
        }
        // An interaction change goes by its element alone.
        let interaction = #"{"v":1,"type":"device.interaction","id":"m1","correlationId":"m1","service":"gateway","device":"ipad","seq":1,"time":"2026-11-30T03:14:40.000Z","body":{"element":"blowgun","enabled":false}}"#
        #expect(judged(interaction, topic: "device.interaction", from: gateway).topic == "device.interaction/input-handling/" + bucket)
        let weapon = interaction.replacingOccurrences(of: "blowgun", with: "weapon")
        #expect(judged(weapon, topic: "device.interaction/input-handling/" + bucket, from: gateway).topic == "device.interaction/presentation-policy/" + bucket)
        // A body that is not readable goes to presentation-policy, which answers the error.
        let broken = "{" + header + #","body":{"element":5}}"#
        #expect(judged(broken, from: gateway).topic == "device.tap/presentation-policy/" + bucket)
        #expect(failure(broken, topic: "device.tap/presentation-policy/" + bucket) != nil)
        // An escaped device is keyed by the id the service decodes.
        let escaped = replacing(tap(), #""device":"ipad""#, with: #""device":"ipad""#)
        #expect(judged(escaped, from: gateway).topic == "device.tap/presentation-policy/" + bucket)
        #expect(try decoded(escaped, topic: "device.tap/presentation-policy/" + bucket).get().device == "ipad")
    }

    /// Strings are scanned eight bytes at a time: a quote or an escape at every offset of a
    /// word, at its edges and in the last few bytes is found exactly where the byte-by-byte
    /// reading finds it (the value's range, whether it is escaped, where the scan goes on).
    @Test func aQuoteOrEscapeIsFoundAtEveryOffsetOfAWord() throws {
        for length in 0...27 {
            for escapeAt in [nil] + Array(0..<length) {
                var value = Array(repeating: UInt8(ascii: "a"), count: length)
                // Bytes that differ from a quote or backslash by one bit, and a multi-byte letter.
                for (offset, byte) in [(1, UInt8(ascii: "#")), (3, UInt8(ascii: "]")), (5, 0xC3), (6, 0xA9)] where offset < length {
                    value[offset] = byte
                }
                if let escapeAt { value.replaceSubrange(escapeAt..<(escapeAt + 1), with: Array(#"\""#.utf8)) }
                let head = Array(#"{"id":"m1","service":""#.utf8)
                let json = head + value + Array(#"","correlationId":"c1"}"#.utf8)
                let peek = try #require(EnvelopePeek(json), "\(value)")
                #expect(peek.service == head.count..<(head.count + value.count), "\(value)")
                #expect(peek.escaped == (escapeAt != nil), "\(value)")
                #expect(peek.correlationId == (json.count - 4)..<(json.count - 2), "\(value)")
            }
        }
        // A string that never ends, whatever its length, is not an object.
        for length in 0...20 {
            #expect(EnvelopePeek(Array((#"{"service":""# + String(repeating: "b", count: length)).utf8)) == nil)
            #expect(EnvelopePeek(Array((#"{"service":""# + String(repeating: "b", count: length) + "\\").utf8)) == nil)
        }
    }

    /// A header as our encoders begin it is read straight through when the fields stop at
    /// `service` (an answer's correlation id and sender); anything that differs from that layout
    /// is read by the whole scan. Either way the values are those the scan finds when it goes on
    /// to a later field (`device`).
    @Test func theWrittenHeaderIsReadStraightThroughAndAnyOtherAsBefore() throws {
        let written = tap()
        #expect(written.hasPrefix(#"{"v":1,"type":"device.tap","id":"m1","correlationId":"m1","service":"gateway","device""#))
        let variants = [
            written,
            replacing(written, #""service":"gateway""#, with: #""service":"gate\u0077ay""#),
            replacing(written, #""correlationId":"m1""#, with: #""correlationId":"m\"1""#),
            replacing(written, #"{"v":1,"#, with: #"{ "v":1,"#),
            replacing(written, #""v":1,"#, with: #""v":1.0,"#),
            replacing(written, #""v":1,"#, with: #""v":"1","#),
            replacing(written, #""id":"m1","#, with: ""),
            replacing(written, #""id":"m1","#, with: #""id":"m1","id":"m2","#),
            replacing(written, #""service":"gateway","#, with: ""),
            replacing(written, #""type":"device.tap","#, with: ""),
            replacing(written, #"{"v":1,"type":"device.tap","#, with: #"{"type":"device.tap","v":1,"#),
        ]
        for json in variants {
            let bytes = Array(json.utf8)
            let further = try #require(EnvelopePeek(bytes, upTo: [.service, .device]), "\(json)")
            for fields: EnvelopePeek.Fields in [[.service], [.correlationId, .service], [.id, .correlationId, .service]] {
                let peek = try #require(EnvelopePeek(bytes, upTo: fields), "\(json)")
                #expect(peek.id == further.id && peek.correlationId == further.correlationId, "\(json)")
                #expect(peek.service == further.service && peek.escaped == further.escaped, "\(json)")
            }
        }
        // Up to `device`, or through the body for its `element`: the same values as the scan
        // that looks for `replyTo` too (which is not read straight through).
        let bodies = [
            written, tap(replyTo: nil), tap(device: nil), tap(service: "roster"),
            replacing(written, #""device":"ipad""#, with: #""device":"ip\u0061d""#),
            replacing(written, #""body":{"#, with: #""body":{"point":{"x":1,"y":2},"#),
            replacing(written, #""body":{"#, with: #""body":{"element":null,"element":"x","#),
            replacing(written, #""body":{"#, with: #""body":null,"body":{"#),
            replacing(written, #","replyTo":"#, with: #","traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01","parentSpan":"b7ad6b7169203331","replyTo":"#),
            replacing(written, #","replyTo":"#, with: #","parentSpan":"b7ad6b7169203331","replyTo":"#),
            replacing(written, #""seq":1"#, with: #""seq":-1"#),
            replacing(written, #""seq":1,"#, with: ""),
            String(written.dropLast(2)),
        ]
        for json in bodies {
            let bytes = Array(json.utf8)
            let scanned = EnvelopePeek(bytes, upTo: [.device, .element, .replyTo])
            for fields: EnvelopePeek.Fields in [[.device, .element], [.service, .device, .element], [.id, .element]] {
                #expect(EnvelopePeek(bytes, upTo: fields) == scanned, "\(fields.rawValue) \(json)")
            }
            // Up to `device` only: a body cut short is not looked at (the header is `written`'s).
            for fields: EnvelopePeek.Fields in [[.device], [.service, .device]] {
                let peek = try #require(EnvelopePeek(bytes, upTo: fields), "\(json)")
                let scanned = scanned ?? EnvelopePeek(Array(written.utf8), upTo: [.device, .element, .replyTo])
                #expect(peek.device == scanned?.device && peek.deviceEscaped == scanned?.deviceEscaped, "\(json)")
                #expect(peek.service == scanned?.service && peek.id == scanned?.id, "\(json)")
                #expect(!peek.bodyRead, "\(json)")
            }
        }
        // Read only up to `service`: what follows is not looked at, as by the scan.
        let cut = #"{"v":1,"type":"ack","id":"m2","correlationId":"m1","service":"presentation-policy","#
        let peek = try #require(EnvelopePeek(Array(cut.utf8), upTo: [.correlationId, .service]))
        #expect(peek.correlationId.map { String(cut.utf8.dropFirst($0.lowerBound).prefix($0.count))! } == "m1")
        #expect(peek.service.map { String(cut.utf8.dropFirst($0.lowerBound).prefix($0.count))! } == "presentation-policy")
        #expect(EnvelopePeek(Array(cut.dropLast(2).utf8), upTo: [.correlationId, .service]) == nil)
    }
}

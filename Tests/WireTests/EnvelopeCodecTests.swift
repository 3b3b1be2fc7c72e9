import Domain
import Foundation
import Testing
import TestSupport
import JSON
import Wire
import TestTiers

/// The envelope codec: every message type survives a round trip; bad input is refused with a reason.
@Suite(.tags(.unit)) struct EnvelopeCodecTests {
    let codec = EnvelopeCodec()

    @Test func everyMessageTypeHasASample() {
        #expect(Set(Samples.bodies.map(\.type)) == Set(MessageType.allCases))
    }

    /// `Body.type`'s switch names, for each case, the type whose declaration carries that payload.
    @Test(arguments: Samples.bodies)
    func eachBodysTypeIsTheOneDeclaredForItsPayload(_ body: Body) {
        #expect(ObjectIdentifier(Swift.type(of: body.payload)) == ObjectIdentifier(body.type.spec.bodyType), "\(body.type.rawValue)")
        #expect(body.type.spec.type == body.type)
    }

    @Test(arguments: Samples.bodies)
    func everyBodyRoundTrips(_ body: Body) throws {
        let envelope = Samples.envelope(body)
        let frames = try codec.frames(envelope)
        // A replica's state is a frame of its own.
        try #require(frames.count == (envelope.type == .replica ? 3 : 2))
        // A sender keys an answer (its client's address, a presentation's style first); the
        // bus keys a device's request, and a broadcast has no key.
        #expect(frames[0] == Array(([.toClient, .toInstance].contains(envelope.type.addressing) ? envelope.topic : envelope.type.rawValue).utf8))
        #expect(try codec.decode(frames: frames) == envelope)
        var addressed = envelope
        addressed.replyTo = "0123456789abcdef"
        #expect(try codec.decode(frames: codec.frames(addressed)) == addressed)
    }

    /// An id holding DEL (U+007F) or a C1 control is refused bad-shape, wherever it stands in
    /// the id (the first eight bytes are checked a word at a time).
    @Test func anIdWithDeleteOrAC1ControlIsRefused() throws {
        for (id, named) in [("a\u{7F}", "U+007F"), ("abcdefghij\u{7F}", "U+007F"), ("\u{7F}bcdefghijk", "U+007F"), ("abcdefghijkl\u{85}", "U+0085")] {
            var envelope = Samples.envelope(.ping(Ping()))
            envelope.id = id
            let json = try codec.encode(envelope)
            let error = #expect(throws: MessageError.self, "\(id.unicodeScalars.map(\.value))") { try codec.decode(json) }
            #expect(error?.code == .badShape)
            // The character named as Unicode writes it, four hex digits at least.
            #expect(error?.reason.contains("control character (\(named))") == true, "\(String(describing: error))")
        }
    }

    @Test func aSendersKeptTopicFramesAreThoseItWouldMake() throws {
        // Answers of several types, styles and clients in turn, more than the memo keeps: each
        // frame taken from it is the frame made afresh.
        var memo: BodyMemo? = BodyMemo()
        var topics: TopicMemo? = TopicMemo()
        let writer = JSONWriter()
        let popover = Samples.popover
        let bodies: [Body] = [
            .ack(Ack(handled: "device.tap", handledId: "a", emitted: [], forwarded: [])),
            .presented(Presented(presentation: Samples.alert, reason: "tap")),
            .presented(Presented(presentation: popover, reason: "tap")),
            .dismissed(Dismissed(presentation: popover, reason: "button", button: nil, buttonIndex: nil)),
            .pong(Pong(service: "presentation-policy", version: "1", pid: 1)),
            .replica(Replica(standby: "pp-b", owner: "pp-a", epoch: 1, sequence: 1, snapshot: nil)),
            .replica(Replica(standby: "pp-c", owner: "pp-a", epoch: 1, sequence: 2, snapshot: nil)),
        ]
        for round in 0..<70 {
            var envelope = Samples.envelope(bodies[round % bodies.count])
            envelope.replyTo = [nil, "0123456789abcdef", "fedcba9876543210"][(round / 3) % 3]
            envelope.service = ["presentation-policy", "input-handling"][(round / 5) % 2]
            let kept = try codec.frames(envelope, using: writer, memo: &memo, topics: &topics)
            #expect(kept == (try codec.frames(envelope)), "round \(round)")
            // What every sender writes: the type, then the key (the bus's routing reads it).
            let key = envelope.type.addressing == .broadcast || envelope.type.addressing == .byDevice ? nil : envelope.topicKey
            #expect(kept[0] == Array(Topic.name(envelope.type, key: key).utf8), "round \(round)")
        }
    }

    @Test func anAnswerIsKeyedByItsSenderAndAnyOtherMessageIsItsType() throws {
        var ack = Samples.envelope(.ack(Ack(handled: "device.tap", handledId: "a", emitted: [], forwarded: [])))
        #expect(try codec.frames(ack)[0] == Array("ack".utf8))
        ack.replyTo = "0123456789abcdef"
        #expect(try codec.frames(ack)[0] == Array("ack/0123456789abcdef".utf8))
        var shown = Samples.envelope(.presented(Presented(presentation: Samples.alert, reason: "tap")))
        #expect(try codec.frames(shown)[0] == Array("presentation.presented/alert".utf8))
        shown.replyTo = "0123456789abcdef"
        #expect(try codec.frames(shown)[0] == Array("presentation.presented/alert/0123456789abcdef".utf8))
        // Presented or dismissed, a presentation's answer names its style first: a reader of
        // alerts only hears each alert come and go. The envelope's own topic says the same.
        for (body, style) in [(Body.presented(Presented(presentation: Samples.popover, reason: "tap")), "popover"),
                              (.dismissed(Dismissed(presentation: Samples.alert, reason: "button", button: "Cancel", buttonIndex: 0)), "alert"),
                              (.dismissed(Dismissed(presentation: Samples.popover, reason: "outside-tap")), "popover")] {
            var answer = Samples.envelope(body)
            answer.replyTo = "0123456789abcdef"
            let topic = "\(answer.type.rawValue)/\(style)/0123456789abcdef"
            #expect(try codec.frames(answer)[0] == Array(topic.utf8))
            #expect(answer.topic == topic)
        }
        var tap = Samples.envelope(.tap(Tap(element: "fire")), device: "ipad")
        tap.replyTo = "0123456789abcdef"
        #expect(try codec.frames(tap)[0] == Array("device.tap".utf8))
        var beat = Samples.envelope(.heartbeat(Samples.heartbeat))
        beat.replyTo = "0123456789abcdef"
        #expect(try codec.frames(beat)[0] == Array("sys.heartbeat".utf8))
    }

    @Test func aReceiversKeptReplyToIsTakenOnlyWhenTheSame() throws {
        var recent = TextMemo()
        for replyTo in ["0123456789abcdef", "0123456789abcdef", "fedcba9876543210", nil, "0123456789abcdef", "01234567"] {
            var envelope = Samples.envelope(.ping(Ping()))
            envelope.replyTo = replyTo
            #expect(try codec.receive(frames: codec.frames(envelope), recent: &recent).envelope == envelope, "\(replyTo ?? "none")")
        }
    }

    @Test func anActionCorrelatedWithItselfOrNotReadsBothIds() throws {
        var envelope = Samples.envelope(.ping(Ping()))
        envelope.correlationId = envelope.id
        #expect(try codec.decode(codec.encode(envelope)) == envelope)
        envelope.correlationId = envelope.id + "x"
        #expect(try codec.decode(codec.encode(envelope)) == envelope)
        envelope.correlationId = String(envelope.id.dropLast())
        #expect(try codec.decode(codec.encode(envelope)) == envelope)
    }

    @Test func theReceiverTrustsTheKeyAndChecksTheType() throws {
        var answer = Samples.envelope(.ack(Ack(handled: "device.tap", handledId: "a", emitted: [], forwarded: [])))
        answer.replyTo = "0123456789abcdef"
        let json = try codec.encode(answer)
        func decode(_ topic: String) throws(MessageError) -> Envelope { try codec.decode(frames: [Array(topic.utf8), json]) }
        for topic in ["ack", "ack/0123456789abcdef", "ack/anything/at/all"] { #expect(try decode(topic) == answer, "\(topic)") }
        for wrong in ["ackx", "ac", "ack.x/ack", "error/0123456789abcdef", "", "/ack"] {
            let error = try #require(throws: MessageError.self) { try decode(wrong) }
            #expect(error.code == .topicMismatch, "\(wrong)")
            #expect(error.offendingId == answer.id)
        }
    }

    @Test func theEnvelopesMembersAreWrittenInTheHeadersOrder() throws {
        var envelope = Samples.envelope(.ping(Ping()))
        envelope.replyTo = "0123456789abcdef"
        let tree = try JSONValue.parse(codec.encode(envelope))
        guard case .object(let members) = tree else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == EnvelopeCodec.header.map(\.name))
        let required = EnvelopeCodec.header.filter(\.required).map(\.name)
        envelope.replyTo = nil
        envelope.device = nil
        envelope.traceparent = nil
        envelope.parentSpan = nil
        guard case .object(let bare) = try JSONValue.parse(codec.encode(envelope)) else { Issue.record("not an object"); return }
        #expect(bare.map(\.key) == required)
    }

    /// The time the decoder hands back (read once, when checked) is the envelope's, parsed.
    @Test func theReceivedTimeIsTheEnvelopesTimeParsed() throws {
        var tap = Samples.envelope(.tap(Tap(element: "add")))
        tap.time = "2026-11-30T03:14:39.123+02:00"
        var escaped = Samples.envelope(.tap(Tap(element: "a\"b")))
        escaped.time = "2026-12-01T00:00:00Z"
        for envelope in [tap, Samples.envelope(.tap(Tap(element: "add"))), escaped, Samples.envelope(.heartbeat(Samples.heartbeat))] {
            let received = try codec.receive(frames: try codec.frames(envelope))
            #expect(received.envelope == envelope)
            #expect(received.sent == Timestamp.parse(envelope.time))
        }
    }

    @Test func replyToFollowsTheIdentifierRulesAndHasNoSlash() {
        #expect(refusal(valid { $0["replyTo"] = "abc" }) == nil)
        #expect(refusal(valid { $0["replyTo"] = String(repeating: "a", count: 64) }) == nil)
        for bad in ["", "a/b", String(repeating: "a", count: 65), "a\u{1}b"] {
            #expect(refusal(valid { $0["replyTo"] = bad })?.code == .badShape, "\(bad)")
        }
        #expect(refusal(valid { $0["replyTo"] = 7 })?.code == .badShape)
    }

    @Test func theEnvelopeCarriesEveryHeaderField() throws {
        let json = try JSONSerialization.jsonObject(with: Data(codec.encode(Samples.envelope(.ping(Ping()))))) as? [String: Any]
        let object = try #require(json)
        #expect(object["v"] as? Int == 1)
        #expect(object["type"] as? String == "sys.ping")
        #expect(object["id"] as? String == "id-1")
        #expect(object["correlationId"] as? String == "id-0")
        #expect(object["service"] as? String == "test")
        #expect(object["device"] as? String == "ipad")
        #expect(object["seq"] as? Int == 3)
        #expect(object["time"] as? String == "2026-11-30T03:14:39.123Z")
        #expect(object["traceparent"] as? String == "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
        #expect(object["parentSpan"] as? String == "b7ad6b7169203331")
        #expect(object["body"] is [String: Any])
    }

    @Test func theUnknownArrowDirectionIsNSUIntegerMax() throws {
        let text = String(decoding: try codec.encode(Samples.envelope(.presented(Presented(presentation: Samples.alert, reason: "tap")))), as: UTF8.self)
        #expect(text.contains("\"arrowDirection\":18446744073709551615"))
    }

    func refusal(_ json: String, topic: String? = nil) -> MessageError? {
        let bytes = Array(json.utf8)
        do {
            _ = try codec.decode(frames: [Array((topic ?? "device.tap").utf8), bytes])
            return nil
        } catch {
            return error
        }
    }

    func valid(_ change: (inout [String: Any]) -> Void) -> String {
        guard let json = try? codec.encode(Samples.envelope(.tap(Tap(element: "add")))),
              var object = (try? JSONSerialization.jsonObject(with: Data(json))) as? [String: Any] else {
            Issue.record("the sample tap could not be encoded and read back")
            return ""
        }
        change(&object)
        guard let changed = try? JSONSerialization.data(withJSONObject: object) else {
            Issue.record("the changed sample is not JSON")
            return ""
        }
        return String(decoding: changed, as: UTF8.self)
    }

    @Test func bytesThatAreNotJSONAreRefused() {
        #expect(refusal("hello")?.code == .badJSON)
        #expect(refusal("")?.code == .badJSON)
        #expect(refusal("{\"v\":1,")?.code == .badJSON)
    }

    @Test func invalidUTF8IsRefused() throws {
        let error = try #require(throws: MessageError.self) { try codec.decode([0x7b, 0xff, 0xfe, 0x7d]) }
        #expect(error.code == .badUTF8)
    }

    @Test func jsonOfTheWrongShapeIsRefused() {
        #expect(refusal("[1,2,3]")?.code == .badShape)
        #expect(refusal(valid { $0["seq"] = "three" })?.code == .badShape)
        #expect(refusal(valid { $0["body"] = ["element": 5] })?.code == .badShape)
    }

    @Test func aMissingFieldIsNamed() throws {
        let error = try #require(refusal(valid { $0["correlationId"] = nil }))
        #expect(error.code == .missingField)
        #expect(error.reason.contains("correlationId"))
        #expect(error.offendingId == "id-1")
        #expect(refusal(valid { $0["type"] = nil })?.code == .missingField)
        #expect(refusal(valid { $0["body"] = nil })?.code == .missingField)
    }

    @Test func anUnknownTypeIsRefusedWithTheOffendingId() throws {
        let error = try #require(refusal(valid { $0["type"] = "device.explode" }))
        #expect(error.code == .unknownType)
        #expect(error.reason.contains("device.explode"))
        #expect(error.offendingId == "id-1")
    }

    @Test func aTimeThatIsNotATimestampIsRefusedNamingTheField() throws {
        for bad in ["x", "", "2026-02-30T03:14:39.123Z", "2026-11-30T03:14:39.123", "2026-11-30T25:14:39Z", "tomorrow"] {
            let error = try #require(refusal(valid { $0["time"] = bad }), "\(bad)")
            #expect(error.code == .badTime, "\(bad)")
            #expect(error.reason.contains("'time'"))
        }
        #expect(refusal(valid { $0["time"] = 5 })?.code == .badShape)
        #expect(refusal(valid { $0["time"] = "2026-11-30T03:14:39.123456+00:00" }) == nil)
    }

    @Test func numbersJSONCannotCarryAreRefusedAtTheDoor() {
        // 1e999 is infinite as a double; NaN and Infinity are not JSON at all.
        for number in ["1e999", "-1e999", "NaN", "Infinity", "-Infinity"] {
            let text = valid { $0["body"] = ["point": ["x": 1, "y": 2]] }.replacingOccurrences(of: "\"x\":1", with: "\"x\":\(number)")
            #expect(text.contains(number))
            #expect(refusal(text) != nil, "\(number)")
        }
    }

    @Test func aNonFiniteNumberIsNeverEncoded() throws {
        for number in [Double.nan, .infinity, -.infinity] {
            let envelope = Samples.envelope(.tap(Tap(point: Point(x: 1, y: number))))
            let error = try #require(throws: MessageError.self) { try codec.frames(envelope) }
            #expect(error.code == .nonFinite)
            #expect(error.reason.contains("body.point.y"), "\(error.reason)")
        }
    }

    /// docs/messages.md: a version other than 1 is refused — the next one and older ones alike.
    @Test func theCurrentVersionIsReadAndTheNextOrAnOlderOneIsRefused() {
        #expect(Envelope.currentVersion == 1)
        #expect(refusal(valid { $0["v"] = 1 }) == nil)
        for version in [2, 0, -1] {
            #expect(refusal(valid { $0["v"] = version })?.code == .unsupportedVersion, "v \(version)")
        }
    }

    @Test func aWeaponOutsideTheEnumIsRefused() {
        let json = valid {
            $0["type"] = "input.weapon.selected"
            $0["body"] = ["weapon": "Laser", "weaponType": 9]
        }
        #expect(refusal(json, topic: "input.weapon.selected")?.code == .badShape)
    }

    @Test func tooFewOrTooManyFramesAreRefused() throws {
        let json = try codec.encode(Samples.envelope(.ping(Ping())))
        for frames in [[json], [Array("sys.ping".utf8), json, []], []] {
            let error = try #require(throws: MessageError.self) { try codec.decode(frames: frames) }
            #expect(error.code == .badFrames)
        }
    }

    @Test func aTopicThatIsNotTheTypeIsRefused() {
        #expect(refusal(valid { _ in }, topic: "device.rotate")?.code == .topicMismatch)
    }

    @Test func anOversizedMessageIsRefused() throws {
        let small = EnvelopeCodec(maxMessageBytes: 1024)
        let huge = Samples.envelope(.select(Select(monster: String(repeating: "x", count: 2000))))
        let error = try #require(throws: MessageError.self) { try small.decode(frames: codec.frames(huge)) }
        #expect(error.code == .tooLarge)
    }

    @Test func emptyIdsAndOverlongDeviceIdsAreRefused() {
        #expect(refusal(valid { $0["id"] = "" })?.code == .badShape)
        #expect(refusal(valid { $0["device"] = "" })?.code == .badShape)
        #expect(refusal(valid { $0["device"] = "d" }) == nil)
        // 1 to 64 bytes of UTF-8: 64 is read, 65 refused (also when the 65th byte ends a character).
        #expect(refusal(valid { $0["device"] = String(repeating: "d", count: 64) }) == nil)
        #expect(refusal(valid { $0["device"] = String(repeating: "d", count: 65) })?.code == .badShape)
        #expect(refusal(valid { $0["device"] = String(repeating: "d", count: 63) + "é" })?.code == .badShape)
    }

    @Test(arguments: ["id", "correlationId", "service", "device"])
    func idsWithANulOrAControlCharacterAreRefusedNamingTheField(_ field: String) throws {
        for bad in ["nul\u{0}A", "tab\there", "bell\u{7}", "c1\u{85}"] {
            let json = valid { $0[field] = bad }
            let error = try #require(refusal(json), "\(field) = \(bad.debugDescription)")
            #expect(error.code == .badShape)
            #expect(error.reason.contains("field '\(field)'"))
            // A bad id is not repeated in the error (it would be refused in turn).
            if field == "id" { #expect(error.offendingId == nil) }
        }
        #expect(refusal(valid { $0[field] = "ünïcode-ok é" }) == nil)
    }

    @Test func twoDeviceIdsDifferingAfterANulAreBothRefused() {
        #expect(refusal(valid { $0["device"] = "nul\u{0}A" })?.reason.contains("device") == true)
        #expect(refusal(valid { $0["device"] = "nul\u{0}B" })?.reason.contains("device") == true)
    }

    @Test func anExcerptShowsUnprintableBytesEscaped() {
        #expect(EnvelopeCodec.excerpt([0x41, 0x00, 0xff]) == "A\\x00\\xff")
        #expect(EnvelopeCodec.excerpt(Array(repeating: 0x41, count: 70)).hasSuffix("…"))
    }
}

/// Small model rules.
@Suite(.tags(.unit)) struct ModelTests {
    @Test func osVersionsCompareNumerically() throws {
        #expect(try #require(OSVersion("3.1.3")) < OSVersion.firstWithPopovers)
        #expect(try #require(OSVersion("3.2")) >= OSVersion.firstWithPopovers)
        #expect(try #require(OSVersion("10.0")) > #require(OSVersion("9.3")))
        #expect(OSVersion("x") == nil)
        #expect(OSVersion("1..2") == nil)
    }

    @Test func weaponsAreNamedByTitleOrButton() {
        #expect(Weapon(named: "NinjaStar") == .ninjaStar)
        #expect(Weapon(named: "ninja-star") == .ninjaStar)
        #expect(Weapon(named: "laser") == nil)
    }

    @Test func timestampsAreISO8601UTCWithMilliseconds() {
        #expect(Timestamp.format(seconds: 0, milliseconds: 7) == "1970-01-01T00:00:00.007Z")
        #expect(Timestamp.format(seconds: 1_796_008_479, milliseconds: 123) == "2026-11-30T03:14:39.123Z")
    }

    @Test func timestampsParseBackToTheirSeconds() throws {
        #expect(Timestamp.parse("2026-11-30T03:14:39.123Z") == 1_796_008_479.123)
        #expect(Timestamp.parse("1970-01-01T00:00:00.007Z") == 0.007)
        // Other writers' forms: no fraction, more digits, an offset.
        #expect(Timestamp.parse("2026-11-30T03:14:39Z") == 1_796_008_479)
        #expect(Timestamp.parse("2026-11-30T03:14:39.123000+00:00") == 1_796_008_479.123)
        #expect(Timestamp.parse("2026-11-30T05:14:39.123+02:00") == 1_796_008_479.123)
        #expect(Timestamp.parse("2024-02-29T00:00:00Z") == 1_709_164_800)
        // The limits of what is read: 1 and 9 fraction digits (10 are refused below), offsets to ±23:59.
        #expect(Timestamp.parse("2026-11-30T03:14:39.5Z") == 1_796_008_479.5)
        #expect(Timestamp.parse("2026-11-30T03:14:39.500000000Z") == 1_796_008_479.5)
        #expect(Timestamp.parse("2026-12-01T03:13:39+23:59") == 1_796_008_479)
        #expect(Timestamp.parse("2026-11-29T03:15:39-23:59") == 1_796_008_479)
        let now = Timestamp.wallClock()
        let parsed = try #require(Timestamp.parse(Timestamp.now()))
        #expect(abs(parsed - now) < 1)
        for bad in ["", "t", "2026-11-30 03:14:39.123Z", "2026-13-30T03:14:39.123Z", "2026-11-30T03:14:39.12xZ",
                    "2025-02-29T00:00:00Z", "2026-11-30T03:14:39.Z", "2026-11-30T03:14:39.1234567890Z", "2026-11-30T03:14:39+0200",
                    "2026-11-30T03:14:39+24:00", "2026-11-30T03:14:39-00:60"] {
            #expect(Timestamp.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func idsAreUniqueWithinAndAcrossGenerators() {
        let one = IDGenerator(), two = IDGenerator()
        let ids = (0..<1000).map { _ in one.next() } + (0..<1000).map { _ in two.next() }
        #expect(Set(ids).count == 2000)
    }
}

/// Fields added later read as their defaults when a message does not carry them.
@Suite(.tags(.unit)) struct OptionalFieldTests {
    @Test func keyboardMetricsWithoutLeftStartAtTheWindowsEdge() throws {
        let codec = EnvelopeCodec()
        let json = #"{"v":1,"type":"input.tap","id":"a","correlationId":"a","service":"t","device":"d","seq":1,"time":"2026-11-30T00:00:00.000Z","body":{"element":"weapon","keyboard":{"width":768,"systemHeight":264,"windowHeight":1024}}}"#
        // (the members in another order than the codec writes them: read all the same)
        let envelope = try codec.decode(frames: [Array("input.tap".utf8), Array(json.utf8)])
        guard case .inputTap(let tap) = envelope.body else { Issue.record("not input.tap"); return }
        #expect(tap.keyboard.left == 0)
    }
}

/// The same message is always the same text.
@Suite(.tags(.unit)) struct DeterministicEncodingTests {
    @Test func heartbeatCountersAreWrittenInKeyOrder() throws {
        let counters: [String: UInt64] = ["zeta": 1, "alpha": 2, "mid": 3, "beta": 4, "omega": 5, "handled": 6]
        let beat = Heartbeat(service: "roster", version: "1", pid: 1, uptimeSeconds: 1, intervalMilliseconds: 1000, counters: counters)
        let text = String(decoding: try EnvelopeCodec().encode(Samples.envelope(.heartbeat(beat))), as: UTF8.self)
        #expect(text.contains(#""counters":{"alpha":2,"beta":4,"handled":6,"mid":3,"omega":5,"zeta":1}"#))
    }
}

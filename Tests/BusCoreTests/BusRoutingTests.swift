import BusCore
import Domain
import JSON
import Testing
import TestSupport
import Wire
import TestTiers

/// The topic the bus writes for a device's request: the key read from its JSON — its owner and
/// bucket — whatever the sender wrote, and always the key a decoder of the same message derives
/// (`Envelope.topic`), so that each subscriber gets exactly what its subscription says. An
/// answer goes on the key its sender (a component) wrote.
@Suite(.tags(.unit)) struct BusRoutingTests {
    let policy = BusPolicy()
    let codec = EnvelopeCodec()

    /// Every sample, on several devices and addresses (or none), as the codec writes it.
    static var envelopes: [Envelope] {
        var envelopes: [Envelope] = []
        for body in Samples.bodies {
            for device in ["ipad", "d-17", nil] as [String?] {
                for replyTo in ["0123456789abcdef", nil] as [String?] {
                    var envelope = Samples.envelope(body, device: device)
                    envelope.replyTo = replyTo
                    envelopes.append(envelope)
                }
            }
        }
        return envelopes
    }

    @Test func theKeyWrittenIsTheOneTheDecodedMessageGives() throws {
        for envelope in Self.envelopes {
            let json = try codec.encode(envelope)
            for topic in [envelope.type.rawValue, envelope.type.rawValue + "/zz", envelope.type.rawValue + "/presentation-policy/00/x"] {
                let expected = envelope.type.addressing == .byDevice ? envelope.topic : topic
                #expect(policy.topic(frames: [Array(topic.utf8), json]) == expected, "\(topic): \(envelope.type.rawValue)")
            }
        }
    }

    @Test func aKeptTopicIsTheOneTheBusWouldWrite() throws {
        // Every sample twice over, through one memo that keeps fewer frames than there are
        // keys: each topic taken from it is the one written without it.
        var memo: FrameMemo? = FrameMemo()
        for envelope in Self.envelopes + Self.envelopes {
            let json = try codec.encode(envelope)
            let topic = Array(envelope.type.rawValue.utf8)
            let plain = policy.route(from: .anonymous, frames: [topic, json])
            let kept = topic.withUnsafeBytes { topic in
                json.withUnsafeBytes { policy.route(from: .anonymous, topic: topic, frames: 2, json: $0, memo: &memo) }
            }
            #expect(kept == plain, "\(envelope.type.rawValue) \(envelope.device ?? "-")")
        }
    }

    @Test func whatASenderWritesIsWhatTheBusForwards() throws {
        for envelope in Self.envelopes {
            let frames = try codec.frames(envelope)
            #expect(policy.topic(frames: frames) == envelope.topic, "\(envelope.type.rawValue)")
        }
    }

    @Test func theKeyIsReadInAnyMemberOrderAndSpacing() throws {
        var random = SplitMix(seed: 7)
        for envelope in Self.envelopes where envelope.type.addressing == .byDevice {
            let text = Self.shuffled(try JSONValue.parse(codec.encode(envelope)), &random)
            #expect(policy.topic(frames: [Array(envelope.type.rawValue.utf8), Array(text.utf8)]) == envelope.topic, "\(text)")
        }
    }

    /// `tree` with its objects' members shuffled and spaces between them.
    static func shuffled(_ tree: JSONValue, _ random: inout SplitMix) -> String {
        switch tree {
        case .object(let members):
            return "{ " + members.shuffled(using: &random).map { JSONWriter.quoted($0.key) + " : " + shuffled($0.value, &random) }.joined(separator: " ,\n") + " }"
        case .array(let elements):
            return "[ " + elements.map { shuffled($0, &random) }.joined(separator: " , ") + " ]"
        default:
            return tree.jsonText
        }
    }

    @Test func aDevicesRequestGoesToItsOwnerAndBucket() {
        let bucket = Topic.bucket(ofDevice: "ipad")
        func topic(_ type: String, _ members: String) -> String? {
            policy.topic(frames: [Array(type.utf8), Array(#"{"v":1,"type":"\#(type)",\#(members)}"#.utf8)])
        }
        #expect(topic("device.rotate", #""device":"ipad","body":{"orientation":"landscape"}"#) == "device.rotate/" + bucket)
        #expect(topic("device.tap", #""device":"ipad","body":{"element":"add"}"#) == "device.tap/presentation-policy/" + bucket)
        #expect(topic("device.tap", #""device":"ipad","body":{"element":"fire"}"#) == "device.tap/input-handling/" + bucket)
        #expect(topic("device.tap", #""device":"ipad","body":{"point":{"x":1,"y":2}}"#) == "device.tap/input-handling/" + bucket)
        #expect(topic("device.tap", #""device":"ipad","body":{"point":null}"#) == "device.tap/presentation-policy/" + bucket)
        #expect(topic("device.interaction", #""body":{"element":"blowgun","enabled":false}"#) == "device.interaction/input-handling")
        // The body's device is not the envelope's; an escaped device is the device it spells.
        #expect(topic("device.rotate", #""body":{"device":"ipad"}"#) == "device.rotate")
        #expect(topic("device.rotate", #""device":"\u0069pad""#) == "device.rotate/" + bucket)
        // A repeated member's first value decides, as for the decoders.
        #expect(topic("device.tap", #""device":"ipad","device":"other","body":{"element":"fire","element":"add"}"#) == "device.tap/input-handling/" + bucket)
        // JSON unreadable after what the bus needs is keyed all the same: the device's owner
        // answers its decoding error.
        #expect(topic("device.tap", #""device":"ipad","body":{"element":"add"},"seq":oops"#) == "device.tap/presentation-policy/" + bucket)
        // JSON the bus cannot read reaches the service its type goes to, which answers it.
        #expect(policy.topic(frames: [Array("device.tap".utf8), Array("{not json".utf8)]) == "device.tap/presentation-policy")
        #expect(policy.topic(frames: [Array("device.tap".utf8)]) == "device.tap/presentation-policy")
    }

    @Test func anAnswerKeepsTheKeyItsSenderWrote() {
        for topic in ["ack", "ack/abc", "presentation.presented/popover/abc", "presentation.dismissed/alert", "sys.heartbeat", "sys.heartbeat/x"] {
            let type = String(topic.prefix { $0 != "/" })
            #expect(policy.topic(frames: [Array(topic.utf8), Array(#"{"v":1,"type":"\#(type)","replyTo":"other"}"#.utf8)]) == topic, "\(topic)")
        }
    }

    /// The owners' subscriptions to taps and interaction changes, unsharded and per bucket,
    /// match (as ZeroMQ prefixes) exactly the ones each owns; the bare type matches all.
    @Test func eachOwnersSubscriptionsMatchExactlyItsOwnTaps() throws {
        let owners = [MonsterBus.Service.presentationPolicy, MonsterBus.Service.inputHandling]
        let bodies: [Body] = [
            .tap(Tap(element: "add")), .tap(Tap(element: "fire")), .tap(Tap(point: Point(x: 1, y: 2))), .tap(Tap(element: "laser")),
            .interaction(Interaction(element: "blowgun", enabled: false)), .interaction(Interaction(element: "weapon", enabled: true)),
        ]
        let buckets = (0..<Topic.bucketCount).map(Topic.bucketName)
        for body in bodies {
            for device in ["ipad", "iphone", "d-17", nil] {
                let envelope = Envelope(id: "m", correlationId: "m", service: "gateway", device: device, seq: 1, time: "2026-11-30T03:14:40.000Z", body: body)
                let topic = try #require(policy.topic(frames: try codec.frames(envelope)))
                let owner = try #require(Routing.firstHop(of: body)?.first)
                for service in owners {
                    #expect(topic.hasPrefix(Routing.subscription(to: body.type, as: service)) == (service == owner), "\(service) \(topic)")
                    let matching = buckets.filter { topic.hasPrefix(Routing.subscription(to: body.type, as: service, bucket: $0)) }
                    #expect(matching == (service == owner ? device.map { [Topic.bucket(ofDevice: $0)] } ?? [] : []), "\(service) \(topic)")
                }
                #expect(topic.hasPrefix(body.type.rawValue))
            }
        }
        #expect(Routing.subscription(to: .rotate, as: MonsterBus.Service.presentationPolicy) == "device.rotate")
        #expect(Routing.subscription(to: .rotate, as: MonsterBus.Service.presentationPolicy, bucket: "3f") == "device.rotate/3f")
    }

    @Test func inputHandlingHearsAlertsOnlyAndAClientBothStylesOnItsAddress() throws {
        let reader = Routing.subscription(to: .presented, as: MonsterBus.Service.inputHandling)
        #expect(reader == "presentation.presented/alert")
        let client = Topic.answerSubscriptions(to: .presented, address: "abc")
        for style in PresentationStyle.allCases {
            var envelope = Samples.envelope(.presented(Presented(presentation: style == .alert ? Samples.alert : Samples.popover, reason: "tap")))
            envelope.replyTo = "abc"
            let topic = try #require(policy.topic(frames: try codec.frames(envelope)))
            #expect(topic.hasPrefix(reader) == (style == .alert))
            #expect(client.filter { topic.hasPrefix($0) }.count == 1)
        }
    }

    /// A table handed to the policy decides who owns what a tap touches: the bus names no element.
    @Test func theOwnersAreTheTableTheBusIsHanded() {
        let table = OwnerTable(rules: [.tap: OwnerTable.Rule(byElement: ["lever": "crane"], atPoint: "screen", otherwise: "app")])
        let custom = BusPolicy(owners: table)
        func topic(_ body: String) -> String? {
            custom.topic(frames: [Array("device.tap".utf8), Array(#"{"v":1,"type":"device.tap","body":\#(body)}"#.utf8)])
        }
        #expect(topic(#"{"element":"lever"}"#) == "device.tap/crane")
        #expect(topic(#"{"element":"fire"}"#) == "device.tap/app")
        #expect(topic(#"{"point":{"x":1,"y":1}}"#) == "device.tap/screen")
        // A type the table does not name has no owner in its key.
        #expect(custom.topic(frames: [Array("device.interaction".utf8), Array("{}".utf8)]) == "device.interaction")
    }
}

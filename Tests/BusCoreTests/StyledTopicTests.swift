import BusCore
import Domain
import Testing
import Wire

/// A presentation's topic carries its style (`Topic.styled`: `type/STYLE/REPLYTO`), which the
/// bus reads from the body whatever its publisher wrote: input-handling subscribes to alerts'
/// only (`Routing.readsOnlyStyle`), so no publisher, careless or hostile, may hide an alert from
/// it behind a popover's topic.
@Suite struct StyledTopicTests {
    let policy = BusPolicy()
    let codec = EnvelopeCodec()
    static let address = "0123456789abcdef"

    /// A presentation of `style` (the fields its style has).
    static func presentation(_ style: PresentationStyle) -> Presentation {
        let alert = style == .alert
        return Presentation(
            style: style, content: .add, message: alert ? "Add…" : nil, buttons: alert ? ["Cancel", "Photo", "Audio"] : ["Photo", "Audio"],
            buttonFrames: [], cancelButtonIndex: alert ? 0 : nil,
            anchor: alert ? nil : Anchor(kind: .barButton, element: "add", rect: Rect(x: 716, y: 20, width: 44, height: 44)),
            permittedArrowDirections: alert ? nil : .any, arrowDirection: alert ? .unknown : .up, arrowTip: nil,
            frame: Rect(x: 10, y: 20, width: 270, height: 200), contentSize: Size(width: 270, height: 200), passthrough: [])
    }

    /// The envelope of `type` (presented or dismissed) for a presentation of `style`.
    static func envelope(_ type: MessageType, _ style: PresentationStyle, replyTo: String? = address) -> Envelope {
        let body: Body = type == .presented
            ? .presented(Presented(presentation: presentation(style), reason: "tap"))
            : .dismissed(Dismissed(presentation: presentation(style), reason: "button", button: "Cancel", buttonIndex: 0))
        return Envelope(
            id: "m1", correlationId: "a1", service: MonsterBus.Service.presentationPolicy, device: "ipad", seq: 1,
            time: "2026-11-30T03:14:40.000Z", replyTo: replyTo, body: body)
    }

    /// The topic the bus forwards `json` on when `topic` is written, from `sender`.
    func forwarded(_ json: String, topic: String, from sender: BusPolicy.Sender = .anonymous) -> String {
        let bytes = Array(json.utf8), topicBytes = Array(topic.utf8)
        return topicBytes.withUnsafeBytes { t in
            bytes.withUnsafeBytes { j in
                let (refusal, peek) = policy.judge(from: sender, topic: t, frames: 2, json: j)
                #expect(refusal == nil)
                return policy.deviceTopic(topic: t, peek: peek, json: j).map { String(decoding: $0, as: UTF8.self) } ?? topic
            }
        }
    }

    @Test func aPresentationsTopicIsItsTypeItsStyleAndItsAddress() throws {
        for type in [MessageType.presented, .dismissed] {
            for style in PresentationStyle.allCases {
                let envelope = Self.envelope(type, style)
                let topic = "\(type.rawValue)/\(style.rawValue)/\(Self.address)"
                #expect(envelope.topic == topic)
                #expect(try codec.frames(envelope)[0] == Array(topic.utf8))
                #expect(Self.envelope(type, style, replyTo: nil).topic == "\(type.rawValue)/\(style.rawValue)")
                // The codec accepts the bare type or exactly that topic: another style is a mismatch.
                let json = try codec.encode(envelope)
                #expect(try codec.decode(frames: [Array(topic.utf8), json]) == envelope)
                #expect(try codec.decode(frames: [Array(type.rawValue.utf8), json]) == envelope)
                let other = style == .alert ? PresentationStyle.popover : .alert
                for wrong in ["\(type.rawValue)/\(other.rawValue)/\(Self.address)", "\(type.rawValue)/\(Self.address)", "\(type.rawValue)/\(style.rawValue)"] {
                    let error = try #require(throws: MessageError.self) { try codec.decode(frames: [Array(wrong.utf8), json]) }
                    #expect(error.code == .topicMismatch, "\(wrong)")
                }
            }
        }
        // Other answers that carry a presentation keep `type/REPLYTO`.
        let moved = Envelope(
            id: "m1", correlationId: "a1", service: "presentation-policy", device: "ipad", seq: 1, time: "2026-11-30T03:14:40.000Z",
            replyTo: Self.address, body: .moved(Moved(presentation: Self.presentation(.alert), reason: "rotation")))
        #expect(moved.topic == "presentation.moved/\(Self.address)")
    }

    @Test func inputHandlingSubscribesToAlertsOnlyAndAClientToBothStylesOnItsAddress() {
        let input = MonsterBus.Service.inputHandling
        for type in [MessageType.presented, .dismissed] {
            let reader = Routing.subscription(to: type, as: input)
            #expect(reader == "\(type.rawValue)/alert")
            #expect(Routing.subscription(to: type, as: MonsterBus.Service.presentationPolicy) == type.rawValue)
            let asking = Topic.answerSubscriptions(to: type, address: Self.address)
            #expect(asking == ["\(type.rawValue)/popover/\(Self.address)", "\(type.rawValue)/alert/\(Self.address)"])
            #expect(Topic.answerSubscriptions(to: type, address: nil) == [type.rawValue])
            for replyTo in [Self.address, nil] {
                let alert = Self.envelope(type, .alert, replyTo: replyTo).topic, popover = Self.envelope(type, .popover, replyTo: replyTo).topic
                #expect(alert.hasPrefix(reader) && !popover.hasPrefix(reader))
                if replyTo != nil {
                    #expect(asking.filter(alert.hasPrefix).count == 1 && asking.filter(popover.hasPrefix).count == 1)
                    #expect(!asking.contains { Self.envelope(type, .alert, replyTo: "fedcba9876543210").topic.hasPrefix($0) })
                }
            }
        }
        #expect(Topic.answerSubscriptions(to: .ack, address: Self.address) == ["ack/\(Self.address)"])
        #expect(Topic.answerSubscriptions(to: .tap, address: Self.address) == ["device.tap"])
        let client = Topic.clientSubscriptions(address: Self.address)
        #expect(client.contains("presentation.presented/alert/\(Self.address)") && client.contains("presentation.dismissed/popover/\(Self.address)"))
        #expect(!client.contains("presentation.presented/\(Self.address)"))
    }

    @Test func theBusForwardsOursAsTheyAreAndRewritesAnyOtherTopicFromTheBody() throws {
        for type in [MessageType.presented, .dismissed] {
            for style in PresentationStyle.allCases {
                for replyTo in [Self.address, nil] {
                    let envelope = Self.envelope(type, style, replyTo: replyTo)
                    let frames = try codec.frames(envelope)
                    let json = String(decoding: frames[1], as: UTF8.self)
                    // Ours: read quickly, compared in place, forwarded as written.
                    let ours = frames[0].withUnsafeBytes { t in
                        frames[1].withUnsafeBytes { j in
                            let (_, peek) = policy.judge(from: .client(.presentationPolicy), topic: t, frames: 2, json: j)
                            return PresentationStyleRead(j) != nil && policy.deviceTopic(topic: t, peek: peek, json: j) == nil
                        }
                    }
                    #expect(ours)
                    let written = [
                        type.rawValue, "\(type.rawValue)/alert", "\(type.rawValue)/popover", "\(type.rawValue)/\(Self.address)",
                        "\(type.rawValue)/popover/\(Self.address)", "\(type.rawValue)/alert/\(Self.address)", "\(type.rawValue)/alert/fedcba9876543210",
                        "\(type.rawValue)/alertx/\(Self.address)", "\(type.rawValue)/popover/\(Self.address)/x", "\(type.rawValue)/",
                    ]
                    for topic in written {
                        // The right style first: forwarded as written (the address is the decoders' to
                        // check); else the whole topic is the body's.
                        let styled = "\(type.rawValue)/\(style.rawValue)"
                        let expected = topic == styled || topic.hasPrefix(styled + "/") ? topic : envelope.topic
                        for sender in [BusPolicy.Sender.anonymous, .client(.presentationPolicy)] {
                            #expect(forwarded(json, topic: topic, from: sender) == expected, "\(topic) \(style)")
                        }
                        // The in-memory bus routes as the bus does.
                        #expect(policy.deviceTopic(frames: [Array(topic.utf8), frames[1]]).map { String(decoding: $0, as: UTF8.self) } ?? topic == expected)
                    }
                }
            }
        }
    }

    @Test func theBusReadsOursOnlyUpToTheStyleAndAnythingElseWhole() throws {
        for type in [MessageType.presented, .dismissed] {
            for style in PresentationStyle.allCases {
                let json = try codec.encode(Self.envelope(type, style))
                let whole = try #require(EnvelopePeek(json))
                let read = try #require(json.withUnsafeBytes { PresentationStyleRead($0) } as PresentationStyleRead?)
                #expect(read.style == whole.style)
                #expect(String(decoding: json[read.style], as: UTF8.self) == style.rawValue)
                // Nothing after the style's value is read (here: cut off); the whole read needs it all.
                let cut = Array(json[..<(read.style.upperBound + 1)])
                #expect(cut.withUnsafeBytes { PresentationStyleRead($0) } == read)
                #expect(EnvelopePeek(cut) == nil)
            }
        }
        // Not as ours are written: read whole, to the same end.
        let ours = String(decoding: try codec.encode(Self.envelope(.presented, .popover)), as: UTF8.self)
        // (An escape in a header key or in `service` leaves the style unread: the readers of alerts judge.)
        let others: [(json: String, style: String)] = [
            (ours.replacingOccurrences(of: ",", with: ", "), "popover"),
            (ours.replacingOccurrences(of: #""presentation":{"style":"popover","#, with: #""presentation":{"content":"add","style":"popover","#), "popover"),
            (ours.replacingOccurrences(of: #""body":{"presentation":"#, with: #""body":{"reason":"tap","presentation":"#), "popover"),
            (ours.replacingOccurrences(of: #""v":1,"#, with: #""v":1,"extra":{"replyTo":"fedcba9876543210"},"#), "popover"),
            (ours.replacingOccurrences(of: #""device":"ipad""#, with: #""device":"ip\u0061d""#), "popover"),
            (ours.replacingOccurrences(of: #""service":"presentation-policy""#, with: #""service":"presentation\u002dpolicy""#), "alert"),
        ]
        for (json, style) in others {
            #expect(Array(json.utf8).withUnsafeBytes { PresentationStyleRead($0) } == nil, "\(json)")
            #expect(forwarded(json, topic: "presentation.presented") == "presentation.presented/\(style)/\(Self.address)", "\(json)")
        }
        // The body before the replyTo (as Python's orjson writes the peer's): read quickly; the
        // address, needed only to rewrite a topic, read whole.
        let late = #"{"v":1,"body":{"presentation":{"style":"popover","content":"add"},"reason":"tap"},"replyTo":"0123456789abcdef"}"#
        #expect(Array(late.utf8).withUnsafeBytes { PresentationStyleRead($0) }.map { String(decoding: Array(late.utf8)[$0.style], as: UTF8.self) } == "popover")
        #expect(forwarded(late, topic: "presentation.presented/popover/0123456789abcdef") == "presentation.presented/popover/0123456789abcdef")
        #expect(forwarded(late, topic: "presentation.presented/alert") == "presentation.presented/popover/\(Self.address)")
        for broken in ["", "{", #"{"v":1"#, #"{"replyTo":"a","body":{"presentation":{"style":"pop"#, #"{"replyTo":"a\"b","body":{"presentation":{"style":"popover"}}}"#] {
            #expect(Array(broken.utf8).withUnsafeBytes { PresentationStyleRead($0) } == nil, "\(broken)")
        }
    }

    /// However the body is written, the style in the topic is the one the readers decode; a
    /// style the bus cannot read goes to the readers of alerts, who decode and judge.
    @Test func theStyleInTheTopicIsTheOneTheReadersDecode() throws {
        let alert = String(decoding: try codec.encode(Self.envelope(.presented, .alert)), as: UTF8.self)
        let popover = String(decoding: try codec.encode(Self.envelope(.presented, .popover)), as: UTF8.self)
        let hidden = "presentation.presented/popover/\(Self.address)", shown = "presentation.presented/alert/\(Self.address)"
        let shapes: [(json: String, topic: String)] = [
            (alert, shown),
            (popover, hidden),
            // The style written with escapes, its key too, the presentation's key too.
            (alert.replacingOccurrences(of: #""style":"alert""#, with: #""style":"\u0061lert""#), shown),
            (alert.replacingOccurrences(of: #""style":"alert""#, with: #""st\u0079le":"alert""#), shown),
            (alert.replacingOccurrences(of: #""presentation":{"#, with: #""pr\u0065sentation":{"#), shown),
            // The body first (no replyTo); the style after the presentation's other keys.
            (#"{"body":{"reason":"tap","presentation":{"content":"add","anchor":{"style":"popover"},"style":"alert"}},"v":1}"#, "presentation.presented/alert"),
            // Nothing the bus can read as a style: the readers of alerts decode it and judge.
            (popover.replacingOccurrences(of: #""style":"popover""#, with: #""style":7"#), "presentation.presented/alert/\(Self.address)"),
            (popover.replacingOccurrences(of: #""style":"popover""#, with: #""style":"banner""#), "presentation.presented/alert/\(Self.address)"),
            (popover.replacingOccurrences(of: #""type":"#, with: #""ty\u0070e":"#), "presentation.presented/alert/\(Self.address)"),
            ("{not json", "presentation.presented/alert"),
        ]
        for (json, expected) in shapes {
            let style = expected.split(separator: "/")[1]
            for written in [hidden, shown, "presentation.presented"] {
                // The right style first: forwarded as written; else the body's whole topic.
                let topic = forwarded(json, topic: written)
                #expect(topic == (written.hasPrefix("presentation.presented/\(style)") ? written : expected), "\(written) \(json)")
                if let envelope = try? codec.decode(frames: [Array(topic.utf8), Array(json.utf8)]) {
                    #expect(Topic.style(of: envelope.body)?.rawValue == String(style), "\(json)")
                }
            }
        }
    }
}

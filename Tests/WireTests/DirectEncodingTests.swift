import Domain
import Foundation
import Testing
@testable import Wire

/// The direct writer of the hottest envelopes writes exactly the bytes of the `Encodable` path,
/// which Foundation reads back as the same envelope; it gives up on a non-finite number, and
/// the codec then refuses it as before.
@Suite struct DirectEncodingTests {
    static let directBodies: [Body] = [
        .presented(Presented(presentation: Samples.popover, reason: "tap")),
        .presented(Presented(presentation: Samples.alert, reason: "rotation")),
        .dismissed(Dismissed(presentation: Samples.popover, reason: "toggle")),
        .dismissed(Dismissed(presentation: Samples.alert, reason: "button", button: "Cancel", buttonIndex: 0)),
        .dismissed(Dismissed(presentation: Samples.popover, reason: "tab\t\"quoted\" \\ é")),
        .ack(Ack(handled: "device.tap", handledId: "a-1", emitted: [], forwarded: [])),
        .ack(Ack(handled: "device.tap", handledId: "a-1", emitted: ["b-1", "b-2"], forwarded: [Forward(id: "b-2", service: "roster")], duplicate: true)),
        .tap(Tap(element: "add")),
        .tap(Tap(element: "tab\t\"quoted\" \\ é")),
        .tap(Tap(element: "01234567\"abcdefgh\\ijklmnop\u{1}qrstuvwxé€\u{7f}yz")),
        .select(Select(monster: "abcdefghijklmnop\u{1f}")),
        .select(Select(monster: "abcdefghijklmnopqrstuvwxyz éèà €")),
        .tap(Tap(point: Point(x: 12.5, y: -0.0))),
        .tap(Tap(point: Point(x: 1e-7, y: 1.5e17))),
        .rotate(Rotate(orientation: .landscape)),
        .resize(Resize(width: .compact)),
        .resize(Resize(mode: .splitView)),
        .select(Select(monster: "Dog-Bot")),
        .interaction(Interaction(element: "weapon", enabled: false)),
        .interaction(Interaction(element: "add", enabled: true)),
        .describe(Describe()),
    ]

    /// A tap with an element and a point (not what a client sends, but a valid value) keeps
    /// both, in declaration order.
    @Test func aTapWithBothElementAndPoint() throws {
        var tap = Tap(element: "add")
        tap.point = Point(x: 1, y: 2)
        let envelope = Samples.envelope(.tap(tap))
        #expect(try #require(DirectEncoding.encode(envelope)) == (try FastJSONEncoder.encode(envelope)))
    }

    @Test func anActionWithAProfileTakesTheEncodablePath() {
        #expect(DirectEncoding.encode(Samples.envelope(.tap(Tap(element: "add", profile: .ipad)))) == nil)
    }

    @Test(arguments: directBodies)
    func writesTheSameBytesAsTheEncodablePath(_ body: Body) throws {
        var addressed = Samples.envelope(body)
        addressed.replyTo = "0123456789abcdef"
        for envelope in [Samples.envelope(body), Samples.envelope(body, device: nil), headerless(body), addressed] {
            let direct = try #require(DirectEncoding.encode(envelope))
            #expect(direct == (try FastJSONEncoder.encode(envelope)))
            #expect(try JSONDecoder().decode(Envelope.self, from: Data(direct)) == envelope)
            #expect(try EnvelopeCodec().encode(envelope) == direct)
        }
    }

    /// Header texts of every length around the 8-byte words the writer checks at a time, with
    /// a character to escape (or not) at each end, and a version other than 1 (which has no
    /// prefix of its own), are written as the `Encodable` path writes them.
    @Test func headerTextsOfEveryLengthAndVersion() throws {
        for length in 0...19 {
            for special in ["", "\"", "\\", "\u{1}", "é"] {
                let plain = String(repeating: "a", count: length)
                for text in [plain + special, special + plain] where !text.isEmpty {
                    for version in [1, 2] {
                        var envelope = Envelope(
                            id: text, correlationId: "c" + text, service: text, device: text, seq: UInt64(length) * 1_000_003,
                            time: text, traceparent: text, parentSpan: text, replyTo: text,
                            body: .ack(Ack(handled: text, handledId: text, emitted: [text, text], forwarded: [Forward(id: text, service: text)])))
                        envelope.version = version
                        #expect(try #require(DirectEncoding.encode(envelope)) == (try FastJSONEncoder.encode(envelope)))
                    }
                }
            }
        }
    }

    /// `EnvelopeCodec.write(_:into:)` leaves in the writer the JSON `frames` gives, and returns
    /// its topic frame, for the direct types and the others.
    @Test(arguments: directBodies + Samples.bodies)
    func writingIntoAWriterGivesTheFrames(_ body: Body) throws {
        var addressed = Samples.envelope(body)
        addressed.replyTo = "0123456789abcdef"
        let codec = EnvelopeCodec()
        let writer = JSONWriter(capacity: 16)
        var topics = TopicFrames()
        for envelope in [Samples.envelope(body), addressed] {
            let frames = try codec.frames(envelope)
            let topic = try codec.write(envelope, into: writer, topics: &topics)
            #expect([topic, writer.withBytes { Array($0) }] == frames)
        }
    }

    @Test func leavesOtherTypesToTheEncodablePath() {
        #expect(DirectEncoding.encode(Samples.envelope(.ping(Ping()))) == nil)
    }

    @Test func aNonFiniteNumberIsStillRefusedWithItsField() {
        var popover = Samples.popover
        popover.frame.width = .infinity
        let envelope = Samples.envelope(.presented(Presented(presentation: popover, reason: "tap")))
        #expect(DirectEncoding.encode(envelope) == nil)
        #expect(throws: MessageError.self) { try EnvelopeCodec().encode(envelope) }
    }

    /// A presentation written again is copied from the first writing only when it would be the
    /// same bytes: equal values spelled differently in JSON (`-0.0` and `0.0`, two spellings of
    /// `é`) are each written as they are.
    @Test(arguments: [
        { (p: inout Presentation) in p.frame.x = -0.0 },
        { (p: inout Presentation) in p.buttons[0] = "e\u{301}" },
        { (p: inout Presentation) in p.anchor?.element = "e\u{301}" },
        { (p: inout Presentation) in p.buttonFrames[0].width = -0.0 },
    ] as [@Sendable (inout Presentation) -> Void])
    func aPresentationWrittenAgainIsTheSameBytesAsItsValue(_ change: @Sendable (inout Presentation) -> Void) throws {
        var first = Samples.popover
        first.frame.x = 0
        first.buttons[0] = "\u{e9}"
        first.anchor?.element = "\u{e9}"
        first.buttonFrames[0].width = 0
        var second = first
        change(&second)
        #expect(first == second)
        for presentation in [first, second, first, second] {
            let envelope = Samples.envelope(.presented(Presented(presentation: presentation, reason: "tap")))
            #expect(try #require(DirectEncoding.encode(envelope)) == (try FastJSONEncoder.encode(envelope)))
        }
    }

    /// `body` in an envelope without trace context.
    private func headerless(_ body: Body) -> Envelope {
        Envelope(id: "x", correlationId: "y", service: "s", device: "d", seq: 0, time: "2026-11-30T03:14:39.123Z", body: body)
    }
}

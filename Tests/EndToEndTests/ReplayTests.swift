import Domain
import Foundation
import Testing
import Wire
import TestTiers

/// Replays and forged times through the real bus: every service answers a message id it has
/// already handled with its first acknowledgement marked `duplicate` and changes nothing; a
/// `time` that is not a timestamp, or is ahead of the clock, is refused; numbers that could
/// not be sent are refused at the door.
@Suite(.serialized, .tags(.processes)) final class ReplayTests {
    let stack: Stack
    let client: TestClient

    init() throws {
        stack = try Stack()
        client = try TestClient(stack, subscriptions: ["ack", "error", "presentation.", "input.", "roster.", "media.", "color."])
        #expect(client.waitForPath(to: Stack.services))
    }

    /// Sends `envelope` and returns `service`'s ack of it and every message with its
    /// correlation id that arrived before that ack.
    func deliver(_ envelope: Envelope, to service: String) throws -> (ack: Ack, before: [Envelope]) {
        try client.bus.send(envelope)
        var before: [Envelope] = []
        let answer = client.waitFor { message in
            if case .ack(let ack) = message.body, ack.handledId == envelope.id, message.service == service { return true }
            if message.correlationId == envelope.correlationId, message.id != envelope.id { before.append(message) }
            return false
        }
        guard case .ack(let ack)? = answer?.body else { throw StackError("no ack from \(service) for \(envelope.id)") }
        return (ack, before)
    }

    /// Sends `envelope` twice: the second delivery must be acknowledged as a duplicate listing
    /// what the first caused, with nothing published again but what it forwarded. Returns the first ack.
    @discardableResult
    func expectReplayChangesNothing(_ envelope: Envelope, at service: String) throws -> Ack {
        let first = try deliver(envelope, to: service)
        #expect(!first.ack.duplicate)
        let second = try deliver(envelope, to: service)
        #expect(second.ack.duplicate, "\(envelope.type.rawValue) was handled again")
        #expect(second.ack.emitted == first.ack.emitted)
        #expect(second.ack.forwarded == first.ack.forwarded)
        // Only what it passed on to another service goes again, the same messages (same ids), so
        // that a hop lost the first time is completed; that service answers it as a duplicate.
        let fromService = second.before.filter { $0.service == service }
        #expect(fromService.map(\.id).sorted() == first.ack.forwarded.map(\.id).sorted(), "published again: \(fromService.map(\.type.rawValue))")
        return first.ack
    }

    func presentationStyle(_ device: String) throws -> String? {
        let describe = try stack.json(device, "describe")
        return value(describe.body("layout.state"), "presentation.style") as? String
    }

    @Test func aReplayedTapChangesNothingInPresentationPolicy() throws {
        // Applied twice, `tap add` would toggle its popover off again.
        let tap = client.bus.envelope(.tap(Tap(element: "add", profile: .ipad)), device: "replay-ipad")
        let first = try expectReplayChangesNothing(tap, at: MonsterBus.Service.presentationPolicy)
        #expect(!first.emitted.isEmpty)
        #expect(try presentationStyle("replay-ipad") == "popover")
    }

    @Test func aNewIdIsHandledAgainAsTheReplayIsNot() throws {
        // The control: the same action under a new id does toggle the popover off.
        _ = try stack.json("toggle", "--profile", "ipad", "tap", "add")
        #expect(try presentationStyle("toggle") == "popover")
        let tap = client.bus.envelope(.tap(Tap(element: "add", profile: .ipad)), device: "toggle")
        try expectReplayChangesNothing(tap, at: MonsterBus.Service.presentationPolicy)
        #expect(try presentationStyle("toggle") == nil)
    }

    @Test func aReplayedInputTapChangesNothingInInputHandling() throws {
        let keyboard = KeyboardMetrics(width: 768, systemHeight: 264, windowHeight: 1024)
        _ = try deliver(client.bus.envelope(.inputTap(InputTap(element: "weapon", keyboard: keyboard)), device: "replay-input"), to: MonsterBus.Service.inputHandling)
        // Applied again, `fire` would be refused: the picker is gone after the first.
        let fire = client.bus.envelope(.tap(Tap(element: "fire")), device: "replay-input")
        let first = try expectReplayChangesNothing(fire, at: MonsterBus.Service.inputHandling)
        #expect(first.forwarded.map(\.service) == [MonsterBus.Service.roster])
    }

    @Test func aReplayedChangeChangesNothingInRoster() throws {
        let before = try #require(value(try stack.json("replay-roster", "roster").body("roster.snapshot"), "revision") as? Int)
        let change = client.bus.envelope(.colorSelected(ColorSelected(color: .green)), device: "replay-roster")
        let first = try expectReplayChangesNothing(change, at: MonsterBus.Service.roster)
        #expect(first.emitted.count == 1)
        let after = try #require(value(try stack.json("replay-roster", "roster").body("roster.snapshot"), "revision") as? Int)
        #expect(after == before + 1)
    }

    /// `envelope` with its `time` replaced by `time`, as frames.
    func frames(_ envelope: Envelope, time: String) throws -> [[UInt8]] {
        var text = String(decoding: try client.bus.codec.encode(envelope), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"time\":\"\(envelope.time)\"", with: "\"time\":\"\(time)\"")
        #expect(text.contains("\"time\":\"\(time)\""))
        return [Array(envelope.type.rawValue.utf8), Array(text.utf8)]
    }

    /// The `error` of `service` about the message `id`.
    func error(about id: String, from service: String) -> ErrorBody? {
        let answer = client.waitFor { message in
            guard case .error(let error) = message.body, message.service == service else { return false }
            return error.offendingId == id
        }
        if case .error(let error)? = answer?.body { return error }
        return nil
    }

    @Test func aTimeThatIsNotATimestampIsRefused() throws {
        for time in ["x", "", "2026-02-30T00:00:00.000Z"] {
            let tap = client.bus.envelope(.tap(Tap(element: "add", profile: .ipad)), device: "bad-time")
            try client.bus.sendRaw(try frames(tap, time: time))
            let refusal = try #require(error(about: tap.id, from: MonsterBus.Service.presentationPolicy), "time '\(time)'")
            #expect(refusal.code == "bad-time")
            #expect(refusal.message.contains("'time'"))
        }
        #expect(try stack.json("bad-time", "--profile", "ipad", "describe").status == 0)
        #expect(try presentationStyle("bad-time") == nil)
    }

    @Test func aTimeAheadOfTheClockIsRefusedAndChangesNothing() throws {
        let tap = client.bus.envelope(.tap(Tap(element: "add", profile: .ipad)), device: "future")
        let tomorrow = Timestamp.format(seconds: Int(Timestamp.wallClock()) + 86_400, milliseconds: 0)
        try client.bus.sendRaw(try frames(tap, time: tomorrow))
        let refusal = try #require(error(about: tap.id, from: MonsterBus.Service.presentationPolicy))
        #expect(refusal.code == "bad-time")
        #expect(refusal.message.contains("CLOCK_SKEW_MS"))
        #expect(try stack.json("future", "--profile", "ipad", "describe").status == 0)
        #expect(try presentationStyle("future") == nil)
        // CLOCK_SKEW_MS is milliseconds (1000 by default): five seconds ahead is too far as well.
        let soon = client.bus.envelope(.tap(Tap(element: "add", profile: .ipad)), device: "future")
        try client.bus.sendRaw(try frames(soon, time: Timestamp.format(seconds: Int(Timestamp.wallClock()) + 6, milliseconds: 0)))
        #expect(try #require(error(about: soon.id, from: MonsterBus.Service.presentationPolicy)).code == "bad-time")
        #expect(try presentationStyle("future") == nil)
    }

    @Test func numbersThatCouldNotBeSentAreRefusedAtTheDoor() throws {
        // Metrics whose frame would be -infinity: input-handling refuses them, publishing nothing.
        let huge = KeyboardMetrics(width: 1e308, systemHeight: 1.7e308, windowHeight: -1.7e308)
        let notes = client.bus.envelope(.inputTap(InputTap(element: "notes", keyboard: huge)), device: "huge")
        let answer = try deliver(notes, to: MonsterBus.Service.inputHandling)
        let published = answer.before.filter { $0.service == MonsterBus.Service.inputHandling }
        #expect(published.count == 1)
        guard case .error(let refusal)? = published.first?.body else { Issue.record("no error: \(published)"); return }
        #expect(refusal.code == "bad-keyboard")

        // A number too large for a double is refused by the decoder.
        let tap = client.bus.envelope(.tap(Tap(point: Point(x: 1, y: 2), profile: .ipad)), device: "huge")
        var text = String(decoding: try client.bus.codec.encode(tap), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"x\":1", with: "\"x\":1e999")
        try client.bus.sendRaw([Array("device.tap".utf8), Array(text.utf8)])
        // A tap at a point is input-handling's (the bus reads the point's owner, not its number).
        let decodeRefusal = try #require(error(about: tap.id, from: MonsterBus.Service.inputHandling))
        #expect(decodeRefusal.code == "bad-shape")
    }

    @Test func aOneFrameMessageIsAnsweredWithAnError() throws {
        // On a type's topic it reaches the type's service (a tap whose body the bus cannot read:
        // presentation-policy), which refuses it.
        try client.bus.sendRaw([Array("device.tap".utf8)])
        let answer = client.waitFor { message in
            if case .error(let error) = message.body { return error.code == "bad-frames" && error.excerpt == "device.tap/presentation-policy" }
            return false
        }
        #expect(answer?.service == MonsterBus.Service.presentationPolicy)
    }
}

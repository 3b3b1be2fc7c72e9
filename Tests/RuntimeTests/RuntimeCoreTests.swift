import Domain
import ProcessSupport
import Runtime
import Testing
import TestSupport
import Wire
import TestTiers

/// The runtime's decisions without a socket: what goes out for what comes in, at set times.
@Suite(.tags(.inMemory)) struct RuntimeCoreTests {
    /// Taps: an answer, and a message forwarded to input-handling; a device idle expires it.
    struct Handler: ServiceHandler {
        var handledCount = 0
        /// Devices idle once the wall clock reaches `idleFrom`.
        var idle: [String] = []
        var idleFrom = Double.infinity
        /// Also publishes a layout change, which input-handling reads and acknowledges.
        var publishesALayout = false
        /// Who publishes the acknowledgement.
        var acknowledgement = Reply.Acknowledgement.published
        /// Who publishes a repeat's acknowledgement.
        var repeatAcknowledgement = Reply.Acknowledgement.published
        var handledTypes: [MessageType] = [.tap]
        mutating func acknowledgement(ofRepeat envelope: Envelope) -> Reply.Acknowledgement { repeatAcknowledgement }
        mutating func handle(_ envelope: Envelope) -> Reply {
            handledCount += 1
            return Reply([
                .publish(.unchanged(Unchanged(reason: "test", message: "seen"))),
                .forward(.forget(Forget()), to: "input-handling"),
            ] + (publishesALayout ? [.publish(.deviceLayout(Samples.layout))] : []), acknowledgement: acknowledgement)
        }
        mutating func forgetIdleDevices(now: Double) -> [String] {
            guard now >= idleFrom else { return [] }
            defer { idle = [] }
            return idle
        }
    }

    /// 2026-11-30T03:14:39.123Z.
    static let wall = 1_796_008_479.123
    let codec = EnvelopeCodec()
    /// What the core logged, and the ids it took (one thread at a time: the test's).
    final class Record: @unchecked Sendable {
        var lines: [String] = []
        var ids = 0
    }
    let record = Record()
    let clock = RuntimeClock(wall: { RuntimeCoreTests.wall }, monotonic: { 100 })

    func core(_ handler: Handler = Handler(), heartbeatMilliseconds: Int = 1000) -> RuntimeCore<Handler> {
        var config = BusConfig(heartbeatIntervalMilliseconds: heartbeatMilliseconds)
        config.actionTimeToLiveMilliseconds = 30_000
        let record = record
        return RuntimeCore(
            handler: handler, settings: .init(name: "test-service", pid: 42, config: config), clock: clock,
            ids: { record.ids += 1; return "id-\(record.ids)" }
        ) { _, text, _ in record.lines.append(text) }
    }

    func at(_ wall: Double = RuntimeCoreTests.wall, monotonic: Double = 100) -> RuntimeInstant {
        RuntimeInstant(wall: wall, monotonic: monotonic)
    }

    func tap(id: String = "tap-1", time: String = "2026-11-30T03:14:39.123Z") throws -> [[UInt8]] {
        try codec.frames(Envelope(
            id: id, correlationId: id, service: "gateway", device: "d1", seq: 1, time: time,
            body: .tap(Tap(element: "add", profile: .ipad))))
    }

    /// The envelopes of `outgoing`, decoded.
    func envelopes(_ outgoing: [Outgoing]) throws -> [Envelope] {
        try outgoing.map { item in
            switch item {
            case .frames(let frames): try codec.decode(frames: frames)
            case .message(let envelope): envelope
            case .subscribe, .unsubscribe: throw MessageError(.badShape, "not a message")
            }
        }
    }

    func ack(_ envelope: Envelope?) -> Ack? {
        if case .ack(let ack) = envelope?.body { return ack }
        return nil
    }

    /// Ready: pings itself until its own ping comes back, then heartbeats at once; retries back off.
    @Test func untilItsOwnPingComesBackTheServicePingsItselfThenHeartbeats() throws {
        var core = core()
        let first = try envelopes(core.tick(now: at()))
        #expect(first.map(\.type) == [.heartbeat, .ping])
        #expect(core.nextWake == 100.01)
        #expect(try envelopes(core.tick(now: at(monotonic: 100.005))).isEmpty)
        let retry = try envelopes(core.tick(now: at(monotonic: 100.01)))
        try #require(retry.map(\.type) == [.ping])
        #expect(core.nextWake == 100.03)
        // Someone else's ping before ready: a heartbeat first, then the pong.
        let other = Envelope(id: "p", correlationId: "p", service: "gateway", device: nil, seq: 1, time: "2026-11-30T03:14:39.123Z", body: .ping(Ping()))
        #expect(try envelopes(core.received(codec.frames(other), now: at())).map(\.type) == [.heartbeat, .pong])
        // Its own ping back.
        let ready = try envelopes(core.received(codec.frames(retry[0]), now: at()))
        #expect(ready.map(\.type) == [.heartbeat])
        #expect(core.isReady)
        #expect(record.lines.contains("ready: the path through the bus is live"))
        #expect(core.nextWake == 101)
        // Ready: a pong alone.
        #expect(try envelopes(core.received(codec.frames(other), now: at())).map(\.type) == [.pong])
    }

    /// The decision goes out first, as frames, and the acknowledgement last, as an envelope the
    /// loop encodes once the decision has gone; the ack lists both and the forward.
    @Test func aFreshMessageIsHandledItsMessagesGoFirstAndItsAckLast() throws {
        var core = core()
        let outgoing = core.received(try tap(), now: at())
        try #require(outgoing.count == 3)
        guard case .frames = outgoing[0], case .frames = outgoing[1], case .message(let last) = outgoing[2] else {
            Issue.record("expected two encoded messages then the ack: \(outgoing)")
            return
        }
        let sent = try envelopes(outgoing)
        try #require(sent.map(\.type) == [.unchanged, .forget, .ack])
        #expect(sent.allSatisfy { $0.correlationId == "tap-1" && $0.device == "d1" && $0.time == "2026-11-30T03:14:39.123Z" })
        #expect(ack(last) == Ack(
            handled: "device.tap", handledId: "tap-1", emitted: [sent[0].id, sent[1].id],
            forwarded: [Forward(id: sent[1].id, service: "input-handling")]))
        #expect(core.handler.handledCount == 1)
        #expect(core.counters.received == 1 && core.counters.handled == 1)
    }

    /// Only the decision is on its way: `decide` gives its messages, and the acknowledgement,
    /// with the delivery window's memory of the message, comes from `settle` once they have gone.
    @Test func theAckIsMadeAndTheMessageRememberedOnlyWhenTheDecisionHasGone() throws {
        var core = core()
        let decided = try envelopes(core.decide(try tap(), now: at()))
        try #require(decided.map(\.type) == [.unchanged, .forget])
        #expect(record.ids == 2)
        let settled = core.settle()
        let ack = try #require(try envelopes(settled.map { [$0] } ?? []).first)
        #expect(self.ack(ack) == Ack(
            handled: "device.tap", handledId: "tap-1", emitted: decided.map(\.id),
            forwarded: [Forward(id: decided[1].id, service: "input-handling")]))
        #expect(ack.correlationId == "tap-1" && ack.time == decided[0].time && ack.trace?.traceId == decided[0].trace?.traceId)
        #expect(core.settle() == nil)
        // Remembered by `settle`: the same tap again is a duplicate, not decided twice.
        let again = try envelopes(core.received(try tap(), now: at(RuntimeCoreTests.wall + 1)))
        #expect(again.map(\.type) == [.forget, .ack])
        #expect(core.handler.handledCount == 1 && core.counters.duplicates == 1)
    }

    /// A refusal that only says to send it again (`not-owner`, `fenced`: this instance does not
    /// decide it now) is not remembered: a repeat of the id is handled afresh, and decided once
    /// this instance does. Any other refusal is the answer to its id, as a decision is.
    @Test func aRefusalToSendItAgainIsNotRememberedAndARepeatIsHandledAfresh() throws {
        struct Mover: ServiceHandler {
            var refusals: [RefusalCode]
            var handled = 0
            let handledTypes: [MessageType] = [.tap]
            mutating func handle(_ envelope: Envelope) -> Reply {
                handled += 1
                guard !refusals.isEmpty else { return Reply([.publish(.unchanged(Unchanged(reason: "test", message: "decided")))]) }
                return Reply([.error(refusals.removeFirst(), "refused", offendingId: envelope.id)])
            }
        }
        for code in [RefusalCode.notOwner, .fenced] {
            var core = RuntimeCore(handler: Mover(refusals: [code, code]), settings: .init(name: "test-service", pid: 42, config: BusConfig()), clock: clock) { _, _, _ in }
            var answers: [[MessageType]] = []
            for later in 0..<3 {
                let sent = try envelopes(core.received(try tap(), now: at(RuntimeCoreTests.wall + Double(later))))
                answers.append(sent.map(\.type))
                #expect(sent.compactMap(ack).allSatisfy { !$0.duplicate }, "\(code): \(sent)")
            }
            #expect(answers == [[.error, .ack], [.error, .ack], [.unchanged, .ack]], "\(code)")
            #expect(core.handler.handled == 3 && core.counters.duplicates == 0, "\(code)")
            // Decided: from now on a repeat is a duplicate.
            let again = try envelopes(core.received(try tap(), now: at(RuntimeCoreTests.wall + 3)))
            #expect(again.compactMap(ack).map(\.duplicate) == [true] && core.handler.handled == 3, "\(code)")
        }
        var refused = RuntimeCore(handler: Mover(refusals: [.storage]), settings: .init(name: "test-service", pid: 42, config: BusConfig()), clock: clock) { _, _, _ in }
        _ = refused.received(try tap(), now: at())
        let repeated = try envelopes(refused.received(try tap(), now: at(RuntimeCoreTests.wall + 1)))
        #expect(repeated.compactMap(ack).map(\.duplicate) == [true] && refused.handler.handled == 1)
    }

    /// A loop that decides again without settling loses nothing: the last message is settled
    /// (acknowledged and remembered) first.
    @Test func aMessageLeftUnsettledIsSettledBeforeTheNextIsDecided() throws {
        var core = core()
        _ = core.decide(try tap(id: "tap-1"), now: at())
        let next = try envelopes(core.decide(try tap(id: "tap-1"), now: at()))
        try #require(next.map(\.type) == [.ack, .forget, .ack])
        #expect(ack(next[0])?.handledId == "tap-1" && ack(next[0])?.duplicate == false)
        #expect(ack(next[2])?.handledId == "tap-1" && ack(next[2])?.duplicate == true)
        #expect(core.counters.duplicates == 1 && core.handler.handledCount == 1)
        #expect(core.settle() == nil)
    }

    /// Everything one message causes is one trace: the cause's, each message a span of its own
    /// under the cause's span; or, for a cause without a trace, one new trace started for its
    /// handling (as W3C has a receiver do), not a trace per message.
    @Test func whatAMessageCausesSharesOneTrace() throws {
        var core = core()
        let untraced = try envelopes(core.received(try tap(id: "tap-1"), now: at()))
        try #require(untraced.count == 3)
        let contexts = try untraced.map { try #require($0.trace) }
        #expect(Set(contexts.map(\.traceId)).count == 1)
        #expect(Set(contexts.map(\.spanId)).count == 3)
        let handlingSpan = try #require(untraced[0].parentSpan)
        #expect(untraced.allSatisfy { $0.parentSpan == handlingSpan })
        #expect(!contexts.map(\.spanId).contains(handlingSpan))
        // The next untraced message starts another trace.
        let next = try envelopes(core.received(try tap(id: "tap-2"), now: at()))
        #expect(next.first?.trace?.traceId != contexts[0].traceId)
        // A traced one: its trace, under its span.
        let cause = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        let traced = try envelopes(core.received(
            try codec.frames(Envelope(
                id: "tap-3", correlationId: "tap-3", service: "gateway", device: "d1", seq: 2, time: "2026-11-30T03:14:39.123Z",
                traceparent: cause, body: .tap(Tap(element: "add", profile: .ipad)))),
            now: at()))
        #expect(traced.count == 3)
        #expect(traced.allSatisfy { $0.trace?.traceId == "4bf92f3577b34da6a3ce929d0e0e4736" && $0.parentSpan == "00f067aa0ba902b7" })
    }

    /// A duplicate is not handled again: what the first handling forwarded goes again, the same
    /// frames (same ids), then the first acknowledgement marked duplicate.
    @Test func aDuplicateResendsWhatTheFirstHandlingForwardedAndItsAckMarked() throws {
        var core = core()
        let first = core.received(try tap(), now: at())
        let again = core.received(try tap(), now: at(RuntimeCoreTests.wall + 5))
        try #require(again.count == 2 && first.count == 3)
        #expect(again[0] == first[1])
        let firstAck = try #require(ack(try envelopes(first).last))
        var marked = firstAck
        marked.duplicate = true
        #expect(ack(try envelopes(again).last) == marked)
        #expect(core.handler.handledCount == 1)
        #expect(core.counters.duplicates == 1)
    }

    @Test func aDuplicateResendsWhatAnotherServiceReadsToo() throws {
        var core = core(Handler(publishesALayout: true))
        let first = core.received(try tap(), now: at())
        let again = core.received(try tap(), now: at(RuntimeCoreTests.wall + 5))
        // The first: unchanged, the forget passed on, the layout, the ack; again: those two, the ack.
        try #require(first.count == 4 && again.count == 3)
        #expect(again[0] == first[1] && again[1] == first[2])
        #expect(core.handler.handledCount == 1)
    }

    /// A sharded owner's acknowledgement goes with the state it sends the standby, in its place
    /// and after the decision: the update's JSON, the state as a frame of its own, then the
    /// acknowledgement's two frames. A repeat goes by the standby too, with the state again
    /// and the first acknowledgement marked duplicate.
    @Test func anAcknowledgementByTheStandbyGoesWithTheUpdateInItsPlace() throws {
        let update = Replica(standby: "pp-2", owner: "pp-1", epoch: 7, sequence: 3, snapshot: NestedValue(bytes: Array("{\"n\":1}".utf8)))
        let later = Replica(standby: "pp-2", owner: "pp-1", epoch: 7, sequence: 4, snapshot: NestedValue(bytes: Array("{\"n\":2}".utf8)))
        var core = core(Handler(acknowledgement: .byStandby(update, device: "d1"), repeatAcknowledgement: .byStandby(later, device: "d1")))
        let outgoing = core.received(try tap(), now: at())
        let sent = try envelopes(outgoing)
        try #require(sent.map(\.type) == [.unchanged, .forget, .replica])
        guard case .replica(let carrying) = sent[2].body, case .frames(let frames) = outgoing[2] else { return }
        try #require(frames.count == 5)
        #expect(frames[2] == Array("{\"n\":1}".utf8))
        let ack = Ack(handled: "device.tap", handledId: "tap-1", emitted: [sent[0].id, sent[1].id], forwarded: [Forward(id: sent[1].id, service: "input-handling")])
        let carried = try codec.decode(frames: Array(frames[3...]))
        #expect(self.ack(carried) == ack && carried.correlationId == "tap-1" && carried.service == "test-service")
        var expected = update
        expected.action = "tap-1"
        expected.onward = carrying.onward  // what was sent onward: the next test
        #expect(carrying == expected && carrying.onward?.count == 1)
        #expect(sent[2].correlationId == "tap-1" && sent[2].device == "d1" && sent[2].topic == "shard.replica/test-service/pp-2")
        let outgoingAgain = core.received(try tap(), now: at(RuntimeCoreTests.wall + 1))
        let again = try envelopes(outgoingAgain)
        try #require(again.map(\.type) == [.forget, .replica])
        guard case .replica(let carryingAgain) = again[1].body, case .frames(let framesAgain) = outgoingAgain[1] else { return }
        try #require(framesAgain.count == 5)
        var repeated = ack
        repeated.duplicate = true
        #expect(self.ack(try codec.decode(frames: Array(framesAgain[3...]))) == repeated)
        #expect(framesAgain[2] == Array("{\"n\":2}".utf8))
        #expect(carryingAgain.sequence == 4 && carryingAgain.action == "tap-1" && carryingAgain.onward == carrying.onward)
        #expect(core.handler.handledCount == 1 && core.counters.duplicates == 1)
    }

    /// What an owner's decision sends onward (passed on, or read by another service) goes with
    /// its update as it went, for an heir to publish again on a retry; an heir's repeat publishes
    /// it before the duplicate's acknowledgement, and again on the next repeat.
    @Test func whatADecisionSendsOnwardGoesWithTheUpdateAndAnHeirsRepeatPublishesItAgain() throws {
        let update = Replica(standby: "pp-2", owner: "pp-1", epoch: 7, sequence: 3, snapshot: NestedValue(bytes: Array("{}".utf8)))
        var owner = core(Handler(publishesALayout: true, acknowledgement: .byStandby(update, device: "d1")))
        let outgoing = owner.received(try tap(), now: at())
        let sent = try envelopes(outgoing)
        try #require(sent.map(\.type) == [.unchanged, .forget, .deviceLayout, .replica])
        guard case .replica(let carrying) = sent[3].body, case .frames(let forget) = outgoing[1], case .frames(let layout) = outgoing[2] else { return }
        let onward = try #require(carrying.onward)
        #expect(onward.map { [Array($0.topic.utf8), $0.message.bytes] } == [forget, layout])

        struct Heir: ServiceHandler {
            var republished: [[[UInt8]]]
            let handledTypes: [MessageType] = [.tap]
            mutating func handle(_ envelope: Envelope) -> Reply { Reply([], duplicate: true, republished: republished) }
        }
        var heir = RuntimeCore(handler: Heir(republished: [forget, layout]), settings: .init(name: "test-service", pid: 42, config: BusConfig()), clock: clock) { _, _, _ in }
        for wall in [RuntimeCoreTests.wall, RuntimeCoreTests.wall + 1] {
            let again = heir.received(try tap(), now: at(wall))
            try #require(again.count == 3)
            #expect(again[0] == .frames(forget) && again[1] == .frames(layout))
            #expect(ack(try envelopes([again[2]]).first)?.duplicate == true)
        }
    }

    /// A message the handler takes as it came (a standby's update) is handed over undecoded,
    /// however late, and never by the delivery window: what the handler passes on goes as it
    /// came, unacknowledged; a refusal is an error of this service; one not this instance's is
    /// ignored.
    @Test func aMessageTakenAsItCameIsHandedOverUndecodedAndItsFramesGoAsTheyCame() throws {
        struct Standby: ServiceHandler {
            var taken: [[[UInt8]]] = []
            let handledTypes: [MessageType] = [.tap]
            func takesAsItCame(topic: [UInt8]) -> Bool { topic.starts(with: Array("shard.replica/".utf8)) }
            mutating func take(asItCame frames: [[UInt8]]) -> Reply? {
                taken.append(frames)
                switch frames[0] {
                case Array("shard.replica/test-service/me".utf8): return Reply([], republished: [Array(frames[3...])])
                case Array("shard.replica/test-service/me-too".utf8): return nil
                default: return Reply([.error(.fenced, "refused")])
                }
            }
            mutating func handle(_ envelope: Envelope) -> Reply { Reply([]) }
        }
        var core = RuntimeCore(handler: Standby(), settings: .init(name: "test-service", pid: 42, config: BusConfig()), clock: clock) { _, _, _ in }
        let acknowledgement = [Array("ack".utf8), Array("not read here".utf8)]
        let update = [Array("shard.replica/test-service/me".utf8), Array("not JSON".utf8), []] + acknowledgement
        for late in [0.0, 31.0, 31.0] {
            #expect(core.received(update, now: at(RuntimeCoreTests.wall + late)) == [.frames(acknowledgement)])
        }
        #expect(core.received([Array("shard.replica/test-service/me-too".utf8), [], []], now: at()).isEmpty)
        let refused = try envelopes(core.received([Array("shard.replica/test-service/other".utf8), [], []], now: at()))
        #expect(refused.map(\.type) == [.error] && refused[0].service == "test-service")
        #expect(core.handler.taken.count == 5 && core.handler.taken[0] == update)
        #expect(core.counters.received == 5 && core.counters.handled == 4 && core.counters.ignored == 1 && core.counters.errors == 1)
        #expect(core.counters.duplicates == 0 && core.counters.refusedOverload == 0)
    }

    @Test func aMessageOlderThanItsTimeToLiveIsRefusedAsOverloadedAndAcknowledged() throws {
        var core = core()
        let sent = try envelopes(core.received(try tap(), now: at(RuntimeCoreTests.wall + 31)))
        try #require(sent.map(\.type) == [.error, .ack])
        guard case .error(let error) = sent[0].body else { return }
        #expect(error.code == "overloaded")
        #expect(error.offendingId == "tap-1")
        #expect(core.handler.handledCount == 0)
        #expect(core.counters.refusedOverload == 1 && core.counters.errors == 1)
    }

    @Test func aTimeAheadOfTheClockIsRefusedAsBadTime() throws {
        var core = core()
        let sent = try envelopes(core.received(try tap(time: "2026-11-30T03:14:45.000Z"), now: at()))
        try #require(sent.map(\.type) == [.error, .ack])
        guard case .error(let error) = sent[0].body else { return }
        #expect(error.code == MessageError.Code.badTime.rawValue)
        #expect(core.handler.handledCount == 0)
    }

    /// An unreadable message is answered with an error, and acknowledged when its id was read.
    @Test func anUnreadableMessageIsAnsweredWithAnErrorAndAnAckWhenItsIdIsKnown() throws {
        var core = core()
        let noise = core.received([Array("device.tap".utf8), Array("not json".utf8)], now: at())
        #expect(try envelopes(noise).map(\.type) == [.error])
        let json = #"{"v":1,"type":"device.tap","id":"x-1","correlationId":"x-1","service":"gateway","seq":1,"time":"2026-11-30T03:14:39.123Z","body":{"element":5}}"#
        let answered = try envelopes(core.received([Array("device.tap".utf8), Array(json.utf8)], now: at()))
        #expect(answered.map(\.type) == [.error, .ack])
        #expect(ack(answered.last)?.handled == "unreadable")
        #expect(ack(answered.last)?.handledId == "x-1")
        #expect(core.counters.errors == 2)
    }

    @Test func aTypeTheHandlerDoesNotTakeIsIgnored() throws {
        var core = core()
        let rotate = Envelope(
            id: "r", correlationId: "r", service: "gateway", device: "d1", seq: 1, time: "2026-11-30T03:14:39.123Z",
            body: .rotate(Rotate(orientation: .landscape)))
        #expect(core.received(try codec.frames(rotate), now: at()).isEmpty)
        #expect(core.counters.ignored == 1)
    }

    /// Heartbeats every interval, with the counters; idle devices expire at each one.
    @Test func heartbeatsComeEveryIntervalAndIdleDevicesExpireThen() throws {
        var core = core(Handler(idle: ["d1", "d2"], idleFrom: RuntimeCoreTests.wall + 10), heartbeatMilliseconds: 500)
        _ = core.tick(now: at())
        _ = core.received(try tap(), now: at())
        core.noteTransport(sendWaits: 3, sendsDropped: 1)
        #expect(try envelopes(core.tick(now: at(monotonic: 100.4))).map(\.type) == [.ping])
        _ = core.received(try codec.frames(Envelope(
            id: "id-2", correlationId: "id-2", service: "test-service", device: nil, seq: 2, time: "2026-11-30T03:14:39.123Z",
            body: .ping(Ping()))), now: at())
        #expect(core.isReady)
        #expect(core.nextWake == 100.5)
        #expect(core.tick(now: at(monotonic: 100.49)).isEmpty)
        let beat = try envelopes(core.tick(now: at(monotonic: 100.5)))
        guard beat.count == 1, case .heartbeat(let heartbeat) = beat[0].body else {
            Issue.record("expected one heartbeat: \(beat)")
            return
        }
        #expect(heartbeat.counters == ["received": 2, "handled": 1, "sendWaits": 3, "sendsDropped": 1])
        // On a pair of buses, the transport's two counts of its own go in too, once counted.
        core.noteTransport(sendWaits: 3, sendsDropped: 1, pairCopies: 7, pairSkips: 2)
        #expect(core.counters.byName["pairCopies"] == 7 && core.counters.byName["pairSkips"] == 2)
        #expect(heartbeat.uptimeSeconds == 0.5)
        #expect(heartbeat.intervalMilliseconds == 500)
        #expect(core.nextWake == 101)
        #expect(try envelopes(core.tick(now: at(RuntimeCoreTests.wall + 10, monotonic: 101))).map(\.type) == [.heartbeat])
        #expect(core.counters.devicesExpired == 2)
        #expect(record.lines.contains { $0.hasPrefix("forgot 2 device(s) unused") })
    }
}

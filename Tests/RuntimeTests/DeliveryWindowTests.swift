import Domain
import Runtime
import Testing
import Wire
import TestTiers

/// The runtime's decision before a handler sees a message: duplicates, time to live, clock skew.
@Suite(.tags(.inMemory)) struct DeliveryWindowTests {
    /// 2026-11-30T03:14:39.123Z, as seconds since 1970.
    let sent = 1_796_008_479.123
    let time = "2026-11-30T03:14:39.123Z"

    func window(capacity: Int = 100) -> DeliveryWindow {
        DeliveryWindow(timeToLive: 30, clockSkew: 1, capacity: capacity)
    }

    func ack(_ id: String, emitted: [String] = ["e1"]) -> Ack {
        Ack(handled: "device.tap", handledId: id, emitted: emitted, forwarded: [Forward(id: "e1", service: "input-handling")])
    }

    @Test func aNewMessageIsFreshAndItsRepeatIsAnsweredWithTheFirstAcknowledgement() {
        var window = window()
        #expect(window.check(id: "a", time: time, now: sent + 0.01) == .fresh(sent: sent))
        window.remember(id: "a", sent: sent, ack: ack("a"), now: sent + 0.01)
        #expect(window.check(id: "a", time: time, now: sent + 5) == .duplicate(ack("a")))
        // The same id with another time is still the same message.
        #expect(window.check(id: "a", time: "2026-11-30T03:14:40.000Z", now: sent + 5) == .duplicate(ack("a")))
        #expect(window.check(id: "b", time: time, now: sent + 5) == .fresh(sent: sent))
    }

    /// What a repeat is answered with is the first acknowledgement, whatever is remembered later.
    @Test func rememberingAnIdAgainKeepsItsFirstAcknowledgement() {
        var window = window()
        window.remember(id: "a", sent: sent, ack: ack("a"), now: sent)
        window.remember(id: "a", sent: sent, ack: ack("a", emitted: []), now: sent + 1)
        #expect(window.count == 1)
        #expect(window.check(id: "a", time: time, now: sent + 2) == .duplicate(ack("a")))
    }

    /// `remember` right after `check` of the same id skips a second look-up when the check found
    /// no entry: it must still keep the first acknowledgement whatever order ids come in.
    @Test func rememberingTheIdJustCheckedKeepsTheFirstAcknowledgement() {
        var window = window()
        #expect(window.check(id: "a", time: time, now: sent) == .fresh(sent: sent))
        window.remember(id: "a", sent: sent, ack: ack("a"), now: sent)
        window.remember(id: "a", sent: sent, ack: ack("a", emitted: []), now: sent)
        #expect(window.check(id: "a", time: time, now: sent + 1) == .duplicate(ack("a")))
        // Checked and found: remembering it (which the runtime does not do) changes nothing.
        window.remember(id: "a", sent: sent, ack: ack("a", emitted: ["other"]), now: sent + 1)
        #expect(window.check(id: "a", time: time, now: sent + 1) == .duplicate(ack("a")))
        // Another id remembered between the check and the remember of the id checked.
        #expect(window.check(id: "b", time: time, now: sent + 1) == .fresh(sent: sent))
        window.remember(id: "c", sent: sent, ack: ack("c"), now: sent + 1)
        window.remember(id: "b", sent: sent, ack: ack("b"), now: sent + 1)
        window.remember(id: "c", sent: sent, ack: ack("c", emitted: []), now: sent + 1)
        #expect(window.count == 3)
        #expect(window.check(id: "b", time: time, now: sent + 2) == .duplicate(ack("b")))
        #expect(window.check(id: "c", time: time, now: sent + 2) == .duplicate(ack("c")))
        // Checked, then another checked: the first is looked up again when remembered.
        #expect(window.check(id: "d", time: time, now: sent + 2) == .fresh(sent: sent))
        #expect(window.check(id: "a", time: time, now: sent + 2) == .duplicate(ack("a")))
        window.remember(id: "d", sent: sent, ack: ack("d"), now: sent + 2)
        window.remember(id: "a", sent: sent, ack: ack("a", emitted: []), now: sent + 2)
        #expect(window.check(id: "d", time: time, now: sent + 3) == .duplicate(ack("d")))
        #expect(window.check(id: "a", time: time, now: sent + 3) == .duplicate(ack("a")))
        #expect(window.count == 4)
    }

    @Test func aRepeatAfterTheTimeToLiveIsRefusedAsTooOldNeverHandledAgain() {
        var window = window()
        window.remember(id: "a", sent: sent, ack: ack("a"), now: sent)
        #expect(window.check(id: "a", time: time, now: sent + 29.999) == .duplicate(ack("a")))
        #expect(window.check(id: "a", time: time, now: sent + 30.001) == .tooOld(waitedMilliseconds: 30_001))
        #expect(window.count == 0)
    }

    @Test func aTimeAheadOfTheClockByMoreThanTheSkewIsRefused() {
        var window = window()
        #expect(window.check(id: "a", time: time, now: sent - 0.999) == .fresh(sent: sent))
        #expect(window.check(id: "a", time: time, now: sent - 1.5) == .fromTheFuture(aheadMilliseconds: 1500))
        // Moving time a day forward does not buy a longer life.
        #expect(window.check(id: "b", time: "2026-12-01T03:14:39.123Z", now: sent) == .fromTheFuture(aheadMilliseconds: 86_400_000))
    }

    /// docs/security.md: an action *older* than `ACTION_TTL_MS` is refused and one *more* than
    /// `CLOCK_SKEW_MS` ahead is refused: exactly at either limit it is taken. (A half second is
    /// exact in a double, so the differences below are exactly 30 s and 1 s.)
    @Test func exactlyAtTheTimeToLiveOrTheSkewAMessageIsTaken_aMillisecondBeyondItIsRefused() {
        let time = "2026-11-30T03:14:39.500Z", sent = 1_796_008_479.5
        var atLimit = window(), beyond = window()
        #expect(atLimit.check(id: "a", time: time, now: sent + 30) == .fresh(sent: sent))
        #expect(beyond.check(id: "a", time: time, now: sent + 30.001) == .tooOld(waitedMilliseconds: 30_001))
        // Its repeat is a duplicate for exactly as long, then too old.
        atLimit.remember(id: "a", sent: sent, ack: ack("a"), now: sent)
        #expect(atLimit.check(id: "a", time: time, now: sent + 30) == .duplicate(ack("a")))
        #expect(atLimit.check(id: "a", time: time, now: sent + 30.001) == .tooOld(waitedMilliseconds: 30_001))
        var ahead = window()
        #expect(ahead.check(id: "b", time: time, now: sent - 1) == .fresh(sent: sent))
        #expect(ahead.check(id: "c", time: time, now: sent - 1.001) == .fromTheFuture(aheadMilliseconds: 1001))
    }

    /// A time already read (by the decoder) gets the verdict its text gets.
    @Test func aTimeReadAlreadyGetsTheVerdictOfItsText() {
        let times = [time, "2026-11-30T03:14:40.000Z", "2026-12-01T03:14:39.123Z", "2026-11-30T03:13:00Z", "x"]
        for now in [sent - 2, sent, sent + 5, sent + 40] {
            var byText = window(capacity: 2), byValue = window(capacity: 2)
            for (index, time) in (times + times).enumerated() {
                let id = "id-\(index % 3)"
                let verdict = byText.check(id: id, time: time, now: now)
                #expect(byValue.check(id: id, sent: Timestamp.parse(time) ?? .nan, now: now) == verdict)
                if case .fresh(let sent) = verdict {
                    byText.remember(id: id, sent: sent, ack: ack(id), now: now)
                    byValue.remember(id: id, sent: sent, ack: ack(id), now: now)
                }
            }
        }
    }

    @Test func aTimeThatIsNotATimestampIsRefused() {
        var window = window()
        #expect(window.check(id: "a", time: "x", now: sent) == .unreadableTime)
    }

    @Test func aFullWindowRefusesMessagesNoNewerThanWhatItForgot() throws {
        var window = window(capacity: 2)
        window.remember(id: "a", sent: sent, ack: ack("a"), now: sent)
        window.remember(id: "b", sent: sent + 1, ack: ack("b"), now: sent + 1)
        window.remember(id: "c", sent: sent + 2, ack: ack("c"), now: sent + 2)
        #expect(window.count == 2)
        // "a" was forgotten before it expired: its repeat is refused, not handled again.
        #expect(window.check(id: "a", time: time, now: sent + 3) == .forgotten(waitedMilliseconds: 3000))
        #expect(window.check(id: "b", time: "2026-11-30T03:14:40.123Z", now: sent + 3) == .duplicate(ack("b")))
        #expect(window.check(id: "d", time: "2026-11-30T03:14:39.124Z", now: sent + 3) == .fresh(sent: try #require(Timestamp.parse("2026-11-30T03:14:39.124Z"))))
    }

    @Test func expiredIdsLeaveTheWindowAndForgettingThemRefusesNothing() {
        var window = window(capacity: 2)
        window.remember(id: "a", sent: sent, ack: ack("a"), now: sent)
        window.remember(id: "b", sent: sent + 40, ack: ack("b"), now: sent + 40)
        window.remember(id: "c", sent: sent + 41, ack: ack("c"), now: sent + 41)
        // "a" had expired when it was pushed out: nothing newer than it is refused for it.
        #expect(window.check(id: "d", time: time, now: sent + 25) == .fresh(sent: sent))
    }

    @Test func manyMessagesStayWithinTheCapacity() {
        var window = window(capacity: 1000)
        for index in 0..<5000 {
            let now = sent + Double(index) / 1000
            window.remember(id: "m\(index)", sent: now, ack: ack("m\(index)"), now: now)
        }
        #expect(window.count == 1000)
        #expect(window.check(id: "m4999", time: Timestamp.format(seconds: 1_796_008_484, milliseconds: 122), now: sent + 5) == .duplicate(ack("m4999")))
    }
}

import Domain
import Testing
import Wire
@testable import GatewayKit
import TestTiers

/// Knowing when an action's consequences have all arrived, from the acknowledgements.
@Suite(.tags(.inMemory)) struct ActionTrackerTests {
    func message(_ id: String, from service: String, _ body: Body, correlation: String = "A") -> Envelope {
        Envelope(id: id, correlationId: correlation, service: service, device: "ipad", seq: 1, time: "t", body: body)
    }

    func ack(_ id: String, from service: String, handled: String, emitted: [String], forwarded: [Forward] = [], duplicate: Bool = false) -> Envelope {
        message(id, from: service, .ack(Ack(handled: "x", handledId: handled, emitted: emitted, forwarded: forwarded, duplicate: duplicate)))
    }

    @Test func completeWhenTheHandlerAcknowledgesAndItsMessagesArrived() {
        var tracker = ActionTracker(actionId: "A", firstHop: ["presentation-policy"])
        #expect(!tracker.isComplete)
        tracker.observe(message("p1", from: "presentation-policy", .mediaAddRequested(MediaAddRequested(kind: .photo))))
        #expect(!tracker.isComplete)
        tracker.observe(ack("p2", from: "presentation-policy", handled: "A", emitted: ["p1"]))
        #expect(tracker.isComplete)
        #expect(tracker.received.map(\.id) == ["p1", "p2"])
    }

    @Test func aDuplicatesAcknowledgementCompletesWithoutWaitingForWhatTheFirstDeliveryCaused() {
        var tracker = ActionTracker(actionId: "A", firstHop: ["presentation-policy"])
        let first = Ack(handled: "device.tap", handledId: "A", emitted: ["p1"], forwarded: [Forward(id: "p1", service: "input-handling")], duplicate: true)
        tracker.observe(message("p2", from: "presentation-policy", .ack(first)))
        #expect(tracker.isComplete)
        var original = ActionTracker(actionId: "A", firstHop: ["presentation-policy"])
        var notDuplicate = first
        notDuplicate.duplicate = false
        original.observe(message("p2", from: "presentation-policy", .ack(notDuplicate)))
        #expect(!original.isComplete)
    }

    let layout = DeviceLayout(
        orientation: .landscape, widthClass: .regular, window: Size(width: 1024, height: 768), elements: [],
        keyboard: KeyboardMetrics(width: 1024, systemHeight: 352, windowHeight: 768), reason: "rotation")

    @Test func aPublishedLayoutAwaitsInputHandlingWhichReadsIt() {
        // input-handling's answer may come before the layout it read reaches the gateway.
        for inputFirst in [false, true] {
            var tracker = ActionTracker(actionId: "A", firstHop: ["presentation-policy"])
            let input = [
                message("i1", from: "input-handling", .inputShown(InputShown(
                    input: InputView(
                        view: "weapon-picker", responder: "weapon", width: 1024, height: 110,
                        frame: Rect(x: 0, y: 658, width: 1024, height: 110), buttons: []),
                    created: false, reason: "rotation"))),
                ack("i2", from: "input-handling", handled: "p1", emitted: ["i1"]),
            ]
            if inputFirst { for envelope in input { tracker.observe(envelope) } }
            tracker.observe(message("p1", from: "presentation-policy", .deviceLayout(layout)))
            tracker.observe(ack("p2", from: "presentation-policy", handled: "A", emitted: ["p1"]))
            #expect(tracker.isComplete == inputFirst)
            if !inputFirst { for envelope in input { tracker.observe(envelope) } }
            #expect(tracker.isComplete)
            #expect(tracker.ordered.map(\.id) == ["p1", "p2", "i1", "i2"])
        }
    }

    /// A layout change of a decision whose acknowledgement never came (its owner died before its
    /// standby held it; the heir decided again, with new messages) is not waited for where it is
    /// read: only what an acknowledgement lists is. Before, the action never completed.
    @Test func whatNoAcknowledgementListsIsNotAwaitedWhereItIsRead() {
        var tracker = ActionTracker(actionId: "A", firstHop: ["presentation-policy"])
        tracker.observe(message("lost", from: "presentation-policy", .deviceLayout(layout)))
        #expect(!tracker.isComplete)
        tracker.observe(message("p1", from: "presentation-policy", .deviceLayout(layout)))
        tracker.observe(ack("p2", from: "presentation-policy", handled: "A", emitted: ["p1"]))
        #expect(!tracker.isComplete && tracker.awaiting == "an acknowledgement from input-handling")
        tracker.observe(ack("i1", from: "input-handling", handled: "p1", emitted: []))
        #expect(tracker.isComplete)
        // Listed by a repeat's acknowledgement (marked duplicate), it is awaited all the same.
        var repeated = ActionTracker(actionId: "A", firstHop: ["presentation-policy"])
        repeated.observe(message("p1", from: "presentation-policy", .deviceLayout(layout)))
        repeated.observe(message("p2", from: "presentation-policy", .ack(Ack(handled: "x", handledId: "A", emitted: ["p1"], forwarded: [], duplicate: true))))
        #expect(!repeated.isComplete)
        repeated.observe(ack("i1", from: "input-handling", handled: "p1", emitted: []))
        #expect(repeated.isComplete)
    }

    @Test func theFirstHopIsAnsweredWhenEachOfItsServicesHas() {
        var tracker = ActionTracker(actionId: "A", firstHop: ["presentation-policy", "input-handling", "roster"])
        tracker.observe(ack("i1", from: "input-handling", handled: "A", emitted: []))
        tracker.observe(ack("r1", from: "roster", handled: "A", emitted: []))
        #expect(!tracker.isComplete)
        #expect(tracker.awaiting == "an acknowledgement from presentation-policy")
        tracker.observe(ack("p1", from: "presentation-policy", handled: "A", emitted: []))
        #expect(tracker.isComplete)
    }

    /// A sharded owner's acknowledgement reaches the client through its standby, after the
    /// decision; a repeat the owner answers itself completes the hop as well.
    @Test func theOwnersAcknowledgementFromItsStandbyOrItsRepeatCompletesTheHop() {
        var tracker = ActionTracker(actionId: "A", firstHop: ["presentation-policy"])
        tracker.observe(ack("s1", from: "presentation-policy", handled: "A", emitted: ["p1"]))
        #expect(!tracker.isComplete)
        #expect(tracker.awaiting == "1 message(s) the services say they published")
        tracker.observe(message("p1", from: "presentation-policy", .mediaAddRequested(MediaAddRequested(kind: .photo))))
        #expect(tracker.isComplete)

        var retried = ActionTracker(actionId: "A", firstHop: ["presentation-policy"])
        retried.observe(message("p1", from: "presentation-policy", .mediaAddRequested(MediaAddRequested(kind: .photo))))
        #expect(!retried.isComplete)
        retried.observe(message("p3", from: "presentation-policy", .ack(Ack(handled: "x", handledId: "A", emitted: ["p1"], forwarded: [], duplicate: true))))
        #expect(retried.isComplete)
    }

    /// A message passed on to another service need not reach the client: that service's
    /// acknowledgement says it arrived.
    @Test func aMessagePassedOnIsAwaitedThroughItsAcknowledgementNotItsArrival() {
        var tracker = ActionTracker(actionId: "A", firstHop: ["presentation-policy"])
        tracker.observe(ack("p2", from: "presentation-policy", handled: "A", emitted: ["p1"], forwarded: [Forward(id: "p1", service: "roster")]))
        #expect(tracker.awaiting == "an acknowledgement from roster")
        tracker.observe(ack("r1", from: "roster", handled: "p1", emitted: []))
        #expect(tracker.isComplete)
    }

    @Test func aForwardedMessageAddsTheNextServicesAcknowledgement() {
        var tracker = ActionTracker(actionId: "A", firstHop: ["presentation-policy"])
        tracker.observe(message("p1", from: "presentation-policy", .inputTap(InputTap(element: "weapon", keyboard: KeyboardMetrics(width: 1, systemHeight: 1, windowHeight: 1)))))
        tracker.observe(ack("p2", from: "presentation-policy", handled: "A", emitted: ["p1"], forwarded: [Forward(id: "p1", service: "input-handling")]))
        #expect(!tracker.isComplete)
        #expect(tracker.awaiting == "an acknowledgement from input-handling")
        tracker.observe(ack("i1", from: "input-handling", handled: "p1", emitted: []))
        #expect(tracker.isComplete)
    }

    @Test func anAcknowledgementArrivingBeforeTheOneThatPromisedItStillCounts() {
        var tracker = ActionTracker(actionId: "A", firstHop: ["presentation-policy"])
        tracker.observe(ack("i1", from: "input-handling", handled: "p1", emitted: []))
        tracker.observe(message("p1", from: "presentation-policy", .ping(Ping())))
        tracker.observe(ack("p2", from: "presentation-policy", handled: "A", emitted: ["p1"], forwarded: [Forward(id: "p1", service: "input-handling")]))
        #expect(tracker.isComplete)
    }

    /// A later acknowledgement of the message by the same service that lists other messages takes
    /// the place of the first (a standby may list ids that never come; the owner's acknowledgement
    /// of a repeat lists the right ones): what it lists is awaited, what the first listed is not.
    @Test func aLaterAcknowledgementListingOtherMessagesTakesThePlaceOfTheFirst() {
        var tracker = ActionTracker(actionId: "A", firstHop: ["presentation-policy"], retrying: true)
        tracker.observe(ack("s1", from: "presentation-policy", handled: "A", emitted: ["lost1", "lost2"]))
        #expect(tracker.awaiting == "2 message(s) the services say they published")
        // A refusal to send it again and its acknowledgement stay set aside.
        tracker.observe(message("e1", from: "presentation-policy", .error(ErrorBody(code: "not-owner", message: "send it again", offendingId: "A"))))
        tracker.observe(ack("e2", from: "presentation-policy", handled: "A", emitted: ["e1"]))
        #expect(tracker.awaiting == "2 message(s) the services say they published")
        // Come before the acknowledgement that lists it, it counts as come.
        tracker.observe(message("p1", from: "presentation-policy", .mediaAddRequested(MediaAddRequested(kind: .photo))))
        tracker.observe(ack("p2", from: "presentation-policy", handled: "A", emitted: ["p1", "p3"]))
        #expect(tracker.awaiting == "1 message(s) the services say they published")
        tracker.observe(message("p3", from: "presentation-policy", .mediaAddRequested(MediaAddRequested(kind: .photo))))
        #expect(tracker.isComplete)
    }

    /// A later acknowledgement listing the same messages, in any order or marked `duplicate`,
    /// changes nothing, whether it comes before or after the one that makes it awaited.
    @Test func aLaterAcknowledgementListingTheSameMessagesChangesNothing() {
        var tracker = ActionTracker(actionId: "A", firstHop: ["presentation-policy"])
        tracker.observe(ack("s1", from: "presentation-policy", handled: "A", emitted: ["p1", "p2"]))
        tracker.observe(message("p2", from: "presentation-policy", .mediaAddRequested(MediaAddRequested(kind: .photo))))
        tracker.observe(ack("p3", from: "presentation-policy", handled: "A", emitted: ["p2", "p1"], duplicate: true))
        #expect(!tracker.isComplete && tracker.awaiting == "1 message(s) the services say they published")

        var early = ActionTracker(actionId: "A", firstHop: ["presentation-policy"])
        early.observe(ack("i2", from: "input-handling", handled: "t1", emitted: ["i1"]))
        early.observe(ack("i3", from: "input-handling", handled: "t1", emitted: ["i1"], duplicate: true))
        early.observe(ack("p2", from: "presentation-policy", handled: "A", emitted: ["t1"], forwarded: [Forward(id: "t1", service: "input-handling")]))
        #expect(!early.isComplete && early.awaiting == "1 message(s) the services say they published")
        early.observe(message("i1", from: "input-handling", .ping(Ping())))
        #expect(early.isComplete)
    }

    /// A later repeat's acknowledgement (`duplicate`) that lists other messages takes the place of
    /// the first and awaits none of them; one another service reads is awaited there all the same.
    @Test func aLaterDuplicateListingOtherMessagesTakesThePlaceAndAwaitsNoneOfThem() {
        var tracker = ActionTracker(actionId: "A", firstHop: ["presentation-policy"])
        tracker.observe(ack("s1", from: "presentation-policy", handled: "A", emitted: ["lost"]))
        tracker.observe(message("p1", from: "presentation-policy", .deviceLayout(layout)))
        tracker.observe(ack("p3", from: "presentation-policy", handled: "A", emitted: ["p1", "p2"], duplicate: true))
        #expect(!tracker.isComplete && tracker.awaiting == "an acknowledgement from input-handling")
        tracker.observe(ack("i1", from: "input-handling", handled: "p1", emitted: []))
        #expect(tracker.isComplete)
    }

    /// A hop only the replaced acknowledgement passed a message on to is no longer awaited, nor is
    /// what that hop's acknowledgement lists; the new one's hop counts an acknowledgement come early.
    @Test func aReplacedAcknowledgementsForwardedHopIsNoLongerAwaited() {
        var tracker = ActionTracker(actionId: "A", firstHop: ["presentation-policy"])
        tracker.observe(ack("s1", from: "presentation-policy", handled: "A", emitted: ["t1"], forwarded: [Forward(id: "t1", service: "input-handling")]))
        #expect(tracker.awaiting == "an acknowledgement from input-handling")
        tracker.observe(ack("i1", from: "input-handling", handled: "t1", emitted: ["lost"]))
        tracker.observe(ack("i2", from: "input-handling", handled: "t2", emitted: []))
        #expect(tracker.awaiting == "1 message(s) the services say they published")
        tracker.observe(ack("p2", from: "presentation-policy", handled: "A", emitted: ["t2"], forwarded: [Forward(id: "t2", service: "input-handling")]))
        #expect(tracker.isComplete)

        var hop = ActionTracker(actionId: "A", firstHop: ["presentation-policy"])
        hop.observe(ack("s1", from: "presentation-policy", handled: "A", emitted: ["t1"], forwarded: [Forward(id: "t1", service: "input-handling")]))
        hop.observe(message("p1", from: "presentation-policy", .mediaAddRequested(MediaAddRequested(kind: .photo))))
        hop.observe(ack("p2", from: "presentation-policy", handled: "A", emitted: ["p1"]))
        #expect(hop.isComplete)
    }

    /// A layout change only the replaced acknowledgement listed is no longer awaited where it is read.
    @Test func aLayoutOnlyAReplacedAcknowledgementListedIsNoLongerAwaitedWhereItIsRead() {
        var tracker = ActionTracker(actionId: "A", firstHop: ["presentation-policy"])
        tracker.observe(message("l1", from: "presentation-policy", .deviceLayout(layout)))
        tracker.observe(ack("s1", from: "presentation-policy", handled: "A", emitted: ["l1"]))
        #expect(tracker.awaiting == "an acknowledgement from input-handling")
        tracker.observe(message("p1", from: "presentation-policy", .mediaAddRequested(MediaAddRequested(kind: .photo))))
        tracker.observe(ack("p2", from: "presentation-policy", handled: "A", emitted: ["p1"]))
        #expect(tracker.isComplete)
    }

    @Test func aMessageListedInAnAckButMissingKeepsItWaiting() {
        var tracker = ActionTracker(actionId: "A", firstHop: ["roster"])
        tracker.observe(ack("r2", from: "roster", handled: "A", emitted: ["r1"]))
        #expect(!tracker.isComplete)
        #expect(tracker.awaiting.contains("1 message"))
    }

    @Test func otherActionsMessagesAndDuplicatesAreIgnored() {
        var tracker = ActionTracker(actionId: "A", firstHop: ["roster"])
        let other = tracker.observe(ack("x", from: "roster", handled: "B", emitted: [], forwarded: []).withCorrelation("B"))
        let first = tracker.observe(message("r1", from: "roster", .ping(Ping())))
        let again = tracker.observe(message("r1", from: "roster", .ping(Ping())))
        #expect(!other)
        #expect(first)
        #expect(!again)
        #expect(tracker.received.count == 1)
    }

    @Test func errorsAreCollectedWithTheirService() {
        var tracker = ActionTracker(actionId: "A", firstHop: ["input-handling"])
        tracker.observe(message("e", from: "input-handling", .error(ErrorBody(code: "unknown-element", message: "laser"))))
        #expect(tracker.errors.map(\.service) == ["input-handling"])
        #expect(tracker.errors.map(\.error.code) == ["unknown-element"])
    }

    /// Sending the action again, a refusal that only says to (`not-owner`, `fenced`) and the
    /// acknowledgement listing it are no answer: the hop stays awaited and the instance that
    /// decides answers it. Not sending again, the refusal is the outcome, as any other.
    @Test func aRefusalToSendItAgainIsNoAnswerWhenTheActionIsSentAgain() {
        for code in ["not-owner", "fenced"] {
            let refusal = [
                message("e1", from: "presentation-policy", .error(ErrorBody(code: code, message: "send it again", offendingId: "A"))),
                ack("e2", from: "presentation-policy", handled: "A", emitted: ["e1"]),
            ]
            var retrying = ActionTracker(actionId: "A", firstHop: ["presentation-policy"], retrying: true)
            #expect(refusal.map { retrying.observe($0) } == [false, false])
            #expect(!retrying.isComplete && retrying.received.isEmpty && retrying.awaiting == "an acknowledgement from presentation-policy")
            #expect(retrying.lastSetAside?.service == "presentation-policy" && retrying.lastSetAside?.error.code == code)
            retrying.observe(message("p1", from: "presentation-policy", .unchanged(Unchanged(reason: "same-orientation", message: "no"))))
            retrying.observe(ack("p2", from: "presentation-policy", handled: "A", emitted: ["p1"]))
            #expect(retrying.isComplete && retrying.received.map(\.id) == ["p1", "p2"])
            #expect(retrying.outcome(of: .rotate).result == .unchanged)

            var once = ActionTracker(actionId: "A", firstHop: ["presentation-policy"])
            #expect(refusal.map { once.observe($0) } == [true, true])
            #expect(once.isComplete && once.outcome(of: .rotate).result == .refused && once.lastSetAside == nil)
        }
        // Any other refusal is the answer, sending again or not.
        var other = ActionTracker(actionId: "A", firstHop: ["presentation-policy"], retrying: true)
        other.observe(message("e1", from: "presentation-policy", .error(ErrorBody(code: "modal-alert", message: "an alert is up", offendingId: "A"))))
        other.observe(ack("e2", from: "presentation-policy", handled: "A", emitted: ["e1"]))
        #expect(other.isComplete && other.outcome(of: .tap).reason == "modal-alert")
    }
}

extension Envelope {
    func withCorrelation(_ id: String) -> Envelope {
        var copy = self
        copy.correlationId = id
        return copy
    }
}

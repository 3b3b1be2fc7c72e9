@testable import Bench
import Domain
import Testing
import TestTiers

/// `TapChain`: when the bench's weapon tap is complete, and how many services it went through.
@Suite(.tags(.unit)) struct TapChainTests {
    let input = MonsterBus.Service.inputHandling, roster = MonsterBus.Service.roster, policy = MonsterBus.Service.presentationPolicy

    /// `service`'s acknowledgement of `handled` (an id), passing on `forwarded`.
    func ack(_ chain: inout TapChain, _ service: String, handled: String, forwarded: [Forward] = [], at time: Double = 0) {
        let body = Ack(handled: MessageType.tap.rawValue, handledId: handled, emitted: [], forwarded: forwarded)
        chain.observe(.ack, correlationId: chain.actionId, service: service, ack: body, at: time)
    }

    @Test func aWeaponTapStraightToInputHandlingIsTwoHopsAndDoneAtRostersAck() {
        var chain = TapChain(actionId: "tap", final: [.monsterUpdated])
        ack(&chain, input, handled: "tap", forwarded: [Forward(id: "selected", service: roster)])
        chain.observe(.monsterUpdated, correlationId: "tap", service: roster, ack: nil, at: 2)
        #expect(!chain.isDone)
        ack(&chain, roster, handled: "selected")
        #expect(chain.isDone)
        #expect(chain.hops == 2)
        #expect(chain.finalAt == 2)
    }

    @Test func aWeaponTapThroughPresentationPolicyIsThreeHopsWhateverOrderTheAcksCome() {
        var chain = TapChain(actionId: "tap", final: [.monsterUpdated])
        // roster's ack overtakes input-handling's, which passed its request on.
        chain.observe(.monsterUpdated, correlationId: "tap", service: roster, ack: nil, at: 3)
        ack(&chain, roster, handled: "selected")
        ack(&chain, policy, handled: "tap", forwarded: [Forward(id: "input-tap", service: input)])
        #expect(!chain.isDone)
        ack(&chain, input, handled: "input-tap", forwarded: [Forward(id: "selected", service: roster)])
        #expect(chain.isDone)
        #expect(chain.hops == 3)
    }

    @Test func isNotDoneWithoutTheFinalAnswerNorWithoutTheActionsOwnAck() {
        var chain = TapChain(actionId: "tap", final: [.presented, .dismissed])
        ack(&chain, policy, handled: "tap")
        #expect(!chain.isDone)
        var other = TapChain(actionId: "tap", final: [.presented, .dismissed])
        other.observe(.dismissed, correlationId: "tap", service: policy, ack: nil, at: 1)
        #expect(!other.isDone)
        chain.observe(.dismissed, correlationId: "tap", service: policy, ack: nil, at: 1)
        #expect(chain.isDone)
    }

    @Test func ignoresOtherActionsAndRepeatsAndNotesARefusal() {
        var chain = TapChain(actionId: "tap", final: [.monsterUpdated])
        chain.observe(.monsterUpdated, correlationId: "earlier", service: roster, ack: nil, at: 1)
        let repeated = Ack(handled: MessageType.tap.rawValue, handledId: "tap", emitted: [], forwarded: [], duplicate: true)
        chain.observe(.ack, correlationId: "tap", service: input, ack: repeated, at: 1)
        #expect(chain.finalAt == nil)
        #expect(chain.hops == 0)
        #expect(chain.refusal == nil)
        chain.observe(.error, correlationId: "tap", service: input, ack: nil, at: 2)
        #expect(chain.refusal == "error from input-handling")
    }
}

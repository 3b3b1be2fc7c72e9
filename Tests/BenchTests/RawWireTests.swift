@testable import Bench
import Testing
import TestTiers

/// The raw echoes' topics when several answer as sharded instances do (the sharded row's
/// reference): each member hears only its own pings and its own updates.
@Suite(.tags(.unit)) struct RawWireTests {
    @Test func eachMembersTopicsAreItsOwnAndNoneIsTheSingleEchosOrAnothersPrefix() {
        let members = 0..<12
        let topics = members.flatMap { [RawWire.ownerTopic($0), RawWire.standbyTopic($0), RawWire.endpointTopic($0)] }
        for (index, topic) in topics.enumerated() {
            // A SUB socket matches by prefix: no topic may start with another member's.
            for (other, prefix) in topics.enumerated() where other != index {
                #expect(!topic.starts(with: prefix))
            }
            #expect(!topic.starts(with: RawWire.pingTopic))
        }
        #expect(members.allSatisfy { RawWire.standbyTopic($0).starts(with: RawWire.standbyPrefix) })
        #expect(members.allSatisfy { !RawWire.ownerTopic($0).starts(with: RawWire.standbyPrefix) })
        // The `direct` shape's announcements reach no member as a ping or an update.
        #expect(members.allSatisfy { RawWire.endpointTopic($0).starts(with: RawWire.endpointPrefix) })
        #expect(members.allSatisfy { !RawWire.ownerTopic($0).starts(with: RawWire.endpointPrefix) && !RawWire.standbyTopic($0).starts(with: RawWire.endpointPrefix) })
        #expect(String(decoding: RawWire.ownerTopic(10), as: UTF8.self) == "bench.own/10/")
    }

    /// An update as the echoes write it: `size` bytes, its sequence and its own size stamped.
    private func update(_ sequence: UInt64, size: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: size)
        RawWire.stamp(sequence, into: &bytes)
        RawWire.stamp(UInt64(size), into: &bytes, at: 16)
        return bytes
    }

    @Test func aBatchOfUpdatesUnpacksIntoTheSameUpdatesInOrder() {
        let updates = [update(1, size: 1_430), update(2, size: 32), update(3, size: 700)]
        let packed = RawWire.pack(updates)
        #expect(packed.count == 1_430 + 32 + 700)
        #expect(RawWire.unpack(packed) == updates)
        #expect(RawWire.pack([updates[0]]) == updates[0])
        #expect(RawWire.unpack(updates[0]) == [updates[0]])
    }

    @Test func aPayloadThatDoesNotDivideIntoUpdatesIsRefused() {
        let whole = RawWire.pack([update(1, size: 64), update(2, size: 64)])
        #expect(RawWire.unpack(Array(whole.dropLast())) == nil)  // the last one cut short
        #expect(RawWire.unpack(whole + [1, 2, 3]) == nil)  // a tail shorter than a header
        #expect(RawWire.unpack(update(1, size: 64).map { _ in 0 }) == nil)  // a size below 32
    }

    @Test func batchesOfTheProductsUpdatesStayUnderTheBussLimit() {
        #expect(RawWire.batchLimit * RawClient.productUpdate < 65_536)
    }

    @Test func everyShapeIsNamedOnTheCommandLineByItsRawValue() {
        #expect(RawWire.Replication.allCases.map(\.rawValue) == ["active", "chain", "tail", "batched", "acknowledged", "split", "direct"])
        #expect(RawWire.Replication(rawValue: "split") == .split)
    }

    @Test func aBatchsAcknowledgementListsEverySequenceItAnswers() {
        let payload = RawWire.acknowledging([7, 8, 12], size: 446)
        #expect(payload.count == 446)
        #expect(RawWire.sequence(of: payload) == RawWire.acknowledgements)
        #expect(RawWire.acknowledged(in: payload) == [7, 8, 12])
        #expect(RawWire.acknowledging(Array(1...100), size: 446).count == 16 + 800)
        #expect(RawWire.acknowledged(in: Array(RawWire.acknowledging([1, 2], size: 0).dropLast())) == [])
    }
}

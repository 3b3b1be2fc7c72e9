@testable import Bench
import Testing
import TestTiers

/// The raw echoes' topics when several answer as sharded instances do (the sharded row's
/// reference): each member hears only its own pings and its own updates.
@Suite(.tags(.unit)) struct RawWireTests {
    @Test func eachMembersTopicsAreItsOwnAndNoneIsTheSingleEchosOrAnothersPrefix() {
        let members = 0..<12
        let topics = members.flatMap { [RawWire.ownerTopic($0), RawWire.standbyTopic($0)] }
        for (index, topic) in topics.enumerated() {
            // A SUB socket matches by prefix: no topic may start with another member's.
            for (other, prefix) in topics.enumerated() where other != index {
                #expect(!topic.starts(with: prefix))
            }
            #expect(!topic.starts(with: RawWire.pingTopic))
        }
        #expect(members.allSatisfy { RawWire.standbyTopic($0).starts(with: RawWire.standbyPrefix) })
        #expect(members.allSatisfy { !RawWire.ownerTopic($0).starts(with: RawWire.standbyPrefix) })
        #expect(String(decoding: RawWire.ownerTopic(10), as: UTF8.self) == "bench.own/10/")
    }
}

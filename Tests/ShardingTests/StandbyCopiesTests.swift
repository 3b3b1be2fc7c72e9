import Domain
@testable import Sharding
import Testing
import Wire
import TestTiers

/// Which updates a standby takes: the owner's, newer ones only; a handover; never a deposed
/// owner's over the current owner's; never a member at another epoch.
@Suite(.tags(.unit))
struct StandbyCopiesTests {
    let members = ["pp-a", "pp-b", "pp-c"]
    let epochs: [String: Int64] = ["pp-a": 10, "pp-b": 11, "pp-c": 12]
    var table: ShardTable { ShardTable(members: members) }

    /// A device, its owner and the other two members (its standby first).
    func device(ownedBy owner: String) throws -> (device: String, standby: String, third: String) {
        let device = try #require((0..<500).map { "dev-\($0)" }.first { table.owner(ofBucket: ShardTable.bucket(of: $0)) == owner })
        let standby = try #require(table.standby(ofBucket: ShardTable.bucket(of: device)))
        let third = try #require(members.first { $0 != owner && $0 != standby })
        return (device, standby, third)
    }

    func update(from owner: String, to standby: String, epoch: Int64? = nil, sequence: UInt64, state: String? = "{}") -> Replica {
        Replica(standby: standby, owner: owner, epoch: epoch ?? epochs[owner] ?? 0, sequence: sequence,
                snapshot: state.map { NestedValue(bytes: Array($0.utf8)) })
    }

    @Test func theOwnersUpdatesAreTakenInOrderAndAnOlderOneSentAgainIsNot() throws {
        let (device, standby, _) = try device(ownedBy: "pp-a")
        var copies = StandbyCopies()
        #expect(copies.take(update(from: "pp-a", to: standby, sequence: 1, state: "{\"n\":1}"), of: device, epochs: epochs, table: table) == .taken)
        #expect(copies.take(update(from: "pp-a", to: standby, sequence: 3, state: "{\"n\":3}"), of: device, epochs: epochs, table: table) == .taken)
        #expect(copies.take(update(from: "pp-a", to: standby, sequence: 2, state: "{\"n\":2}"), of: device, epochs: epochs, table: table) == .stale)
        #expect(copies.take(update(from: "pp-a", to: standby, sequence: 3, state: "{\"n\":3}"), of: device, epochs: epochs, table: table) == .stale)
        #expect(copies.copies[device]?.snapshot == NestedValue(bytes: Array("{\"n\":3}".utf8)))
    }

    /// What an action sent onward is kept with the copy, by action, for the last few actions; an
    /// update that sent nothing onward keeps what was kept.
    @Test func whatTheLastActionsSentOnwardIsKeptWithTheCopy() throws {
        let (device, standby, _) = try device(ownedBy: "pp-a")
        var copies = StandbyCopies()
        func sent(_ action: String) -> [Onward] { [Onward(topic: "device.layout.changed", message: NestedValue(bytes: Array("{\"id\":\"\(action)\"}".utf8)))] }
        for sequence in 1...6 {
            var next = update(from: "pp-a", to: standby, sequence: UInt64(sequence))
            next.action = "a-\(sequence)"
            next.onward = sequence == 6 ? nil : sent("a-\(sequence)")
            #expect(copies.take(next, of: device, epochs: epochs, table: table) == .taken)
        }
        let kept = try #require(copies.copies[device]?.onward)
        #expect(kept.map(\.action) == ["a-2", "a-3", "a-4", "a-5"])
        #expect(kept.last?.messages == sent("a-5"))
    }

    @Test func anUpdateFromAMemberAtAnotherEpochIsRefused() throws {
        let (device, standby, _) = try device(ownedBy: "pp-a")
        var copies = StandbyCopies()
        // pp-a lost its lease and joined again: its old incarnation's update is refused.
        let verdict = copies.take(update(from: "pp-a", to: standby, epoch: 9, sequence: 1), of: device, epochs: epochs, table: table)
        guard case .refused = verdict else { Issue.record("\(verdict)"); return }
        let gone = copies.take(update(from: "pp-x", to: standby, epoch: 4, sequence: 1), of: device, epochs: epochs, table: table)
        guard case .refused = gone else { Issue.record("\(gone)"); return }
        #expect(copies.copies.isEmpty)
    }

    @Test func aDeposedOwnersLateUpdateNeverReplacesTheOwnersCopy() throws {
        let (device, standby, third) = try device(ownedBy: "pp-a")
        var copies = StandbyCopies()
        #expect(copies.take(update(from: "pp-a", to: standby, sequence: 5, state: "{\"by\":\"a\"}"), of: device, epochs: epochs, table: table) == .taken)
        let verdict = copies.take(update(from: third, to: standby, sequence: 90, state: "{\"by\":\"late\"}"), of: device, epochs: epochs, table: table)
        guard case .refused = verdict else { Issue.record("\(verdict)"); return }
        #expect(copies.copies[device]?.snapshot == NestedValue(bytes: Array("{\"by\":\"a\"}".utf8)))
    }

    @Test func aHandoverOrAnUpdateBeforeTheMembersChangedHereIsTaken() throws {
        let (device, standby, third) = try device(ownedBy: "pp-a")
        var copies = StandbyCopies()
        // No copy from the owner held: another member's word is kept until the view here moves on.
        #expect(copies.take(update(from: third, to: standby, sequence: 1, state: "{\"by\":\"c\"}"), of: device, epochs: epochs, table: table) == .taken)
        // The owner's update replaces it.
        #expect(copies.take(update(from: "pp-a", to: standby, sequence: 1, state: "{\"by\":\"a\"}"), of: device, epochs: epochs, table: table) == .taken)
        #expect(copies.copies[device]?.owner == "pp-a")
    }

    @Test func aForgottenDeviceIsDropped() throws {
        let (device, standby, _) = try device(ownedBy: "pp-b")
        var copies = StandbyCopies()
        #expect(copies.take(update(from: "pp-b", to: standby, sequence: 1), of: device, epochs: epochs, table: table) == .taken)
        #expect(copies.take(update(from: "pp-b", to: standby, sequence: 2, state: nil), of: device, epochs: epochs, table: table) == .taken)
        #expect(copies.copies[device] == nil)
    }
}

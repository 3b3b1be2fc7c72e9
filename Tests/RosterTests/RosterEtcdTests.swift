import Domain
import RosterCore
import RosterEtcd
@testable import Sharding
import Testing
import TestTiers
import Wire

/// The roster's data in etcd apart from etcd: where each part is kept, the fenced transaction
/// each change is stored with, what a refused one means, and reading the roster back.
@Suite(.tags(.unit)) struct RosterEtcdTests {
    let leader = EtcdCondition.created("/monsterbus/leader/roster", at: 41)

    @Test func theKeysLayOutTheRosterUnderItsPrefix() {
        #expect(RosterKeys.leader == "/monsterbus/leader/roster")
        #expect(RosterKeys.roster == "/monsterbus/roster/roster")
        #expect(RosterKeys.selection("ipad-1") == "/monsterbus/roster/selections/ipad-1")
        #expect(RosterKeys.applied("m-7") == "/monsterbus/roster/applied/m-7")
        // Every data key is under the prefix, and no kind of key is under another's.
        let kinds = [RosterKeys.roster, RosterKeys.selections, RosterKeys.applied]
        #expect(kinds.allSatisfy { $0.hasPrefix(RosterKeys.prefix) })
        #expect(!RosterKeys.leader.hasPrefix(RosterKeys.prefix))
        for kind in kinds { #expect(kinds.filter { $0.hasPrefix(kind) } == [kind]) }
    }

    @Test func aSelectionIsStoredWithItsMessagesAppliedKeyFencedByTheEpoch() throws {
        let write = try RosterWrites.storing(
            .selection(device: "ipad-1", monster: "Ice-Bot"), decidedBy: RosterCore(databaseId: "db"), messageId: "m-1",
            token: Array("a 41 1".utf8), appliedLease: 9, epoch: 41, now: 1_700_000_000)
        #expect(write.conditions == [leader, .created("/monsterbus/roster/applied/m-1", at: 0)])
        #expect(write.operations == [
            .put("/monsterbus/roster/selections/ipad-1", Array(#"{"monster":"Ice-Bot","used":1700000000}"#.utf8), lease: nil),
            .put("/monsterbus/roster/applied/m-1", Array("a 41 1".utf8), lease: 9),
        ])
    }

    @Test func aForgetDeletesTheSelection() throws {
        let write = try RosterWrites.storing(
            .forget(device: "ipad-1"), decidedBy: RosterCore(), messageId: "m-2", token: [1], appliedLease: 9, epoch: 41, now: 0)
        #expect(write.operations.first == .delete("/monsterbus/roster/selections/ipad-1"))
        #expect(write.conditions == [leader, .created("/monsterbus/roster/applied/m-2", at: 0)])
        let idle = RosterWrites.forgetting(["a", "b"], epoch: 41)
        #expect(idle.conditions == [leader])
        #expect(idle.operations == [.delete("/monsterbus/roster/selections/a"), .delete("/monsterbus/roster/selections/b")])
    }

    @Test func aMonsterChangeStoresTheWholeRosterAtItsNewRevisionAndReadsBack() throws {
        var core = RosterCore(databaseId: "db-1")
        core.apply(.selection(device: "ipad", monster: "Dog-Bot"))
        let decision = core.decide(device: "ipad", action: .weaponSelected(WeaponSelected(weapon: .smoke)))
        let change = try #require(decision.change)
        let write = try RosterWrites.storing(change, decidedBy: core, messageId: "m-3", token: [1], appliedLease: 9, epoch: 41, now: 5)
        guard case .put(let key, let value, let lease)? = write.operations.first else { Issue.record("\(write.operations)"); return }
        #expect(key == RosterKeys.roster && lease == nil)
        let stored = EtcdKeyValue(key: key, value: value, createRevision: 2, modRevision: 9)
        let selection = EtcdKeyValue(
            key: RosterKeys.selection("ipad"), value: try JSONCoding.encode(StoredSelection(monster: "Dog-Bot", used: 7)), createRevision: 3,
            modRevision: 3)
        let (read, used) = try #require(try RosterWrites.load(roster: stored, selections: [selection]))
        var expected = core
        expected.apply(change)
        #expect(read.revision == 1 && read.databaseId == "db-1")
        #expect(read.monsters == expected.monsters)
        #expect(read.selections == ["ipad": "Dog-Bot"])
        #expect(used == ["ipad": 7])
    }

    @Test func aNewRosterIsTheCatalogueCreatedOnlyWhereThereIsNone() throws {
        let create = try RosterWrites.creating(databaseId: "db-2", epoch: 41)
        #expect(create.conditions == [leader, .created(RosterKeys.roster, at: 0)])
        guard case .put(let key, let value, nil)? = create.operations.first, create.operations.count == 1 else {
            Issue.record("\(create.operations)"); return
        }
        let (core, _) = try #require(try RosterWrites.load(roster: EtcdKeyValue(key: key, value: value, createRevision: 5, modRevision: 5), selections: []))
        #expect(core.monsters == Catalogue.monsters && core.revision == 0 && core.databaseId == "db-2")
        #expect(try RosterWrites.load(roster: nil, selections: []) == nil)
    }

    /// A refused write: its own lost attempt, another writer, a duplicate, or neither.
    @Test func aRefusedWriteIsToldApartByTheLeaderKeyAndTheAppliedKey() {
        let mine = Array("a 41 3".utf8), other = Array("a 40 9".utf8)
        #expect(RosterWrites.refusal(leaderEpoch: 41, epoch: 41, applied: mine, token: mine) == .storedEarlier)
        // Stored by the attempt whose answer was lost, even if the epoch ended since.
        #expect(RosterWrites.refusal(leaderEpoch: 50, epoch: 41, applied: mine, token: mine) == .storedEarlier)
        #expect(RosterWrites.refusal(leaderEpoch: 50, epoch: 41, applied: nil, token: mine) == .fenced)
        #expect(RosterWrites.refusal(leaderEpoch: nil, epoch: 41, applied: nil, token: mine) == .fenced)
        // A deposed writer says it is deposed, not that a message is a duplicate.
        #expect(RosterWrites.refusal(leaderEpoch: 50, epoch: 41, applied: other, token: mine) == .fenced)
        #expect(RosterWrites.refusal(leaderEpoch: 41, epoch: 41, applied: other, token: mine) == .duplicate)
        #expect(RosterWrites.refusal(leaderEpoch: 41, epoch: 41, applied: nil, token: mine) == .unexplained)
    }

    @Test func dataThisVersionCannotReadIsAnErrorNamingItsKey() throws {
        let good = try JSONCoding.encode(RosterCore(databaseId: "db").snapshot(for: nil))
        let roster = EtcdKeyValue(key: RosterKeys.roster, value: good, createRevision: 1, modRevision: 1)
        let cases: [(EtcdKeyValue, [EtcdKeyValue], String)] = [
            (EtcdKeyValue(key: RosterKeys.roster, value: Array("{".utf8), createRevision: 1, modRevision: 1), [], RosterKeys.roster),
            (EtcdKeyValue(key: RosterKeys.roster, value: try JSONCoding.encode(RosterCore().snapshot(for: nil)), createRevision: 1, modRevision: 1),
             [], "identity"),
            (EtcdKeyValue(key: RosterKeys.roster, value: try JSONCoding.encode(RosterSnapshot(revision: 3, monsters: [], selected: nil, databaseId: "db")),
                          createRevision: 1, modRevision: 1), [], "catalogue"),
            (roster, [EtcdKeyValue(key: RosterKeys.selection("d"), value: Array("[]".utf8), createRevision: 1, modRevision: 1)], "selections/d"),
            (roster, [EtcdKeyValue(
                key: RosterKeys.selection("d"), value: try JSONCoding.encode(StoredSelection(monster: "Nobody-Bot", used: 1)), createRevision: 1,
                modRevision: 1)], "Nobody-Bot"),
        ]
        for (stored, selections, named) in cases {
            do {
                _ = try RosterWrites.load(roster: stored, selections: selections)
                Issue.record("read without an error: \(named)")
            } catch {
                #expect(error.description.contains(named), "\(error)")
            }
        }
    }
}

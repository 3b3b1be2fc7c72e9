import Domain
import Testing
import TestTiers

/// The Clone pattern's client: snapshot, held updates, gap detection.
@Suite(.tags(.unit)) struct RosterReplicaTests {
    func update(_ revision: UInt64, _ name: String, _ weapon: Weapon, database: String = "db-1") -> MonsterUpdated {
        MonsterUpdated(revision: revision, monster: Catalogue.monster(named: name)!.with(weapon: weapon), change: "weapon", databaseId: database)
    }

    func snapshot(_ revision: UInt64, _ monsters: [Monster] = Catalogue.monsters, database: String = "db-1") -> RosterSnapshot {
        RosterSnapshot(revision: revision, monsters: monsters, selected: nil, databaseId: database)
    }

    @Test func anUpdateFromANewDatabaseMakesTheReplicaResynchroniseAndSaySo() {
        var replica = RosterReplica()
        #expect(replica.receive(snapshot(12)) == .nothing)
        #expect(replica.receive(update(13, "Dog-Bot", .fire)) == .nothing)
        // The roster was reset: revision 1 of another database.
        #expect(replica.receive(update(1, "Dog-Bot", .smoke, database: "db-2")) == .snapshot)
        #expect(replica.resynchronisations == 1)
        #expect(replica.lastResynchronisation == .newDatabase(from: "db-1", to: "db-2"))
        #expect(replica.lastResynchronisation?.description.contains("re-synchronising") == true)
        #expect(!replica.isCurrent)
        var fresh = Catalogue.monsters
        fresh[1] = fresh[1].with(weapon: .smoke)
        #expect(replica.receive(snapshot(1, fresh, database: "db-2")) == .nothing)
        #expect(replica.isCurrent)
        #expect(replica.databaseId == "db-2")
        #expect(replica.revision == 1)
        #expect(replica.receive(update(2, "Ice-Bot", .sword, database: "db-2")) == .nothing)
        #expect(replica.revision == 2)
    }

    @Test func aSnapshotOfANewDatabaseReplacesEvenANewerRevision() {
        var replica = RosterReplica()
        #expect(replica.receive(snapshot(12)) == .nothing)
        #expect(replica.receive(snapshot(0, database: "db-2")) == .nothing)
        #expect(replica.revision == 0)
        #expect(replica.databaseId == "db-2")
        #expect(replica.lastResynchronisation == .newDatabase(from: "db-1", to: "db-2"))
    }

    @Test func aRevisionReusedWithOtherContentMakesTheReplicaResynchronise() {
        var replica = RosterReplica()
        #expect(replica.receive(snapshot(11)) == .nothing)
        #expect(replica.receive(update(12, "Dog-Bot", .fire)) == .nothing)
        #expect(replica.receive(update(13, "Dog-Bot", .sword)) == .nothing)
        // The same revision again, the same content: a duplicate, ignored.
        #expect(replica.receive(update(13, "Dog-Bot", .sword)) == .nothing)
        #expect(replica.resynchronisations == 0)
        // Rewound: revision 13 again, with other content.
        #expect(replica.receive(update(13, "Ice-Bot", .smoke)) == .snapshot)
        #expect(replica.lastResynchronisation == .revisionReused(13))
        #expect(!replica.isCurrent)
    }

    /// docs/messages.md: the last 256 revisions applied are remembered to tell one reused with
    /// other content; an older one is no longer known.
    @Test func theLast256RevisionsAreRememberedNoOlderOne() {
        func reused(_ revision: UInt64) -> RosterReplica.Need {
            var replica = RosterReplica()
            _ = replica.receive(snapshot(0))
            for applied in UInt64(1)...300 { _ = replica.receive(update(applied, "Dog-Bot", applied % 2 == 0 ? .fire : .sword)) }
            return replica.receive(update(revision, "Ice-Bot", .smoke))
        }
        #expect(RosterReplica.historyKept == 256)
        #expect(reused(300 - 255) == .snapshot)
        #expect(reused(300 - 256) == .nothing)
    }

    @Test func aNewReplicaWaitsForASnapshot() {
        let replica = RosterReplica()
        #expect(!replica.isCurrent)
        #expect(replica.monsters == nil)
    }

    @Test func updatesAfterTheSnapshotApplyInOrder() {
        var replica = RosterReplica()
        #expect(replica.receive(snapshot(4)) == .nothing)
        #expect(replica.receive(update(5, "Dog-Bot", .fire)) == .nothing)
        #expect(replica.revision == 5)
        #expect(replica.monsters?.first { $0.name == "Dog-Bot" }?.weapon == .fire)
    }

    @Test func updatesBeforeTheSnapshotAreHeldAndOnlyNewerOnesApplied() {
        var replica = RosterReplica()
        #expect(replica.receive(update(4, "Dog-Bot", .smoke)) == .nothing)
        #expect(replica.receive(update(5, "Dog-Bot", .fire)) == .nothing)
        // The snapshot already includes revision 4.
        var base = Catalogue.monsters
        base[1] = base[1].with(weapon: .smoke)
        #expect(replica.receive(snapshot(4, base)) == .nothing)
        #expect(replica.revision == 5)
        #expect(replica.monsters?[1].weapon == .fire)
        #expect(replica.isCurrent)
    }

    @Test func aGapAsksForANewSnapshotWhichRepairsIt() {
        var replica = RosterReplica()
        _ = replica.receive(snapshot(1))
        #expect(replica.receive(update(3, "Ice-Bot", .sword)) == .snapshot)
        #expect(!replica.isCurrent)
        #expect(replica.gapsDetected == 1)
        var repaired = Catalogue.monsters
        repaired[4] = repaired[4].with(weapon: .sword)
        repaired[0] = repaired[0].with(weapon: .smoke)
        #expect(replica.receive(snapshot(3, repaired)) == .nothing)
        #expect(replica.isCurrent)
        #expect(replica.revision == 3)
        #expect(replica.monsters == repaired)
    }

    @Test func oldAndRepeatedUpdatesAreIgnored() {
        var replica = RosterReplica()
        _ = replica.receive(snapshot(7))
        #expect(replica.receive(update(7, "Dog-Bot", .fire)) == .nothing)
        #expect(replica.receive(update(2, "Dog-Bot", .fire)) == .nothing)
        #expect(replica.monsters == Catalogue.monsters)
    }

    @Test func anOlderSnapshotDoesNotRollBack() {
        var replica = RosterReplica()
        _ = replica.receive(snapshot(2))
        _ = replica.receive(update(3, "Dog-Bot", .fire))
        #expect(replica.receive(snapshot(1)) == .nothing)
        #expect(replica.revision == 3)
    }
}

import Domain
import Foundation
import Testing
import Wire
import TestTiers

/// "A message delivered twice is acknowledged as a duplicate and changes nothing" (docs/durability.md,
/// Acknowledged means stored), through the real roster process and its database.
@Suite(.serialized, .tags(.processes)) final class RosterIdempotenceTests {
    /// Sends `envelope` to the roster and returns its acknowledgement.
    func deliver(_ envelope: Envelope, with client: TestClient) throws -> Ack? {
        try client.bus.send(envelope)
        let answer = client.waitFor(timeout: 10) {
            if case .ack(let ack) = $0.body { return ack.handledId == envelope.id && $0.service == MonsterBus.Service.roster }
            return false
        }
        if case .ack(let ack)? = answer?.body { return ack }
        return nil
    }

    @Test func theRosterAcknowledgesARedeliveredChangeAsADuplicateAndDoesNotUndoALaterOne() throws {
        let stack = try Stack(services: [MonsterBus.Service.roster])
        let client = try TestClient(stack, subscriptions: ["ack"])
        #expect(client.waitForPath(to: [MonsterBus.Service.roster]))
        let before = try #require(value(try stack.json("twice", "roster").body("roster.snapshot"), "revision") as? Int)
        // Cat-Bot (the device's selection) starts with the Sword: Fire, then Smoke, then Fire's
        // message delivered again, as a publisher retrying after a lost acknowledgement would.
        let fire = client.bus.envelope(.weaponSelected(WeaponSelected(weapon: .fire)), device: "twice")
        let smoke = client.bus.envelope(.weaponSelected(WeaponSelected(weapon: .smoke)), device: "twice")
        let first = try #require(try deliver(fire, with: client))
        #expect(!first.duplicate && first.emitted.count == 1)
        let second = try #require(try deliver(smoke, with: client))
        #expect(!second.duplicate && second.emitted.count == 1)
        let again = try #require(try deliver(fire, with: client))
        #expect(again.duplicate, "the same id delivered twice must be acknowledged as a duplicate")
        #expect(again.emitted == first.emitted, "a duplicate's ack names what the first delivery published, which is not published again")

        let roster = try #require(try stack.json("twice", "roster").body("roster.snapshot"))
        #expect(roster["revision"] as? Int == before + 2)
        let monsters = try #require(roster["monsters"] as? [[String: Any]])
        #expect(monsters.first { $0["name"] as? String == "Cat-Bot" }?["weapon"] as? String == Weapon.smoke.name)

        // Also after a restart: the applied ids are in the database, not only in memory.
        #expect(stack.stop(MonsterBus.Service.roster, signal: SIGKILL) != nil)
        try stack.start(MonsterBus.Service.roster)
        #expect(client.waitForPath(to: [MonsterBus.Service.roster], timeout: 15))
        let afterRestart = try #require(try deliver(fire, with: client))
        #expect(afterRestart.duplicate)
        let end = try #require(try stack.json("twice", "roster").body("roster.snapshot"))
        #expect(end["revision"] as? Int == before + 2)
        let weapons = try #require(end["monsters"] as? [[String: Any]])
        #expect(weapons.first { $0["name"] as? String == "Cat-Bot" }?["weapon"] as? String == Weapon.smoke.name)
    }
}

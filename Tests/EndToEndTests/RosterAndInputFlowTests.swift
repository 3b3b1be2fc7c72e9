import Domain
import Foundation
import ProcessSupport
import Testing
import Wire
import ZeroMQ
import ZeroMQTransport
import TestTiers

/// SPEC §1.3–1.4 through the real processes: the roster, persisted changes, late joiners, and
/// the weapon input view.
@Suite(.serialized, .tags(.processes)) final class RosterAndInputFlowTests {
    let stack: Stack

    init() throws { stack = try Stack() }

    @Test func theRosterListsSixMonstersAndSelectionShowsTheDetail() throws {
        let roster = try stack.json("ipad", "roster")
        let monsters = try #require(value(roster.body("roster.snapshot"), "monsters") as? [[String: Any]])
        #expect(monsters.count == 6)
        #expect(monsters.map { "\($0["description"] ?? "-") \($0["icon"] ?? "-") \($0["weapon"] ?? "-")" }.first == "MEE-OW meetcatbot.png Sword")
        let select = try stack.json("ipad", "select", "Dog-Bot")
        let monster = try #require(value(select.body("roster.selection"), "monster") as? [String: Any])
        #expect(monster["description"] as? String == "BOW-WOW")
        #expect(monster["weapon"] as? String == "Blowgun")
        #expect(monster["weaponImage"] as? String == "blowgun.png")
    }

    @Test func theWeaponPickerFollowsTheKeyboardWidthAndChangesTheWeapon() throws {
        _ = try stack.json("ipad", "select", "Dog-Bot")
        let show = try stack.json("ipad", "tap", "weapon")
        #expect(show.types == ["input.shown"])
        let shown = try #require(show.body("input.shown"))
        #expect(value(shown, "input.width") as? Int == 768)
        #expect(value(shown, "input.height") as? Int == 110)
        #expect(shown["created"] as? Bool == true)
        let rotate = try stack.json("ipad", "rotate", "landscape")
        #expect(value(rotate.body("input.shown"), "input.width") as? Int == 1024)

        let fire = try stack.json("ipad", "tap", "fire")
        #expect(fire.status == 0, "\(fire.stderr)")
        // Two publishers: input-handling's messages keep their order; roster's update (caused by the
        // selection) may arrive before or after input.hidden.
        #expect(fire.types.filter { $0.hasPrefix("input.") } == ["input.weapon.selected", "input.hidden"])
        #expect(fire.types.sorted() == ["input.hidden", "input.weapon.selected", "roster.monster.updated"])
        #expect(value(fire.body("input.weapon.selected"), "weapon") as? String == "Fire")
        #expect(value(fire.body("input.weapon.selected"), "weaponType") as? Int == 2)
        #expect(value(fire.body("roster.monster.updated"), "monster.name") as? String == "Dog-Bot")
        #expect(value(fire.body("roster.monster.updated"), "monster.weapon") as? String == "Fire")

        // The same weapon again changes nothing in the roster.
        _ = try stack.json("ipad", "tap", "weapon")
        let same = try stack.json("ipad", "tap", "fire")
        #expect(same.types == ["input.weapon.selected", "input.hidden"])
    }

    @Test func closeHidesThePickerAndLaserIsRefused() throws {
        _ = try stack.json("ipad", "tap", "weapon")
        let laser = try stack.json("ipad", "tap", "laser")
        #expect(laser.status == 1)
        #expect(value(laser.body("error"), "code") as? String == "unknown-element")
        #expect((value(laser.body("error"), "message") as? String)?.contains("laser") == true)
        let close = try stack.json("ipad", "tap", "close")
        #expect(close.types == ["input.hidden"])
        #expect(value(close.body("input.hidden"), "reason") as? String == "closed")
    }

    @Test func aViewWithInteractionDisabledNeverGetsTheTapAndANewResponderTakesOver() throws {
        _ = try stack.json("ipad", "interaction", "weapon", "off")
        let refused = try stack.json("ipad", "tap", "weapon")
        #expect(refused.status == 1)
        #expect(!refused.types.contains("input.shown"))
        _ = try stack.json("ipad", "interaction", "weapon", "on")
        _ = try stack.json("ipad", "tap", "weapon")
        let notes = try stack.json("ipad", "tap", "notes")
        #expect(notes.types == ["input.hidden", "input.shown"])
        #expect(value(notes.body("input.shown"), "input.view") as? String == "keyboard")
    }

    @Test func anAcknowledgedWeaponChangeSurvivesSIGKILLOfTheRoster() throws {
        let fire = try stack.pick("fire", from: "weapon", for: "Dog-Bot")
        #expect(fire.types.contains("roster.monster.updated"))
        #expect(stack.stop("roster", signal: SIGKILL) != nil)
        try stack.start("roster")
        try stack.waitUntilAnswering(["roster"])
        let roster = try stack.json("ipad", "roster")
        let monsters = try #require(value(roster.body("roster.snapshot"), "monsters") as? [[String: Any]])
        #expect(monsters.first { $0["name"] as? String == "Dog-Bot" }?["weapon"] as? String == "Fire")
        #expect(value(roster.body("roster.snapshot"), "selected") as? String == "Dog-Bot")
    }

    @Test func aSubscriberThatJoinsLateStillReachesTheWholeRoster() throws {
        // Changes happen before the subscriber exists.
        _ = try stack.pick("blue", from: "color", for: "Ice-Bot")

        let context = try ZMQContext()
        var config = BusConfig()
        config.frontend = stack.frontend
        config.backend = stack.backend
        let bus = try BusConnection(
            context: context, config: config, service: "late-joiner",
            subscriptions: ["roster.", "sys.pong"], lingerMilliseconds: 0)
        defer { bus.close() }
        let deadline = Date().addingTimeInterval(10)
        func next() throws -> Envelope? {
            while Date() < deadline {
                if let frames = try bus.receiveFrames(timeoutMilliseconds: 50), let envelope = try? bus.codec.decode(frames: frames) {
                    return envelope
                }
            }
            return nil
        }
        // Prove the path to roster is live (the pong comes through roster's publisher).
        var live = false
        while !live, Date() < deadline {
            let ping = try bus.publish(.ping(Ping()))
            while let envelope = try bus.receiveFrames(timeoutMilliseconds: 50).flatMap({ try? bus.codec.decode(frames: $0) }) {
                if case .pong(let pong) = envelope.body, pong.service == "roster", envelope.correlationId == ping.id { live = true }
            }
        }
        #expect(live)

        var replica = RosterReplica()
        let request = try bus.publish(.snapshotRequest(SnapshotRequest()))
        while !replica.isCurrent, let envelope = try next() {
            if case .snapshot(let snapshot) = envelope.body, envelope.correlationId == request.id { _ = replica.receive(snapshot) }
        }
        #expect(replica.monsters?.count == 6)
        #expect(replica.monsters?.first { $0.name == "Ice-Bot" }?.color == .blue)

        // And it follows later changes by revision.
        let before = replica.revision
        _ = try stack.json("ipad", "tap", "color")
        _ = try stack.json("ipad", "tap", "green")
        while replica.revision == before, let envelope = try next() {
            if case .monsterUpdated(let update) = envelope.body { #expect(replica.receive(update) == .nothing) }
        }
        #expect(replica.revision == before + 1)
        #expect(replica.monsters?.first { $0.name == "Ice-Bot" }?.color == .green)
    }
}

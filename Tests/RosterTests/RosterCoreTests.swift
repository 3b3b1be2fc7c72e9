import Domain
import RosterCore
import Testing
import TestTiers

/// SPEC §1.3: the six monsters, selection per device, weapon and colour changes.
@Suite(.tags(.inMemory)) struct RosterCoreTests {
    @Test func theRosterHasTheSixMonstersOfTheTutorial() {
        let snapshot = RosterCore().snapshot(for: "ipad")
        #expect(snapshot.revision == 0)
        #expect(snapshot.selected == "Cat-Bot")
        let rows = snapshot.monsters.map { [$0.name, $0.description, $0.icon, $0.weapon.name, $0.weaponImage] }
        #expect(rows == [
            ["Cat-Bot", "MEE-OW", "meetcatbot.png", "Sword", "sword.png"],
            ["Dog-Bot", "BOW-WOW", "meetdogbot.png", "Blowgun", "blowgun.png"],
            ["Explode-Bot", "Tick, tick, BOOM!", "meetexplodebot.png", "Smoke", "smoke.png"],
            ["Fire-Bot", "Will Make You Steamed", "meetfirebot.png", "NinjaStar", "ninjastar.png"],
            ["Ice-Bot", "Has A Chilling Effect", "meeticebot.png", "Fire", "fire.png"],
            ["Mini-Tomato-Bot", "Extremely Handsome", "meetminitomatobot.png", "NinjaStar", "ninjastar.png"],
        ])
    }

    @Test func weaponTypesKeepTheTutorialsRawValues() {
        #expect(Weapon.allCases.map { "\($0.name) \($0.rawValue)" } == ["Blowgun 0", "NinjaStar 1", "Fire 2", "Sword 3", "Smoke 4"])
    }

    @Test func aSnapshotRequestIsAnsweredWithTheDevicesSelection() {
        var core = RosterCore()
        core.apply(.selection(device: "ipad", monster: "Ice-Bot"))
        let decision = core.decide(device: "ipad", action: .snapshotRequest(SnapshotRequest()))
        #expect(decision.change == nil)
        guard case .snapshot(let snapshot) = decision.effects.first?.body else { Issue.record("no snapshot"); return }
        #expect(snapshot.selected == "Ice-Bot")
    }

    @Test func selectingShowsTheMonstersDetailAndIsStoredPerDevice() throws {
        let core = RosterCore()
        let decision = core.decide(device: "ipad", action: .rosterSelect(RosterSelect(monster: "Dog-Bot")))
        #expect(decision.change == .selection(device: "ipad", monster: "Dog-Bot"))
        #expect(decision.effects == [.publish(.selection(RosterSelection(monster: try #require(Catalogue.monster(named: "Dog-Bot")))))])
    }

    @Test func aNameInAnyCaseSelectsTheMonsterAsTheRosterSpellsIt() {
        let decision = RosterCore().decide(device: "ipad", action: .rosterSelect(RosterSelect(monster: "dog-bot")))
        #expect(decision.change == .selection(device: "ipad", monster: "Dog-Bot"))
    }

    @Test func anUnknownMonsterIsAnErrorAndNoChange() {
        let decision = RosterCore().decide(device: "ipad", action: .rosterSelect(RosterSelect(monster: "Robo-Cop")))
        #expect(decision.change == nil)
        #expect(decision.effects.first?.isError == true)
    }

    @Test func aNewWeaponUpdatesTheSelectedMonsterAtTheNextRevision() throws {
        var core = RosterCore()
        core.apply(.selection(device: "ipad", monster: "Dog-Bot"))
        let decision = core.decide(device: "ipad", action: .weaponSelected(WeaponSelected(weapon: .fire)))
        let fiery = try #require(Catalogue.monster(named: "Dog-Bot")).with(weapon: .fire)
        #expect(decision.change == .monster(fiery, revision: 1))
        #expect(decision.effects == [.publish(.monsterUpdated(MonsterUpdated(revision: 1, monster: fiery, change: "weapon")))])
        core.apply(try #require(decision.change))
        #expect(core.selected(on: "ipad").weapon == .fire)
        #expect(core.revision == 1)
        #expect(core.selected(on: "iphone").name == "Cat-Bot")
    }

    @Test func theSameWeaponChangesNothing() {
        var core = RosterCore()
        core.apply(.selection(device: "ipad", monster: "Dog-Bot"))
        let decision = core.decide(device: "ipad", action: .weaponSelected(WeaponSelected(weapon: .blowgun)))
        #expect(decision == RosterDecision([]))
    }

    @Test func aColourChangeUpdatesTheNameColour() {
        var core = RosterCore()
        core.apply(.selection(device: "ipad", monster: "Ice-Bot"))
        let decision = core.decide(device: "ipad", action: .colorSelected(ColorSelected(color: .red)))
        guard case .monsterUpdated(let update) = decision.effects.first?.body else { Issue.record("no update"); return }
        #expect(update.monster.name == "Ice-Bot")
        #expect(update.monster.color == .red)
        #expect(update.change == "color")
    }

    @Test func changesWithoutADeviceAreRefused() {
        let decision = RosterCore().decide(device: nil, action: .weaponSelected(WeaponSelected(weapon: .fire)))
        #expect(decision.effects.first?.isError == true)
        #expect(decision.change == nil)
    }

    @Test func forgettingADeviceDropsItsSelectionAndSaysWhetherItHadOne() throws {
        var core = RosterCore(selections: ["left": "Dog-Bot"], databaseId: "db-1")
        let decision = core.decide(device: "left", action: .forget(Forget()))
        #expect(decision.change == .forget(device: "left"))
        #expect(decision.effects == [.publish(.forgotten(Forgotten(service: "roster", held: true)))])
        core.apply(try #require(decision.change))
        #expect(core.selections.isEmpty)
        #expect(core.decide(device: "left", action: .forget(Forget())).effects == [.publish(.forgotten(Forgotten(service: "roster", held: false)))])
    }

    @Test func everyRosterBodyCarriesTheDatabaseId() {
        let core = RosterCore(databaseId: "db-1")
        #expect(core.snapshot(for: "ipad").databaseId == "db-1")
        guard case .selection(let selection)? = core.decide(device: "ipad", action: .rosterSelect(RosterSelect(monster: "Dog-Bot"))).effects.first?.body
        else { Issue.record("no selection"); return }
        #expect(selection.databaseId == "db-1")
        guard case .monsterUpdated(let update)? = core.decide(device: "ipad", action: .weaponSelected(WeaponSelected(weapon: .fire))).effects.first?.body
        else { Issue.record("no update"); return }
        #expect(update.databaseId == "db-1")
    }
}

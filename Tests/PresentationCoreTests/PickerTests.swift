import Domain
import Testing
import Wire
@testable import PresentationCore
import TestTiers
import PresentationService

/// SPEC §1.3: the colour picker and the "Monster List" popover.
@Suite(.tags(.unit)) struct PickerTests {
    @Test func chooseColorIsARedGreenBluePopoverOnAnIPadAndTheChooseColorAlertWithCancelFirstOnAnIPhone() throws {
        var harness = Harness()
        let popover = try #require(harness.tap("ipad", "color").first?.presented).presentation
        #expect(popover.content == .color)
        #expect(popover.buttons == ["Red", "Green", "Blue"])
        #expect(popover.contentSize == Size(width: 150, height: 140))
        #expect(popover.anchor?.element == "color")
        let alert = try #require(harness.tap("iphone", "color").first?.presented).presentation
        #expect(alert.style == .alert)
        #expect(alert.message == "Choose Color")
        #expect(alert.buttons == ["Cancel", "Red", "Green", "Blue"])
        #expect(alert.cancelButtonIndex == 0)
    }

    @Test func pickingRedDismissesThePickerAndTellsRoster() throws {
        var harness = Harness()
        _ = harness.tap("ipad", "color")
        let effects = harness.tap("ipad", "red")
        try #require(types(effects) == [.dismissed, .colorSelected])
        #expect(effects[1].body == .colorSelected(ColorSelected(color: .red)))
        #expect(effects[1].forwardTo == MonsterBus.Service.roster)
        #expect(harness.presentation("ipad") == nil)
    }

    @Test func onAnIPhoneTheColourPickerIsAnAlertWithCancel() throws {
        var harness = Harness()
        let alert = try #require(harness.tap("iphone", "color").first?.presented).presentation
        #expect(alert.style == .alert)
        #expect(alert.buttons == ["Cancel", "Red", "Green", "Blue"])
        let effects = harness.tap("iphone", "blue")
        try #require(types(effects) == [.dismissed, .colorSelected])
        #expect(effects[1].body == .colorSelected(ColorSelected(color: .blue)))
    }

    @Test func monsterListInPortraitPresentsTheRosterInAPopover() throws {
        var harness = Harness()
        let popover = try #require(harness.tap("ipad", "monster-list").first?.presented).presentation
        #expect(popover.content == .monsterList)
        #expect(popover.buttons == Catalogue.names)
        #expect(popover.anchor?.element == "monster-list")
        #expect(popover.arrowDirection == .up)
    }

    @Test func selectingAMonsterDismissesTheMonsterListAndTellsRoster() throws {
        var harness = Harness()
        _ = harness.tap("ipad", "monster-list")
        let effects = harness.select("ipad", "Dog-Bot")
        try #require(types(effects) == [.dismissed, .rosterSelect])
        #expect(try #require(effects[0].dismissed).reason == "selection")
        #expect(effects[1].body == .rosterSelect(RosterSelect(monster: "Dog-Bot")))
        #expect(effects[1].forwardTo == MonsterBus.Service.roster)
    }

    @Test func tappingARowOfTheMonsterListSelectsItAndDismissesTheListWithReasonSelection() throws {
        var harness = Harness()
        _ = harness.tap("ipad", "monster-list")
        let effects = harness.tap("ipad", "ice-bot")
        try #require(types(effects) == [.dismissed, .rosterSelect])
        let dismissed = try #require(effects.first?.dismissed)
        #expect(dismissed.reason == "selection")
        #expect(dismissed.presentation.content == .monsterList)
        #expect(harness.presentation("ipad") == nil)
        #expect(effects[1].body == .rosterSelect(RosterSelect(monster: "Ice-Bot")))
    }

    @Test func tappingARowOfTheLandscapeRosterSelectsIt() {
        var harness = Harness()
        _ = harness.rotate("ipad", .landscape)
        let effects = harness.tap("ipad", "row:Fire-Bot")
        #expect(types(effects) == [.rosterSelect])
    }

    @Test func aNameNotOnScreenIsTheRostersToCheck() {
        var harness = Harness()
        let effects = harness.select("ipad", "Robo-Cop")
        #expect(types(effects) == [.rosterSelect])
        #expect(effects.first?.forwardTo == MonsterBus.Service.roster)
    }
}

/// Taps that belong to input-handling, and views with user interaction disabled.
@Suite(.tags(.unit)) struct DeliveryTests {
    @Test func theWeaponImageTapIsPassedToInputHandlingWithTheKeyboardWidth() {
        var harness = Harness()
        let effects = harness.tap("ipad", "weapon")
        #expect(effects == [.forward(
            .inputTap(InputTap(element: "weapon", keyboard: KeyboardMetrics(width: 768, systemHeight: 264, windowHeight: 1024))),
            to: MonsterBus.Service.inputHandling)])
    }

    @Test func aPickerButtonGoesStraightToInputHandlingToJudge() {
        for name in InputElement.weaponPickerButtons {
            #expect(Routing.firstHop(of: .tap(Tap(element: name))) == [MonsterBus.Service.inputHandling])
        }
        #expect(Routing.firstHop(of: .tap(Tap(element: "weapon"))) == [MonsterBus.Service.presentationPolicy])
        #expect(Routing.firstHop(of: .tap(Tap(element: "laser"))) == [MonsterBus.Service.presentationPolicy])
    }

    @Test func aNameNobodyKnowsIsRefusedHereNamingThePickersButtons() {
        var harness = Harness()
        let effects = harness.tap("ipad", "laser")
        #expect(types(effects) == [.error])
        #expect(effects.first?.errorBody?.code == "unknown-element")
        #expect(effects.first?.errorBody?.message.contains("blowgun") == true)
        #expect(harness.core.devices["ipad"] != nil)
    }

    @Test func aViewWithUserInteractionDisabledNeverReceivesTheTap() {
        var harness = Harness()
        _ = harness.send("ipad", .interaction(Interaction(element: "weapon", enabled: false, profile: .ipad)))
        let refused = harness.tap("ipad", "weapon")
        #expect(refused.first?.errorBody?.code == "interaction-disabled")
        #expect(!types(refused).contains(.inputTap))
        _ = harness.send("ipad", .interaction(Interaction(element: "weapon", enabled: true)))
        #expect(types(harness.tap("ipad", "weapon")) == [.inputTap])
    }

    @Test func aNonInteractiveLabelIgnoresTheTap() {
        var harness = Harness()
        #expect(harness.tap("ipad", "description").first?.unchanged?.reason == "no-action")
    }

    @Test func aTapNamesAnElementOrAPointNotBoth() {
        var harness = Harness()
        var tap = Tap(element: "add", profile: .ipad)
        tap.point = Point(x: 1, y: 1)
        #expect(harness.send("ipad", .tap(tap)).first?.errorBody?.code == "bad-tap")
    }

    @Test func describeGivesTheStateOnly() throws {
        var harness = Harness()
        _ = harness.tap("ipad", "add")
        let effects = harness.send("ipad", .describe(Describe()))
        // input-handling and roster answer the same describe themselves (Routing.firstHop).
        try #require(types(effects) == [.deviceState])
        guard case .deviceState(let state) = effects[0].body else { return }
        #expect(state.presentation?.content == .add)
        #expect(state.popoverArrowDirection == .up)
    }

    @Test func withNoPopoverTheArrowDirectionIsUnknown() {
        var harness = Harness()
        let effects = harness.send("ipad", .describe(Describe(profile: .ipad)))
        guard case .deviceState(let state) = effects.first?.body else { Issue.record("no state"); return }
        #expect(state.popoverArrowDirection == .unknown)
    }
}

/// Devices are independent, created from a profile the first time, and refused otherwise.
@Suite(.tags(.unit)) struct DeviceTests {
    @Test func devicesNeverAffectEachOther() {
        var harness = Harness()
        _ = harness.tap("a", "add", profile: .ipad)
        #expect(harness.tap("b", "photo", profile: .ipad).first?.errorBody?.code == "no-such-element")
        #expect(harness.presentation("a")?.content == .add)
        #expect(harness.presentation("b") == nil)
    }

    @Test func anUnknownDeviceWithoutAProfileIsRefused() {
        var harness = Harness()
        let effects = harness.send("nobody", .tap(Tap(element: "add")))
        #expect(effects.first?.errorBody?.code == "unknown-device")
        #expect(harness.core.devices.isEmpty)
    }

    @Test func aKnownDeviceNeedsNoProfile() {
        var harness = Harness()
        _ = harness.tap("mine", "add", profile: .iphone)
        #expect(types(harness.send("mine", .tap(Tap(element: "cancel")))) == [.dismissed])
    }

    @Test func otherHardwareUnderAKnownIdIsRefused() {
        var harness = Harness()
        _ = harness.tap("mine", "add", profile: .iphone)
        #expect(harness.tap("mine", "cancel", profile: .ipad).first?.errorBody?.code == "device-conflict")
        #expect(harness.presentation("mine")?.style == .alert)
    }

    @Test func aMissingDeviceIdIsRefused() {
        var core = PresentationCore(memo: PresentationTables())
        #expect(core.handle(device: nil, action: .tap(Tap(element: "add", profile: .ipad))).first?.errorBody?.code == "missing-device")
    }

    @Test func anImpossibleProfileIsRefused() {
        var harness = Harness()
        var profile = DeviceProfile.ipad
        profile.screen = Size(width: 0, height: 10)
        #expect(harness.tap("bad", "add", profile: profile).first?.errorBody?.code == "bad-profile")
    }

    /// A screen is 1 to 4096 points on each side (the `bad-profile` error says so): both ends
    /// are taken, a hair outside either is refused and no device is made.
    @Test func aScreenFrom1To4096PointsIsTaken_aHairOutsideIsRefused() {
        for (width, height, taken) in [(1.0, 1.0, true), (4096.0, 4096.0, true), (768, 4096, true),
                                       (0.5, 1024, false), (768, 0.999, false), (4096.001, 1024, false), (768, 4097, false)] {
            var harness = Harness()
            var profile = DeviceProfile.ipad
            profile.screen = Size(width: width, height: height)
            let effects = harness.tap("sized", "add", profile: profile)
            #expect((effects.first?.errorBody?.code == "bad-profile") == !taken, "\(width)×\(height): \(effects)")
            #expect((harness.core.devices["sized"] != nil) == taken, "\(width)×\(height)")
        }
    }

    @Test func aRefusedActionLeavesTheDeviceAsItWas() {
        var harness = Harness()
        _ = harness.tap("ipad", "add")
        let before = harness.core.devices["ipad"]
        _ = harness.tap("ipad", "red")
        #expect(harness.core.devices["ipad"] == before)
    }
}
